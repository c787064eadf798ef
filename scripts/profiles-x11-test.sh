#!/usr/bin/env bash
# Profiles that follow the focused application on X11 (docs/MOTION.md, "Profiles"), with the
# real binary, a private Xvfb and loopback only:
#   two windows of different WM_CLASS (xmessage -name alpha / beta); the root window's
#   _NET_ACTIVE_WINDOW set as a window manager sets it (xprop); a `remotion client` streaming
#   a circle; `remotion host --inject log` with [mapping] mode = "pointer" and a [[profile]]
#   for beta in FPS mode. The witness is the injector's own output (one JSON line per event):
#   A  while alpha has the focus the pointer moves absolutely (move_to only)
#   B  focus on beta: the moves turn relative (move_by), and none absolute after the first
#   C  focus back on alpha: absolute again, none relative after the first
#   D  beta focused again, then its window closes: back to the host's mapping (absolute)
# Prints 'N passed, N failed'; every process is stopped by its pid; bounded waits, no sleeps
# as synchronisation (each wait is for the injector's output to show the change).
set -uo pipefail
cd "$(dirname "$0")/.."
bin="${REMOTION_BIN:-$(swift build --show-bin-path)/remotion}"
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$work"; }
trap cleanup EXIT
passed=0; failed=0
check() { # name, command...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}
fail_all() { echo "profiles-x11-test: $1"; echo "0 passed, 1 failed"; exit 1; }
. scripts/lib/ready.sh
. scripts/lib/xvfb.sh
start_xvfb "$work" || fail_all "no Xvfb"
pids+=("$xvfb_pid")

# window NAME: opens an xmessage whose WM_CLASS instance is NAME, a child of this shell (which
# stops and reaps it: one started inside a command substitution was orphaned and outlived the
# stage), and sets window_id to its window's id.
window() {
  xmessage -name "$1" "$1" >/dev/null 2>&1 &
  pids+=("$!"); window_pid=$!
  window_id=$(timeout 10 xdotool search --sync --classname "^$1\$" | head -1)
}
window alpha; alpha=$window_id
window beta; beta=$window_id; beta_pid=$window_pid
[[ -n $alpha && -n $beta ]] || fail_all "the two windows did not appear"
focus() { xprop -root -f _NET_ACTIVE_WINDOW 32x -set _NET_ACTIVE_WINDOW "$1"; }
focus "$alpha"

cp e2e/profiles/beta-fps.toml "$work/config.toml"
"$bin" host --bind 127.0.0.1 --port 0 --insecure --inject log --no-discovery --no-dashboard --no-web \
  --data-dir "$work/data" --config "$work/config.toml" --ready-file "$work/ready.json" \
  >"$work/host.out" 2>"$work/host.err" &
host_pid=$!; pids+=("$host_pid")
wait_ready "$work/ready.json" "$host_pid" 30 || { cat "$work/host.err"; fail_all "the host did not start"; }
port=$(ready_value "$work/ready.json" udpPort)
"$bin" client --host "127.0.0.1:$port" --insecure --source synthetic:circle --rate 100 --duration 300 \
  >/dev/null 2>"$work/client.err" &
pids+=("$!")

INJECTOR_LOG=$work/host.out; . scripts/lib/injector-moves.sh   # moves, lines, until_moves, settled

check "A: alpha focused, the host's pointer mode: absolute moves only" settled 0 move_to move_by 50
from=$(lines); focus "$beta"
check "B: beta focused, its profile's FPS mode: relative moves only, within one event" settled "$from" move_by move_to 50
from=$(lines); focus "$alpha"
check "C: alpha focused again: absolute moves only" settled "$from" move_to move_by 50
from=$(lines); focus "$beta"
until_moves "$from" move_by 20
from=$(lines); kill "$beta_pid"
check "D: beta's window closes while focused: back to the host's pointer mode" settled "$from" move_to move_by 50
check "the host said nothing went wrong following the focus" bash -c "! grep -qi 'does not follow the focus' '$work/host.err'"

kill -INT "$host_pid" 2>/dev/null; wait "$host_pid" 2>/dev/null
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
