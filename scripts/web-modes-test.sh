#!/usr/bin/env bash
# The phone page's modes end to end (e2e/web/test_page_modes.py): `remotion host
# --inject xtest` into a real Xvfb, the page in headless Chromium with touch emulation and
# emulated sensors, the X server's own event stream (xinput test-xi2 --root) and a keyboard
# client (xev -root) as witnesses, screenshots of the laser overlay (ImageMagick import);
# everything inside a new network namespace that has only lo. Checks each mode's controls
# reach X as mapped, the layout rule at six sizes with and without a notice, typed text
# (ASCII, é, ß, 😀) and the laser overlay. Prints 'N passed, N failed'; exits non-zero on any
# failure. Needs root (unshare -n).
#   REMOTION_SKIP_BUILD=1 scripts/web-modes-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

if [ -z "${REMOTION_IN_NETNS:-}" ]; then
    for tool in unshare ip python3 Xvfb xdotool xinput xev xwininfo import /usr/bin/chromium /usr/bin/chromedriver; do
        command -v "$tool" >/dev/null || { echo "web-modes-test: $tool is missing (bash scripts/setup.sh installs it)"; echo "0 passed, 1 failed"; exit 1; }
    done
    if [ -z "${REMOTION_SKIP_BUILD:-}" ]; then
        swift build --product remotion >/dev/null || { echo "web-modes-test: build failed"; echo "0 passed, 1 failed"; exit 1; }
    fi
    export REMOTION_BIN="$(swift build --show-bin-path)/remotion"
    exec unshare -n env REMOTION_IN_NETNS=1 "$0" "$@"
fi

ip link set lo up
if ip -o link show | grep -qv ': lo:'; then echo "web-modes-test: namespace has more than lo"; echo "0 passed, 1 failed"; exit 1; fi

work=$(mktemp -d)
artifacts=${ARTIFACTS:-artifacts}/web-modes
mkdir -p "$artifacts"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
    cp "$work"/*.log "$work"/host.err "$artifacts/" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "web-modes-test: $*"; echo "0 passed, 1 failed"; exit 1; }

. scripts/lib/xvfb.sh     # Xvfb picks its own free display (-displayfd)
start_xvfb "$work" || fail "Xvfb did not start"
pids+=($xvfb_pid)

# X's own event stream is the witness (scripts/lib/xvfb.sh).
start_xi2_witness "$work/xi2.log"; xi2=$?
pids+=($xi2_pid)
[ $xi2 -eq 0 ] || fail "xinput test-xi2 reported no event within 5 s"
# The keyboard witness: a small xev window holding the input focus (scripts/lib/xvfb.sh).
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

SE_AVOID_STATS=true ARTIFACTS="$artifacts" timeout 300 python3 e2e/web/test_page_modes.py \
    --url "$url" --xi2-log "$work/xi2.log" --xev-log "$work/xev.log" --profile "$work/profile" \
    --host-err "$work/host.err" --work "$work"
rc=$?
[ $rc -eq 124 ] && echo "web-modes-test: timed out" && echo "0 passed, 1 failed"
if [ $rc -ne 0 ]; then echo "--- host stderr"; tail -20 "$work/host.err"; fi
exit $rc
