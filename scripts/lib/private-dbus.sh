# Sourced by the lab scripts (scripts/avahi-lo.sh, scripts/netns-lab.sh), which start daemons
# that outlive them and stop them later by their pid files:
#   write_private_dbus_conf DIR   DIR/dbus.conf for a private D-Bus "system" bus listening on
#                                 DIR/dbus.sock (never the machine's /run/dbus), open to any local user
#   close_inherited_fds           closes every descriptor above 2 this shell inherited: a parent
#                                 that waits for a pipe or socket to close (Foundation's Process
#                                 does) would otherwise wait until the daemons exit
#   pidfile_alive FILE            the process FILE names is running
#   stop_pidfile FILE             stops it (TERM, KILL after 3 s) and removes FILE
write_private_dbus_conf() { # DIR
    cat > "$1/dbus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$1/dbus.sock</listen>
  <pidfile>$1/dbus.pid</pidfile>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow receive_sender="*"/>
    <allow eavesdrop="true"/>
  </policy>
</busconfig>
CONF
}

close_inherited_fds() {
    local fd
    for fd in /proc/$$/fd/*; do
        fd=${fd##*/}
        if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
    done
}

pidfile_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop_pidfile() {
    local p i=0
    if pidfile_alive "$1"; then
        p=$(cat "$1")
        kill "$p" 2>/dev/null || true
        while kill -0 "$p" 2>/dev/null; do
            i=$((i + 1)); [ $i -gt 60 ] && { kill -9 "$p" 2>/dev/null || true; break; }
            sleep 0.05
        done
    fi
    rm -f "$1"
}
