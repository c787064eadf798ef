#!/usr/bin/env bash
# A phone paired from the dashboard alone (e2e/web/test_dashboard_consent.py):
# `remotion host` with its web controller and dashboard, the dashboard in headless Chromium
# clicking Pair a phone, Accept, Deny, the typing switch and Revoke, and the phone page in
# other Chromium instances; inside a new network namespace that has only lo. No X server:
# the host injects into its log. Prints 'N passed, N failed'; exits non-zero on any failure.
# Needs root (unshare -n).
#   REMOTION_SKIP_BUILD=1 scripts/dashboard-consent-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

. scripts/lib/private-netns.sh
enter_private_netns dashboard-consent-test "python3 /usr/bin/chromium /usr/bin/chromedriver" "$@"

stage_workdir remotion-dashboard-consent
mkdir -p artifacts

export XDG_CONFIG_HOME="$work/config"   # no user config
start_stage_host dashboard-consent-test "dashboardURL webPort" --inject log --dashboard-port 0 --web-port 0
dashboard=$(ready_value "$work/ready.json" dashboardURL)
mkdir -p "$work/profiles"

SE_AVOID_STATS=true ARTIFACTS=artifacts timeout 180 python3 e2e/web/test_dashboard_consent.py \
    --bin "$REMOTION_BIN" --data-dir "$work/data" --dashboard-url "$dashboard" --profiles "$work/profiles"
rc=$?
[ $rc -eq 124 ] && echo "dashboard-consent-test: timed out" && echo "0 passed, 1 failed"
if [ $rc -ne 0 ]; then echo "--- host stderr"; tail -20 "$work/host.err"; fi
exit $rc
