#!/usr/bin/env bash
# Run by scripts/package-test.sh inside `unshare -n` (a new network namespace): the host that
# Debian 13's root has installed, with the package's Recommends (GStreamer's WebRTC), serves a
# phone's page over data channels. The namespace has lo and a veth pair whose both ends are in
# it (192.0.2.1/24, .2/24, a default route via .2: Chromium gathers no ICE candidate without
# one), so nothing leaves it. The host runs in the root as its user tester (chroot, /proc and
# /dev in a private mount namespace); headless Chromium and the person accepting the phone
# (e2e/web/consent.py, on the host's control socket) run outside the root, in the namespace.
#   package-datachannel.sh ROOT WORK      prints the checks' lines; exits non-zero on a failure
set -u
root=$1 work=$2
cd "$(dirname "$0")/../.."
pids=()
# The host's own pid (not unshare's, which outlives a signal while its child runs) gets SIGINT.
cleanup() {
  [[ -s $work/dc-host.pid ]] && kill -INT "$(cat "$work/dc-host.pid")" 2>/dev/null
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
}
trap cleanup EXIT
ip link set lo up
a="pd$$a" b="pd$$b"
ip link add "$a" type veth peer name "$b" || { echo "package-datachannel: cannot make a veth pair"; exit 1; }
ip addr add 192.0.2.1/24 dev "$a"; ip addr add 192.0.2.2/24 dev "$b"
ip link set "$a" up; ip link set "$b" up
ip route add default via 192.0.2.2 dev "$a"

. scripts/lib/ready.sh
rm -rf "$root/home/tester/dc-data" "$root/tmp/dc-ready.json"
rm -f "$work/dc-host.pid"
PIDFILE=$work/dc-host.pid unshare --mount --fork -- sh -c 'mount -t proc proc "$0/proc" && mount --rbind /dev "$0/dev" &&
  echo $$ >"$PIDFILE" && exec "$@"' "$root" chroot --userspec=tester:tester "$root" env -i PATH=/usr/bin:/bin HOME=/home/tester LANG=C.UTF-8 \
  remotion host --bind 192.0.2.1 --port 0 --inject log --no-discovery --no-dashboard --pair-at-start --web-port 0 \
  --web-rtc-ports 40000-40009 --data-dir /home/tester/dc-data --ready-file /tmp/dc-ready.json \
  >"$work/dc-host.out" 2>"$work/dc-host.err" &
host=$!; pids+=("$host")
if ! wait_ready "$root/tmp/dc-ready.json" "$host" 30 || ! url=$(ready_require "$root/tmp/dc-ready.json" pairingURL); then
  echo "package-datachannel: the host in the root did not become ready with a pairing link"; tail -5 "$work/dc-host.err"; exit 1
fi
if grep -q "WebSocket only" "$work/dc-host.err"; then
  echo "package-datachannel: the host in the root serves the WebSocket only: $(grep -m1 'WebSocket only' "$work/dc-host.err")"; exit 1
fi
python3 e2e/web/consent.py "$root/home/tester/dc-data" 90 & pids+=("$!")
SE_AVOID_STATS=true timeout 120 python3 e2e/package/datachannel_check.py --url "$url" --profile "$work/dc-profile" \
  --host-out "$work/dc-host.out"
rc=$?
((rc == 0)) || tail -5 "$work/dc-host.err"
exit $rc
