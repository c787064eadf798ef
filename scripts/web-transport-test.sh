#!/usr/bin/env bash
# The web controller's transports end to end (e2e/web/test_web_transport.py): WebRTC data
# channels against `remotion client` (UDP) under nftables loss and an outage, buttons
# under loss, revoked and forged credentials, and the WebSocket fallback with UDP blocked.
# Everything runs inside a new network namespace: lo plus a veth pair whose both ends are
# inside it (192.0.2.1/24, .2/24, default route via .2: Chromium gathers no ICE candidate
# without one), so nothing leaves it. XTest into a real Xvfb is the witness, the X pointer
# sampled every 2 ms (e2e/web/pointer_sampler.c).
# Prints 'N passed, N failed'; exits non-zero on any failure. Needs root (unshare -n).
#   REMOTION_SKIP_BUILD=1 scripts/web-transport-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."
fail() { echo "web-transport-test: $*"; echo "0 passed, 1 failed"; exit 1; }

netns_precheck() {
    gst-inspect-1.0 webrtcbin >/dev/null 2>&1 || fail "GStreamer's webrtcbin is missing (bash scripts/setup.sh installs it)"
}
. scripts/lib/private-netns.sh
enter_private_netns web-transport-test "nft cc python3 Xvfb xdotool xinput /usr/bin/chromium /usr/bin/chromedriver gst-inspect-1.0" "$@"

a="wt$$a"; b="wt$$b"
ip link add "$a" type veth peer name "$b" || fail "cannot make a veth pair"
ip addr add 192.0.2.1/24 dev "$a"; ip addr add 192.0.2.2/24 dev "$b"
ip link set "$a" up; ip link set "$b" up
ip route add default via 192.0.2.2 dev "$a" || fail "cannot add the namespace's default route"
nft add table inet wt && nft add chain inet wt input '{ type filter hook input priority 0; }' || fail "nftables does not work here"

stage_workdir remotion-web-transport
mkdir -p artifacts

cc -O2 e2e/web/pointer_sampler.c -lX11 -o "$work/sampler" || fail "cannot build e2e/web/pointer_sampler.c"
display=$(( 200 + RANDOM % 300 ))
while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do display=$((display + 1)); done
Xvfb ":$display" -screen 0 1920x1080x24 -nolisten tcp -noreset > "$work/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=":$display"
for _ in $(seq 100); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.05; done
xdotool getmouselocation >/dev/null 2>&1 || fail "Xvfb :$display did not start"

xinput test-xi2 --root > "$work/xi2.log" 2>&1 &
pids+=($!)
export XDG_CONFIG_HOME="$work/config"   # no user config: default settings
rtc_ports=40000-40009
"$REMOTION_BIN" host --bind 192.0.2.1 --port 0 --inject xtest --insecure --no-discovery --no-dashboard --pair-at-start \
    --web-port 0 --web-rtc-ports "$rtc_ports" --data-dir "$work/data" --ready-file "$work/ready.json" \
    > "$work/host.out" 2> "$work/host.err" &
host=$!
pids+=($host)
# The host's readiness signal carries the pairing link and the UDP address (scripts/lib/ready.sh).
if ! wait_ready "$work/ready.json" "$host" 30 || ! url=$(ready_require "$work/ready.json" pairingURL) \
   || ! udp=$(ready_require "$work/ready.json" udp); then
    cat "$work/host.err"; fail "the host did not become ready with a pairing link"
fi
# The person at the computer accepts each phone that asks to pair (e2e/web/consent.py).
python3 e2e/web/consent.py "$work/data" 300 &
pids+=($!)

SE_AVOID_STATS=true ARTIFACTS=artifacts timeout 300 python3 e2e/web/test_web_transport.py \
    --url "$url" --udp "$udp" --rtc-ports "$rtc_ports" --bin "$REMOTION_BIN" --data-dir "$work/data" \
    --xi2-log "$work/xi2.log" --profile "$work/profile" --sampler "$work/sampler" --host-err "$work/host.err" \
    | tee "$work/test.out"
rc=${PIPESTATUS[0]}
[ $rc -eq 124 ] && echo "web-transport-test: timed out"
if [ $rc -ne 0 ]; then
    echo "--- host stderr"; tail -20 "$work/host.err"
    # The last line stays the count the suite reads, after the host's lines.
    count=$(grep -aE '^[0-9]+ passed, [0-9]+ failed$' "$work/test.out" | tail -1)
    echo "${count:-0 passed, 1 failed}"
fi
exit $rc
