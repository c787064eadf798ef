#!/usr/bin/env bash
# The phone page in WebKit (e2e/web/test_webkit_page.py): WebKitGTK's MiniBrowser driven by
# Debian's WebKitWebDriver, `remotion host --inject xtest` into a real Xvfb (the desk), the X
# server's own event stream (xinput test-xi2 --root), a keyboard client (xev) and XQueryPointer
# as witnesses; everything inside a new network namespace that has only lo. Pairing, Start
# motion (the test provides iOS's requestPermission() surface and the sensor events: this
# WebKitGTK has neither, nor sensor emulation), every mode, the WebSocket transport (this
# WebKitGTK has no RTCPeerConnection: the data-channel path is not exercised in WebKit here),
# the layout rule at six sizes, screenshots. Prints 'N passed, N failed'; exits non-zero on
# any failure. Needs root (unshare -n).
#   REMOTION_SKIP_BUILD=1 scripts/webkit-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."
minibrowser=/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser

if [ -z "${REMOTION_IN_NETNS:-}" ]; then
    for tool in unshare ip python3 Xvfb xdotool xinput xev /usr/bin/WebKitWebDriver $minibrowser; do
        command -v "$tool" >/dev/null || { echo "webkit-test: $tool is missing (bash scripts/setup.sh installs it: webkit2gtk-driver)"; echo "0 passed, 1 failed"; exit 1; }
    done
    if [ -z "${REMOTION_SKIP_BUILD:-}" ]; then
        swift build --product remotion >/dev/null || { echo "webkit-test: build failed"; echo "0 passed, 1 failed"; exit 1; }
    fi
    export REMOTION_BIN="$(swift build --show-bin-path)/remotion"
    exec unshare -n env REMOTION_IN_NETNS=1 "$0" "$@"
fi

ip link set lo up
if ip -o link show | grep -qv ': lo:'; then echo "webkit-test: namespace has more than lo"; echo "0 passed, 1 failed"; exit 1; fi

work=$(mktemp -d)
artifacts=${ARTIFACTS:-artifacts}/webkit
mkdir -p "$artifacts" "$work/phone" "$work/browser"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
    cp "$work"/*.log "$work"/host.err "$work"/browser/webdriver.log "$artifacts/" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "webkit-test: $*"; echo "0 passed, 1 failed"; exit 1; }

. scripts/lib/xvfb.sh     # each Xvfb picks its own free display (-displayfd)
# The phone: MiniBrowser is a real X client, so it gets an X server of its own. On the desk's
# display the host's injected clicks and keys would land on the browser's window.
start_xvfb "$work/phone" || fail "Xvfb (phone) did not start"
pids+=($xvfb_pid)
phone_display=$DISPLAY
# The desk: the host injects here; the witnesses watch it (scripts/lib/xvfb.sh).
start_xvfb "$work" || fail "Xvfb (desk) did not start"
pids+=($xvfb_pid)
start_xi2_witness "$work/xi2.log"; xi2=$?
pids+=($xi2_pid)
[ $xi2 -eq 0 ] || fail "xinput test-xi2 reported no event within 5 s"
start_key_witness "$work/xev.log"; kw=$?
pids+=($key_pid)
[ $kw -eq 0 ] || fail "no keyboard witness"

export XDG_CONFIG_HOME="$work/config"   # no user config: the default button map and settings
"$REMOTION_BIN" host --bind 127.0.0.1 --port 0 --inject xtest --no-discovery --no-dashboard --pair-at-start \
    --web-port 0 --data-dir "$work/data" --ready-file "$work/ready.json" > "$work/host.out" 2> "$work/host.err" &
hostpid=$!
pids+=($hostpid)
# The person at the computer accepts each phone that asks to pair (e2e/web/consent.py; the
# consent itself is tested in scripts/web-controller-test.sh).
python3 e2e/web/consent.py "$work/data" 300 &
pids+=($!)
# The host's readiness signal carries the pairing link (scripts/lib/ready.sh).
. scripts/lib/ready.sh
if ! wait_ready "$work/ready.json" "$hostpid" 30 || ! url=$(ready_require "$work/ready.json" pairingURL); then
    cat "$work/host.err"; fail "the host did not become ready with a pairing link"
fi

SE_AVOID_STATS=true ARTIFACTS="$artifacts" timeout 240 python3 e2e/web/test_webkit_page.py \
    --url "$url" --xi2-log "$work/xi2.log" --xev-log "$work/xev.log" --phone-display "$phone_display" \
    --browser-home "$work/browser" --cert "$work/data/web-cert.pem"
rc=$?
[ $rc -eq 124 ] && echo "webkit-test: timed out" && echo "0 passed, 1 failed"
if [ $rc -ne 0 ]; then echo "--- host stderr"; tail -20 "$work/host.err"; fi
exit $rc
