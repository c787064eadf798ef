#!/bin/bash
# Private D-Bus system bus + avahi-daemon for tests, confined to loopback.
#
#   scripts/avahi-lo.sh start STATE_DIR        start bus + daemon, print env to export
#   scripts/avahi-lo.sh stop STATE_DIR         stop both (by pid), remove sockets
#   scripts/avahi-lo.sh stop-avahi STATE_DIR   stop only avahi-daemon (bus keeps running)
#   scripts/avahi-lo.sh start-avahi STATE_DIR  start avahi-daemon again on the running bus
#
# Safety: avahi-daemon runs in its own network namespace (unshare -n) that holds only a
# private `lo`, with allow-interfaces=lo and deny-interfaces=eth0, so no mDNS packet can
# reach the host's interfaces, and several instances (parallel test runs) never see each
# other. It also runs in its own mount namespace (unshare -m) with STATE_DIR/run bound over
# /run/avahi-daemon, so its pid file and socket do not clash with other instances.
# Clients reach it only through the private D-Bus socket STATE_DIR/dbus.sock
# (a path socket, usable from any network namespace): export the printed
# DBUS_SYSTEM_BUS_ADDRESS before creating an avahi client (libavahi-client reads it in
# avahi_client_new). The system bus at /run/dbus is not touched.
. "$(dirname "${BASH_SOURCE[0]}")/lib/private-dbus.sh"
set -eu

close_inherited_fds   # the daemons below must not hold the caller's pipes open

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
    echo "usage: $0 start|stop|start-avahi|stop-avahi STATE_DIR" >&2
    exit 2
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
bus="unix:path=$dir/dbus.sock"

write_configs() {
    write_private_dbus_conf "$dir"
    cat > "$dir/avahi.conf" <<CONF
[server]
host-name=remotion-lab
use-ipv4=yes
use-ipv6=yes
allow-interfaces=lo
deny-interfaces=eth0
ratelimit-interval-usec=1000000
ratelimit-burst=1000
[wide-area]
enable-wide-area=no
[publish]
publish-workstation=no
publish-hinfo=no
publish-aaaa-on-ipv4=yes
publish-a-on-ipv6=no
[reflector]
enable-reflector=no
[rlimits]
CONF
}


start_bus() {
    if pidfile_alive "$dir/dbus.pid"; then return 0; fi
    rm -f "$dir/dbus.pid" "$dir/dbus.sock"
    dbus-daemon --config-file="$dir/dbus.conf" --fork --print-pid \
        > "$dir/dbus.pid.out" 2> "$dir/dbus.log" < /dev/null
    i=0
    while [ ! -S "$dir/dbus.sock" ]; do
        i=$((i + 1)); [ $i -gt 100 ] && { echo "dbus-daemon did not start" >&2; exit 1; }
        sleep 0.05
    done
}

avahi_ready() {
    DBUS_SYSTEM_BUS_ADDRESS=$bus dbus-send --system --print-reply --dest=org.freedesktop.Avahi \
        / org.freedesktop.Avahi.Server.GetState >/dev/null 2>&1
}

start_avahi() {
    if pidfile_alive "$dir/avahi.pid"; then return 0; fi
    mkdir -p "$dir/run"
    rm -f "$dir/run/pid" "$dir/run/socket"
    # mount point for the private bind mount (an empty directory; harmless if it exists)
    mkdir -p /run/avahi-daemon
    # unshare without --fork execs, so $! is avahi-daemon's pid.
    DBUS_SYSTEM_BUS_ADDRESS=$bus unshare -m -n sh -c '
        ip link set lo up &&
        mount --bind "$1/run" /run/avahi-daemon &&
        exec avahi-daemon -f "$1/avahi.conf" --no-drop-root --no-chroot --no-rlimits
    ' sh "$dir" > "$dir/avahi.log" 2>&1 < /dev/null &
    echo $! > "$dir/avahi.pid"
    i=0
    until avahi_ready; do
        i=$((i + 1))
        if [ $i -gt 100 ] || ! pidfile_alive "$dir/avahi.pid"; then
            echo "avahi-daemon did not start; log:" >&2; cat "$dir/avahi.log" >&2; exit 1
        fi
        sleep 0.05
    done
    # wait until the daemon left its own registration phase (state 2 = AVAHI_SERVER_RUNNING)
    i=0
    until DBUS_SYSTEM_BUS_ADDRESS=$bus dbus-send --system --print-reply --dest=org.freedesktop.Avahi \
            / org.freedesktop.Avahi.Server.GetState 2>/dev/null | grep -q 'int32 2'; do
        i=$((i + 1)); [ $i -gt 100 ] && break
        sleep 0.05
    done
}

case "$cmd" in
start)
    write_configs
    start_bus
    start_avahi
    echo "DBUS_SYSTEM_BUS_ADDRESS=$bus"
    echo "REMOTION_AVAHI_PID=$(cat "$dir/avahi.pid")"
    echo "REMOTION_DBUS_PID=$(cat "$dir/dbus.pid")"
    ;;
start-avahi)
    start_avahi
    echo "REMOTION_AVAHI_PID=$(cat "$dir/avahi.pid")"
    ;;
stop-avahi)
    stop_pidfile "$dir/avahi.pid"
    ;;
stop)
    stop_pidfile "$dir/avahi.pid"
    stop_pidfile "$dir/dbus.pid"
    rm -f "$dir/dbus.sock" "$dir/dbus.pid.out"
    ;;
*)
    echo "usage: $0 start|stop|start-avahi|stop-avahi STATE_DIR" >&2
    exit 2
    ;;
esac
