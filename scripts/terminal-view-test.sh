#!/usr/bin/env bash
# (--no-web: the phone pairing QR code in the welcome view is new each run; WelcomePhonePairingTests cover it.)
# The host's terminal view in a real terminal: tmux runs `remotion host` (auto injector,
# which picks the log injector here: no DISPLAY, REMOTION_NO_UINPUT=1), a paired client
# streams a replayed trace held at roll +20°, pitch −20° and holds C (the Left key); the
# panes are captured and checked. Called by scripts/cli-e2e.sh with the binary and the
# key directories of a host and a controller paired as "cli-e2e".
#   scripts/terminal-view-test.sh BIN HOST_KEYS CLIENT_KEYS WORK_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/stage.sh
bin=$1 hostkeys=$2 clientkeys=$3 work=$4
mkdir -p "$work/home" "$work/view-runtime" artifacts && chmod 700 "$work/view-runtime"
session="remotion-view-$$"
failed=0
fail() { echo "  terminal view: $*"; failed=1; }
capture() { tmux capture-pane -p -t "$session" >"$1"; }
on_exit 'tmux kill-session -t "$session" 2>/dev/null; tmux kill-session -t "remotion-hup-$$" 2>/dev/null'

rm -f "$work/view-ready.json"
tmux new-session -d -s "$session" -x 100 -y 45 \
  "env -u DISPLAY -u WAYLAND_DISPLAY -u XDG_SESSION_TYPE REMOTION_NO_UINPUT=1 HOME='$work/home' XDG_CONFIG_HOME='$work/home/.config' XDG_RUNTIME_DIR='$work/view-runtime' '$bin' host --name 'View Test' \
     --bind 127.0.0.1 --port 0 --dashboard-port 0 --no-web --no-discovery --data-dir '$hostkeys' \
     --ready-file '$work/view-ready.json'; sleep 30"
# Both ports from the host's ready file; then the view, once it shows every start-up fact.
for _ in $(seq 300); do [[ -s $work/view-ready.json ]] && break; sleep 0.05; done
[[ -s $work/view-ready.json ]] || { echo "  terminal view: the host wrote no ready file in 15 s"; exit 1; }
port=$(ready_value "$work/view-ready.json" udpPort)
dport=$(ready_value "$work/view-ready.json" dashboardPort)
for _ in $(seq 100); do
  capture "$work/welcome.txt"
  grep -q "waiting for controllers" "$work/welcome.txt" && grep -q "dashboard on http://127.0.0.1:$dport/" "$work/welcome.txt" \
    && grep -q "discovery off" "$work/welcome.txt" && break
  sleep 0.1
done
cp "$work/welcome.txt" artifacts/terminal-view-welcome.txt

grep -q "injecting with auto: no writable /dev/uinput, no DISPLAY" "$work/welcome.txt" || fail "the injector and why are not in the view"
grep -q "dashboard on http://127.0.0.1:[0-9]*/" "$work/welcome.txt" || fail "the dashboard URL is not in the view"
grep -q "discovery off (--no-discovery)" "$work/welcome.txt" || fail "the discovery state is not in the view"
sed -e "s/$port/PORT/g" -e "s/${dport:-DPORT}/DPORT/g" -e "s|$work|WORK|g" -E -e 's/host key [A-Z0-9-]+…?/host key FINGERPRINT/g' \
    -e 's/[[:space:]]*$//' "$work/welcome.txt" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$work/welcome-masked.txt"
if ! diff -u e2e/terminal/welcome.txt "$work/welcome-masked.txt"; then
  if [[ -n "${REMOTION_UPDATE_GOLDEN:-}" ]]; then cp "$work/welcome-masked.txt" e2e/terminal/welcome.txt; echo "  rewrote e2e/terminal/welcome.txt"
  else fail "the welcome screen differs from e2e/terminal/welcome.txt (REMOTION_UPDATE_GOLDEN=1 rewrites it)"; fi
fi

# A controller held at roll +20°, pitch −20°, holding C (the Left key) for most of the stream.
# (A replayed trace carries the buttons too: C from 0.3 s to 3.8 s.)
python3 -c '
print("t,roll,pitch,yaw,buttons")
for i in range(601):
    held = "C" if 30 <= i < 380 else "-"
    print(f"{i / 100:.2f},0.349066,-0.349066,0,{held}")' >"$work/tilt.csv"
"$bin" client --host "127.0.0.1:$port" --data-dir "$clientkeys" --source "replay:$work/tilt.csv" --rate 50 \
    --duration 4 2>"$work/client.err" &
