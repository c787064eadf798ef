# Sourced by the lab scripts: writes DIR/dbus.conf for a private D-Bus "system" bus
# listening on DIR/dbus.sock (never the machine's /run/dbus), open to any local user.
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
