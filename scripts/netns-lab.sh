#!/bin/bash
# Two "hosts" on one machine for discovery tests across a real link:
# network namespaces remotion-a-ID (10.77.0.1/24 on veth rmaID) and remotion-b-ID (10.77.0.2/24
# on veth rmbID), joined by one veth pair. ID is derived from STATE_DIR, so two labs (two test
# suites at once) never share a namespace or an interface name. Each namespace gets its own private D-Bus system bus and
# its own avahi-daemon bound to its veth only (plus IPv6 link-local on the veth, so scoped
# fe80:: addresses can be exercised). Nothing is attached to eth0; no packet leaves the pair.
#
#   scripts/netns-lab.sh up [STATE_DIR]     (default /tmp/remotion-netns-lab)
#   scripts/netns-lab.sh down [STATE_DIR]
#
# `up` prints the names as shell assignments (also kept in STATE_DIR/env); run a program as host A:
#   . STATE_DIR/env; ip netns exec $REMOTION_NETNS_A env DBUS_SYSTEM_BUS_ADDRESS=$REMOTION_NETNS_A_BUS PROGRAM
. "$(dirname "${BASH_SOURCE[0]}")/lib/private-dbus.sh"
set -eu

close_inherited_fds   # the daemons below must not hold the caller's pipes open

cmd=${1:-}
root=${2:-/tmp/remotion-netns-lab}
[ -n "$cmd" ] || { echo "usage: $0 up|down [STATE_DIR]" >&2; exit 2; }
id=$(printf '%s' "$root" | cksum | cut -d' ' -f1)
id=$(printf '%06d' $((id % 1000000)))
ns_a=remotion-a-$id ns_b=remotion-b-$id if_a=rma$id if_b=rmb$id


start_host() { # side ns ifname
    side=$1 ns=$2 ifname=$3
    dir=$root/$side
    mkdir -p "$dir/run"
    write_private_dbus_conf "$dir"
    cat > "$dir/avahi.conf" <<CONF
[server]
host-name=remotion-$side
use-ipv4=yes
use-ipv6=yes
allow-interfaces=$ifname
deny-interfaces=eth0,lo
[wide-area]
enable-wide-area=no
[publish]
publish-workstation=no
publish-hinfo=no
[reflector]
enable-reflector=no
[rlimits]
CONF
    rm -f "$dir/dbus.sock" "$dir/dbus.pid"
    ip netns exec "$ns" dbus-daemon --config-file="$dir/dbus.conf" --fork --print-pid \
        > "$dir/dbus.pid.out" 2> "$dir/dbus.log" < /dev/null
    mkdir -p /run/avahi-daemon
    DBUS_SYSTEM_BUS_ADDRESS=unix:path=$dir/dbus.sock ip netns exec "$ns" unshare -m sh -c '
        mount --bind "$1/run" /run/avahi-daemon &&
        exec avahi-daemon -f "$1/avahi.conf" --no-drop-root --no-chroot --no-rlimits
    ' sh "$dir" > "$dir/avahi.log" 2>&1 < /dev/null &
    echo $! > "$dir/avahi.pid"
    i=0
    until DBUS_SYSTEM_BUS_ADDRESS=unix:path=$dir/dbus.sock dbus-send --system --print-reply \
            --dest=org.freedesktop.Avahi / org.freedesktop.Avahi.Server.GetState 2>/dev/null | grep -q 'int32 2'; do
        i=$((i + 1))
        if [ $i -gt 200 ] || ! pidfile_alive "$dir/avahi.pid"; then
            echo "avahi-daemon in $ns did not start; log:" >&2; cat "$dir/avahi.log" >&2; exit 1
        fi
        sleep 0.05
    done
}

case "$cmd" in
up)
    mkdir -p "$root"
    ip netns add "$ns_a"
    ip netns add "$ns_b"
    ip link add "$if_a" netns "$ns_a" type veth peer name "$if_b" netns "$ns_b"
    ip -n "$ns_a" addr add 10.77.0.1/24 dev "$if_a"
    ip -n "$ns_b" addr add 10.77.0.2/24 dev "$if_b"
    for ns in "$ns_a" "$ns_b"; do ip -n "$ns" link set lo up; done
    ip -n "$ns_a" link set "$if_a" up
    ip -n "$ns_b" link set "$if_b" up
    # wait for IPv6 duplicate address detection of the link-local addresses
    for i in $(seq 1 60); do
        if ! ip -n "$ns_a" -6 addr show dev "$if_a" | grep -q tentative \
            && ! ip -n "$ns_b" -6 addr show dev "$if_b" | grep -q tentative; then break; fi
        sleep 0.05
    done
    start_host a "$ns_a" "$if_a"
    start_host b "$ns_b" "$if_b"
    cat > "$root/env" <<ENV
REMOTION_NETNS_A=$ns_a
REMOTION_NETNS_A_BUS=unix:path=$root/a/dbus.sock
REMOTION_NETNS_A_ADDR=10.77.0.1
REMOTION_NETNS_A_IF=$if_a
REMOTION_NETNS_B=$ns_b
REMOTION_NETNS_B_BUS=unix:path=$root/b/dbus.sock
REMOTION_NETNS_B_ADDR=10.77.0.2
REMOTION_NETNS_B_IF=$if_b
ENV
    cat "$root/env"
    ;;
down)
    for side in a b; do
        stop_pidfile "$root/$side/avahi.pid"
        stop_pidfile "$root/$side/dbus.pid"
        rm -f "$root/$side/dbus.sock"
    done
    ip netns del "$ns_a" 2>/dev/null || true
    ip netns del "$ns_b" 2>/dev/null || true
    ;;
*)
    echo "usage: $0 up|down [STATE_DIR]" >&2; exit 2 ;;
esac
