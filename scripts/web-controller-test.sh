#!/usr/bin/env bash
# The web controller end to end (tests/web/test_web_controller.py): `remotion host`
# injecting through XTest into a real Xvfb, the controller page in headless Chromium with
# emulated phone sensors, the X server's event stream as the witness; everything inside a
# new network namespace that has only lo. Also runs the page's own self-checks under node.
# Prints 'N passed, N failed'; exits non-zero on any failure. Needs root (unshare -n).
#   REMOTION_SKIP_BUILD=1 scripts/web-controller-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

if [ -z "${REMOTION_IN_NETNS:-}" ]; then
    for tool in unshare ip python3 node Xvfb xdotool xinput /usr/bin/chromium /usr/bin/chromedriver; do
        command -v "$tool" >/dev/null || { echo "web-controller-test: $tool is missing (bash scripts/setup.sh installs it)"; echo "0 passed, 1 failed"; exit 1; }
    done
    node tests/web/run-selftest.mjs > /tmp/remotion-web-selftest.log 2>&1
    selftest=$?
    tail -1 /tmp/remotion-web-selftest.log | sed 's/^/page self-checks: /'
    [ $selftest -eq 0 ] || { grep FAIL /tmp/remotion-web-selftest.log; echo "0 passed, 1 failed"; exit 1; }
    if [ -z "${REMOTION_SKIP_BUILD:-}" ]; then
        swift build --product remotion >/dev/null || { echo "web-controller-test: build failed"; echo "0 passed, 1 failed"; exit 1; }
    fi
    export REMOTION_BIN="$(swift build --show-bin-path)/remotion"
    exec unshare -n env REMOTION_IN_NETNS=1 "$0" "$@"
fi

ip link set lo up
if ip -o link show | grep -qv ': lo:'; then echo "web-controller-test: namespace has more than lo"; echo "0 passed, 1 failed"; exit 1; fi

work=$(mktemp -d)
mkdir -p artifacts
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT

display=$(( 200 + RANDOM % 300 ))
while [ -e "/tmp/.X11-unix/X$display" ]; do display=$((display + 1)); done
Xvfb ":$display" -screen 0 1920x1080x24 -nolisten tcp -noreset > "$work/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=":$display"
for _ in $(seq 100); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.05; done

xinput test-xi2 --root > "$work/xi2.log" 2>&1 &
pids+=($!)
export XDG_CONFIG_HOME="$work/config"   # no user config: pointer mode, default settings
"$REMOTION_BIN" host --bind 127.0.0.1 --port 0 --inject xtest --no-discovery --dashboard-port 0 \
    --web-port 0 --data-dir "$work/data" > "$work/host.out" 2> "$work/host.err" &
pids+=($!)
url=""
dashboard=""
for _ in $(seq 200); do
    dashboard=$(sed -n 's|.*dashboard on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/host.err" | head -1)
    url=$(sed -n 's/^pair a phone: //p' "$work/host.out" | head -1)
    [ -n "$url" ] && [ -n "$dashboard" ] && break   # the dashboard starts after the web server
    sleep 0.05
done
if [ -z "$url" ]; then
    echo "web-controller-test: the host printed no pairing URL:"; cat "$work/host.err"
    echo "0 passed, 1 failed"; exit 1
fi

SE_AVOID_STATS=true ARTIFACTS=artifacts timeout 240 python3 tests/web/test_web_controller.py \
    --url "$url" --bin "$REMOTION_BIN" --data-dir "$work/data" --xi2-log "$work/xi2.log" --profile "$work/profile" \
    --dashboard "$dashboard"
rc=$?
[ $rc -eq 124 ] && echo "web-controller-test: timed out" && echo "0 passed, 1 failed"
if [ $rc -ne 0 ]; then echo "--- host stderr"; tail -20 "$work/host.err"; fi
exit $rc
