#!/usr/bin/env bash
# The web controller end to end (e2e/web/test_web_controller.py): `remotion host`
# injecting through XTest into a real Xvfb, the controller page in headless Chromium with
# emulated phone sensors, the X server's event stream as the witness; everything inside a
# new network namespace that has only lo. Also runs the page's own self-checks under node.
# Prints 'N passed, N failed'; exits non-zero on any failure. Needs root (unshare -n).
#   REMOTION_SKIP_BUILD=1 scripts/web-controller-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

netns_precheck() {
    node e2e/web/run-selftest.mjs > /tmp/remotion-web-selftest.log 2>&1
    selftest=$?
    tail -1 /tmp/remotion-web-selftest.log | sed 's/^/page self-checks: /'
    [ $selftest -eq 0 ] || { grep FAIL /tmp/remotion-web-selftest.log; return 1; }
}
. scripts/lib/private-netns.sh
enter_private_netns web-controller-test "python3 node Xvfb xdotool xinput /usr/bin/chromium /usr/bin/chromedriver" "$@"


stage_workdir remotion-web-controller
mkdir -p artifacts

start_xvfb "$work" || { echo "0 passed, 1 failed"; exit 1; }

# X's own event stream is the witness (scripts/lib/xvfb.sh).
start_xi2_witness "$work/xi2.log"; xi2=$?
pids+=($xi2_pid)
[ $xi2 -eq 0 ] || { echo "0 passed, 1 failed"; exit 1; }
export XDG_CONFIG_HOME="$work/config"   # no user config: pointer mode, default settings
# The host's readiness signal carries every value the test needs (scripts/lib/ready.sh).
start_stage_host web-controller-test "pairingURL dashboardPort" --inject xtest --dashboard-port 0 --pair-at-start --web-port 0
url=$(ready_value "$work/ready.json" pairingURL)
dashboard=$(ready_value "$work/ready.json" dashboardPort)
dashboard_url=$(ready_value "$work/ready.json" dashboardURL)   # its token: the ready file is 0600, like the address file

SE_AVOID_STATS=true ARTIFACTS=artifacts timeout 240 python3 e2e/web/test_web_controller.py \
    --url "$url" --bin "$REMOTION_BIN" --data-dir "$work/data" --xi2-log "$work/xi2.log" --profile "$work/profile" \
    --dashboard "$dashboard" --dashboard-token "${dashboard_url#*#token=}"
rc=$?
[ $rc -eq 124 ] && echo "web-controller-test: timed out" && echo "0 passed, 1 failed"
if [ $rc -ne 0 ]; then echo "--- host stderr"; tail -20 "$work/host.err"; fi
exit $rc