client=$!
# One capture that shows everything checked below (bounded: the trace holds C for 3.5 s).
for _ in $(seq 60); do
  capture "$work/control.txt"
  grep -q "held key:Left" "$work/control.txt" && grep -q "roll ─────┼─●───  +20.0°" "$work/control.txt" \
    && grep -q "pitch ───●─┼─────  -20.0°" "$work/control.txt" && grep -q '{"session"' "$work/control.txt" && break
  sleep 0.1
done
cp "$work/control.txt" artifacts/terminal-view-control.txt
header=$(grep -m1 '^● ' "$work/control.txt")
[[ $(grep -o "cli-e2e" <<<"$header" | wc -l) -eq 1 ]] || fail "the paired name is not shown once: $header"
[[ $(grep -o "127.0.0.1:[0-9]*" <<<"$header" | wc -l) -eq 1 ]] || fail "the address is not shown once: $header"
grep -q "roll ─────┼─●───  +20.0°" "$work/control.txt" || fail "roll +20° does not move its gauge two cells: $(grep roll "$work/control.txt")"
grep -q "pitch ───●─┼─────  -20.0°" "$work/control.txt" || fail "pitch −20° does not move its gauge two cells"
grep -q "held key:Left" "$work/control.txt" || fail "the held Left key is not shown as key:Left"
python3 - "$work/control.txt" <<'PY' || fail "log-injector JSON outside the view's last events"
import sys
lines = open(sys.argv[1]).read().splitlines()
start = next((i for i, l in enumerate(lines) if l.strip() == "last events:"), None)
json_lines = [i for i, l in enumerate(lines) if '{"session"' in l]
ok = start is not None and json_lines and all(i > start and lines[i].startswith("    {") for i in json_lines)
sys.exit(0 if ok else 1)
PY
wait "$client" || fail "the client failed: $(cat "$work/client.err")"

tmux send-keys -t "$session" C-c
for _ in $(seq 50); do capture "$work/after.txt"; grep -q "remotion host: stopped after injecting" "$work/after.txt" && break; sleep 0.1; done
cp "$work/after.txt" artifacts/terminal-view-after.txt
grep -q "remotion host: stopped after injecting" "$work/after.txt" || fail "the last line is not shown after the view closed"

# The terminal closes under the host (its window shut, an ssh session dropped) while a
# controller holds a key: SIGHUP, and every later write to the terminal fails (EIO). The host
# stops as if told to and releases what is held; it did crash instead, on its next line
# (Foundation's FileHandle.write traps on EIO), 5.7 s after the terminal went. Its stderr
# goes to a file here so that its last words can be read.
hup="remotion-hup-$$"
rm -f "$work/hup-ready.json"
tmux new-session -d -s "$hup" -x 100 -y 45 \
  "env -u DISPLAY -u WAYLAND_DISPLAY -u XDG_SESSION_TYPE REMOTION_NO_UINPUT=1 HOME='$work/home' XDG_CONFIG_HOME='$work/home/.config' '$bin' host \
     --bind 127.0.0.1 --port 0 --dashboard-port 0 --no-web --no-discovery --data-dir '$hostkeys' \
     --ready-file '$work/hup-ready.json' 2>'$work/hup.err'"
for _ in $(seq 300); do [[ -s $work/hup-ready.json ]] && break; sleep 0.05; done
if [[ -s $work/hup-ready.json ]]; then
  hpid=$(ready_value "$work/hup-ready.json" pid)
  "$bin" client --host "127.0.0.1:$(ready_value "$work/hup-ready.json" udpPort)" --data-dir "$clientkeys" \
      --source "replay:$work/tilt.csv" --rate 50 --duration 4 2>/dev/null &
  holder=$!
  for _ in $(seq 50); do tmux capture-pane -p -t "$hup" | grep -q "held key:Left" && break; sleep 0.1; done
  tmux capture-pane -p -t "$hup" | grep -q "held key:Left" || fail "the second host's view never showed the held key"
  tmux kill-session -t "$hup"
  for _ in $(seq 100); do kill -0 "$hpid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$hpid" 2>/dev/null && { fail "the host still runs 10 s after its terminal closed"; kill "$hpid"; }
  grep -q "stopped after injecting .*every held input released" "$work/hup.err" \
    || fail "no stop line after the terminal closed: $(tail -3 "$work/hup.err")"
  ! grep -q "Fatal error" "$work/hup.err" || fail "the host crashed when its terminal closed: $(grep -m1 'Fatal error' "$work/hup.err")"
  kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
else
  fail "the second host wrote no ready file in 15 s"
fi
exit $failed
