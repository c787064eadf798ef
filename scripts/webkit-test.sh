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

. scripts/lib/private-netns.sh
enter_private_netns webkit-test "python3 Xvfb xdotool xinput xev /usr/bin/WebKitWebDriver $minibrowser" "$@"


stage_workdir remotion-webkit
artifacts=${ARTIFACTS:-artifacts}/webkit
mkdir -p "$artifacts" "$work/phone" "$work/browser"
on_exit 'cp "$work"/*.log "$work"/host.err "$work"/browser/webdriver.log "$artifacts/" 2>/dev/null'
fail() { echo "webkit-test: $*"; echo "0 passed, 1 failed"; exit 1; }

# The phone: MiniBrowser is a real X client, so it gets an X server of its own. On the desk's
# display the host's injected clicks and keys would land on the browser's window.
start_xvfb "$work/phone" || fail "Xvfb (phone) did not start"
phone_display=$DISPLAY
# The desk: the host injects here; the witnesses watch it (scripts/lib/web-desk.sh).
. scripts/lib/web-desk.sh
start_web_desk "$work"

SE_AVOID_STATS=true ARTIFACTS="$artifacts" timeout 240 python3 e2e/web/test_webkit_page.py \
    --url "$url" --xi2-log "$work/xi2.log" --xev-log "$work/xev.log" --phone-display "$phone_display" \
    --browser-home "$work/browser" --cert "$work/data/web-cert.pem"
rc=$?
[ $rc -eq 124 ] && echo "webkit-test: timed out" && echo "0 passed, 1 failed"
if [ $rc -ne 0 ]; then echo "--- host stderr"; tail -20 "$work/host.err"; fi
exit $rc
