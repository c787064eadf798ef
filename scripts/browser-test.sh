#!/usr/bin/env bash
# Browser test of the host dashboard: a real headless Chromium (Debian's chromium +
# chromium-driver, selenium 4.51.0 from PyPI) against `remotion demo --dashboard`, both
# inside a new network namespace that has only lo (nothing can reach eth0).
# A second loopback origin (python's http.server on 127.0.0.2:8000) serves
# e2e/browser/attacker/, a page that tries to drive the dashboard cross-origin.
# Prints 'N passed, N failed' and exits non-zero on any failure. Saves
# artifacts/dashboard.png. Needs root (unshare -n).
#   scripts/browser-test.sh            build, then test
#   REMOTION_SKIP_BUILD=1 scripts/browser-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

netns_precheck() {
    python3 -c 'import selenium' 2>/dev/null || { echo "browser-test: pip install selenium==4.51.0"; return 1; }
}
. scripts/lib/private-netns.sh
enter_private_netns browser-test "python3 /usr/bin/chromium /usr/bin/chromedriver" "$@"
export REMOTION_DEMO_BIN="$REMOTION_BIN"

# Inside the namespace: only lo exists; bring it up.
ip link set lo up

stage_workdir remotion-browser
mkdir -p artifacts
python3 e2e/browser/make_trace.py 120 > "$work/trace.csv"
# The config file the dashboard saves to (settings and the profile editor's [[profile]] tables).
printf '# the browser test: what the dashboard saves lands here\n[mapping]\nsensitivity = 1\n' > "$work/config.toml"
# A crash prints every thread's backtrace into the log (twice, at start-up, a demo host crashed
# here without one; the stage now shows its log's end).
SWIFT_BACKTRACE=enable=yes,threads=all,registers=none,images=none,limit=48 \
"$REMOTION_DEMO_BIN" demo --source "replay:$work/trace.csv" --rate 120 --duration 120 \
    --dashboard 0 --port-file "$work/port" --config "$work/config.toml" > "$work/demo.log" 2>&1 &
demo=$!; pids+=("$demo")
python3 -m http.server 8000 --bind 127.0.0.2 --directory e2e/browser/attacker > "$work/attacker.log" 2>&1 &
attacker=$!; pids+=("$attacker")

# The port file (0600, written at once with rename) holds the port, then the tokened address.
for _ in $(seq 1 300); do [ -s "$work/port" ] && break; kill -0 "$demo" 2>/dev/null || break; sleep 0.1; done
if [ ! -s "$work/port" ]; then
    echo "browser-test: the demo host did not start:"; cat "$work/demo.log"
    echo "0 passed, 1 failed"; exit 1
fi

for _ in $(seq 1 50); do python3 -c 'import socket; socket.create_connection(("127.0.0.2", 8000), 1)' 2>/dev/null && break; sleep 0.1; done
timeout 180 python3 e2e/browser/test_dashboard.py --port "$(sed -n 1p "$work/port")" --url "$(sed -n 2p "$work/port")" \
    --screenshot artifacts/dashboard.png \
    --attacker http://127.0.0.2:8000 --config "$work/config.toml"
rc=$?
[ $rc -eq 124 ] && echo "browser-test: timed out" && echo "0 passed, 1 failed"
# A demo host that died is said with its own last words (a crash's backtrace is in its log).
if ! kill -0 "$demo" 2>/dev/null; then
    wait "$demo"; echo "browser-test: the demo host exited early (status $?); the end of its log:"
    tail -n 400 "$work/demo.log"
    rc=1
fi
exit $rc
