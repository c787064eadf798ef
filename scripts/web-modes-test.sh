#!/usr/bin/env bash
# The phone page's modes end to end (e2e/web/test_page_modes.py): `remotion host
# --inject xtest` into a real Xvfb, the page in headless Chromium with touch emulation and
# emulated sensors, the X server's own event stream (xinput test-xi2 --root) and a keyboard
# client (xev -root) as witnesses, screenshots of the laser overlay (ImageMagick import);
# everything inside a new network namespace that has only lo. Checks each mode's controls
# reach X as mapped, the layout rule at six sizes with and without a notice, typed text
# (ASCII, é, ß, 😀), the laser overlay and the host's [[profile]] in force on the page. Prints 'N passed, N failed'; exits non-zero on any
# failure. Needs root (unshare -n).
#   REMOTION_SKIP_BUILD=1 scripts/web-modes-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

. scripts/lib/private-netns.sh
enter_private_netns web-modes-test "python3 Xvfb xdotool xinput xev xwininfo xmessage xprop import /usr/bin/chromium /usr/bin/chromedriver" "$@"


stage_workdir remotion-web-modes
artifacts=${ARTIFACTS:-artifacts}/web-modes
mkdir -p "$artifacts"
on_exit 'cp "$work"/*.log "$work"/host.err "$artifacts/" 2>/dev/null'
fail() { echo "web-modes-test: $*"; echo "0 passed, 1 failed"; exit 1; }

# The desk: Xvfb, X's event stream and a keyboard witness, the host, the person accepting phones.
. scripts/lib/web-desk.sh
# The DSU server witnesses the Gamepad mode's touchpad (its fingers in the pad data).
# A [[profile]] for the page's profile note: phones in FPS mode while remotion-pageprofile
# has the focus (the test focuses a window of it, then none).
desk_config_extra=$'[[profile]]\napp = "remotion-pageprofile"\ncontroller = "phone"\nmode = "fps"'
start_web_desk "$work" --dsu-serve 127.0.0.1:0

SE_AVOID_STATS=true ARTIFACTS="$artifacts" timeout 300 python3 e2e/web/test_page_modes.py \
    --url "$url" --xi2-log "$work/xi2.log" --xev-log "$work/xev.log" --profile "$work/profile" \
    --host-err "$work/host.err" --work "$work"
rc=$?
[ $rc -eq 124 ] && echo "web-modes-test: timed out" && echo "0 passed, 1 failed"
if [ $rc -ne 0 ]; then echo "--- host stderr"; tail -20 "$work/host.err"; fi
exit $rc
