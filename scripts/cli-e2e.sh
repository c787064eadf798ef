#!/usr/bin/env bash
# End-to-end checks of the real `remotion` binary on loopback:
#   remotion host --inject log  +  remotion client --host 127.0.0.1:PORT ... --press A@1.0+0.5
# prints pointer motion and exactly one left-button down and one up; bad flags get
# one clear line; a killed client's press is released by the host.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/stage.sh
bin=$(remotion_bin)
stage_workdir remotion-cli-e2e
passed=0; failed=0
check() { # name, command...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}

# 0. The README's first command: `remotion demo` (no privileges) and its summary.
"$bin" demo >"$work/demo.out" 2>"$work/demo.err"; rc=$?
check "remotion demo exits 0 and connected" test "$rc" -eq 0 -a "$(grep -c '^  connection  connected$' "$work/demo.out")" -eq 1
sent=$(sed -n 's/^  packets     client sent \([0-9]*\), host received \([0-9]*\) .*/\1/p' "$work/demo.out")
received=$(sed -n 's/^  packets     client sent \([0-9]*\), host received \([0-9]*\) .*/\2/p' "$work/demo.out")
check "... the host received what the client sent ($sent/$received), pairing counted apart, nothing dropped" \
  test -n "$sent" -a "$sent" = "$received" -a "$(grep -c 'pairing datagrams before), host dropped 0$' "$work/demo.out")" -eq 1
check "... mouse and key inputs named apart" grep -q "injected: mouse-left↓ mouse-left↑ mouse-right↓ mouse-right↑ key-Left↓ key-Left↑$" "$work/demo.out"
check "... 6 edges sent and delivered, nothing held after" grep -q "6 edges sent, 6 delivered" "$work/demo.out"
check "... nothing held after the controller left" grep -q "^  held        0 inputs still held" "$work/demo.out"
start=$(date +%s.%N)
"$bin" demo --duration 1 --json >"$work/demo.json" 2>/dev/null
took=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$(date +%s.%N)")
# One second is the packet count (120 Hz: the default 4 s would send ~480); the wall time only has to
# show it did not stream the default or hang: 1.56-1.64 s in 5 runs on 2 loaded cores, bound 10 s.
check "remotion demo --duration 1 streams one second (took ${took} s)" python3 -c "
import json, sys; d = json.load(open(sys.argv[1]))
sys.exit(0 if d['connected'] and d['sent'] <= 125 and d['edges_sent'] == 6 and float(sys.argv[2]) < 10 else 1)" "$work/demo.json" "$took"

# A person stops the demo (Ctrl-C, or kill from a service manager): it ends with the shell's
# status for the signal (130, 143) and leaves nothing in TMPDIR (its key folder is removed;
# the signal's default action would skip that). Its dashboard's port file is its readiness:
# written once the host runs, after the keys exist.
for sig in INT TERM; do
  tmp="$work/tmp-$sig"; mkdir -p "$tmp"
  TMPDIR="$tmp" "$bin" demo --duration 60 --dashboard 0 --port-file "$work/demo-$sig.port" >/dev/null 2>"$work/demo-$sig.err" &
  demo=$!
  for ((i = 0; i < 400; i++)); do [[ -s $work/demo-$sig.port ]] && break; kill -0 "$demo" 2>/dev/null || break; sleep 0.05; done
  kill -"$sig" "$demo"; wait "$demo"; rc=$?
  want=$([[ $sig == INT ]] && echo 130 || echo 143)
  check "remotion demo stopped by SIG$sig mid-stream: exit $rc (want $want), TMPDIR left empty: [$(ls -A "$tmp")]" \
    test -s "$work/demo-$sig.port" -a "$rc" -eq "$want" -a -z "$(ls -A "$tmp")"
done

# Pair a controller with the host through the real flow (keys in private directories).
hostkeys="$work/host-keys"; clientkeys="$work/client-keys"
pair() {
  "$bin" pair --listen --yes --bind 127.0.0.1 --port 0 --window 20 --data-dir "$hostkeys" >"$work/pair.out" 2>"$work/pair.err" &
  local listener=$!; pids+=("$listener")
  local code=""
  for _ in $(seq 100); do code=$(grep -m1 '^remotion-pair:' "$work/pair.out"); [[ -n "$code" ]] && break; sleep 0.05; done
  "$bin" pair "$code" --name cli-e2e --data-dir "$clientkeys" >/dev/null 2>"$work/pair-client.err"
  local rc=$?
  wait "$listener" 2>/dev/null
  return $rc
}
check "pairing through remotion pair --listen / remotion pair CODE" pair
check "the host lists the paired controller" grep -q "cli-e2e" <("$bin" devices --data-dir "$hostkeys")

start_host() { # extra flags...; sets host_pid, port (from the host's ready file, never a log line)
  rm -f "$work/host.out" "$work/host.err" "$work/ready.json"
  "$bin" host --bind 127.0.0.1 --port 0 --inject log --no-discovery --data-dir "$hostkeys" \
    --ready-file "$work/ready.json" "$@" >"$work/host.out" 2>"$work/host.err" &
  host_pid=$!; pids+=("$host_pid")
  wait_ready "$work/ready.json" "$host_pid" 30 || { echo "host did not start:"; cat "$work/host.err"; return 1; }
  port=$(ready_value "$work/ready.json" udpPort)
}
# until SECONDS COMMAND...: polls COMMAND every 50 ms until it succeeds or SECONDS pass.
until_ok() { local limit=$1 i; shift; for ((i = 0; i < limit * 20; i++)); do "$@" && return 0; sleep 0.05; done; "$@"; }

stop_host() { kill -INT "$host_pid" 2>/dev/null; wait "$host_pid" 2>/dev/null; }

count() { # kind, extra python condition
  python3 - "$work/host.out" "$1" "$2" <<'PY'
import json, sys
path, kind, cond = sys.argv[1], sys.argv[2], sys.argv[3]
n = 0
for line in open(path):
    line = line.strip()
    if not line.startswith("{"): continue
    e = json.loads(line)
    if e.get("kind") == kind and eval(cond, {}, {"e": e}): n += 1
print(n)
PY
}

# 1. The issue's command pair.
start_host || exit 1
"$bin" client --host "127.0.0.1:$port" --data-dir "$clientkeys" --source synthetic:circle --duration 3 --press A@1.0+0.5 2>"$work/client.err"
client_rc=$?
# The host has the release once it is in its log (the client ends on the edge's acknowledgement
# or its retries): wait for it, bounded, rather than for a fixed time.
until_ok 5 grep -q '"button":"left","state":"up"' "$work/host.out"
stop_host
check "client exits 0" test "$client_rc" -eq 0
moves=$(count move_to True)
check "host printed pointer motion ($moves move_to lines)" test "$moves" -gt 100
downs=$(count button 'e.get("button") == "left" and e.get("state") == "down"')
ups=$(count button 'e.get("button") == "left" and e.get("state") == "up"')
check "exactly one left down ($downs) and one left up ($ups)" test "$downs" -eq 1 -a "$ups" -eq 1
check "host stopped gracefully on SIGINT" grep -q "every held input released" "$work/host.err"

# 1a. Flick stick (docs/GAMEPAD.md): FPS mode, a full turn 3600 counts, the controller's
#     right stick held full right from its first sample: exactly a quarter turn, 900 counts
#     of relative motion, and nothing more while the stick is held still (a still controller).
printf '[mapping]\nmode = "fps"\n"fps.calibration" = "counts"\n"fps.counts_per_360" = 3600\n"flick.stick" = "right"\n' >"$work/flick.toml"
start_host --config "$work/flick.toml" || exit 1
"$bin" client --host "127.0.0.1:$port" --data-dir "$clientkeys" --source synthetic:still --rate 100 --duration 1 \
  --analog rx=1 2>"$work/flick-client.err"; flick_rc=$?
stop_host
flicked=$(python3 -c "
import json, sys
print(sum(json.loads(l)['dx'] for l in open(sys.argv[1]) if l.startswith('{') and '\"move_by\"' in l))" "$work/host.out")
check "flick stick: the right stick pushed right turns exactly a quarter (900 of 3600 counts: $flicked)" \
  test "$flick_rc" -eq 0 -a "$flicked" = 900

# 1b. While a host runs: pair --listen goes through its control socket (no port of its
#     own), the new controller connects without a host restart; a second host on the
#     same port is refused with one line (no SO_REUSEADDR: no port takeover).
start_host || exit 1
"$bin" pair --listen --yes --window 20 --data-dir "$hostkeys" >"$work/pair2.out" 2>"$work/pair2.err" &
listener=$!; pids+=("$listener")
code=""
for _ in $(seq 100); do code=$(grep -m1 '^remotion-pair:' "$work/pair2.out"); [[ -n "$code" ]] && break; sleep 0.05; done
check "pair --listen talks to the running host" grep -q "through the running remotion host" "$work/pair2.out"
check "... and its code names the host's own port" grep -q "@127.0.0.1:$port\$" <<<"$code"
"$bin" pair "$code" --name second-phone --data-dir "$work/second-keys" >/dev/null 2>"$work/pair2-client.err"
check "a second controller pairs with the running host" test $? -eq 0
wait "$listener" 2>/dev/null
check "... the pair process printed it" grep -q "paired controller 'second-phone'" "$work/pair2.out"
"$bin" client --host "127.0.0.1:$port" --data-dir "$work/second-keys" --duration 1 --press A@0.3+0.2 2>"$work/second.err"
check "... and streams to it at once (no host restart)" test $? -eq 0
"$bin" host --bind 127.0.0.1 --port "$port" --inject log --no-discovery --no-dashboard --data-dir "$hostkeys" 2>"$work/busy.err"; rc=$?
check "a second host on the same port fails with one line" test "$rc" -ne 0 -a "$(wc -l <"$work/busy.err")" -eq 1
check "... naming the port and the host that runs there" grep -q "UDP port $port is in use: a Remotion host already runs there" "$work/busy.err"
stop_host
check "the second controller's press was injected" test "$(count button 'e.get("button") == "left" and e.get("state") == "down"')" -eq 1

# 1c. --inject log into a pipe: each event reaches the pipe when it happens, not when
#     a block buffer fills or the host exits (5 samples/s: a 4 KiB buffer would take 15 s).
"$bin" host --bind 127.0.0.1 --port 0 --inject log --no-discovery --no-dashboard --data-dir "$hostkeys" \
    --ready-file "$work/pipe-ready.json" > >(cat >"$work/pipe.out") 2>"$work/pipe.err" &
pipe_host=$!; pids+=("$pipe_host")
wait_ready "$work/pipe-ready.json" "$pipe_host" 30 || cat "$work/pipe.err"
port=$(ready_value "$work/pipe-ready.json" udpPort)
"$bin" client --host "127.0.0.1:$port" --data-dir "$clientkeys" --source synthetic:still --rate 5 --duration 4 --press A@1.0+2 2>/dev/null &
pipe_client=$!; pids+=("$pipe_client")
seen=1
for _ in $(seq 120); do grep -q '"button":"left","state":"down"' "$work/pipe.out" && { seen=0; break; }; sleep 0.05; done
kill -0 "$pipe_host" 2>/dev/null; alive=$?
check "a press at 1.0 s reaches the pipe while the host runs (log flushed per event)" test "$seen" -eq 0 -a "$alive" -eq 0
wait "$pipe_client" 2>/dev/null
kill -INT "$pipe_host"; wait "$pipe_host" 2>/dev/null

# 2. A controller killed mid-press: the host releases within its timeout.
start_host --timeout 1 || exit 1
"$bin" client --host "127.0.0.1:$port" --data-dir "$clientkeys" --source synthetic:still --press B@0.2+60 2>"$work/killed.err" &
client_pid=$!; pids+=("$client_pid")
# Kill it once its press is in (the log reaches host.out per event); at most 5 s.
for _ in $(seq 100); do grep -q '"button":"right","state":"down"' "$work/host.out" && break; sleep 0.05; done
kill -9 "$client_pid"; wait "$client_pid" 2>/dev/null
# The release comes from the host's 1 s timeout: wait for it (bounded), then stop.
until_ok 5 grep -q '"button":"right","state":"up"' "$work/host.out"
stop_host
rdown=$(count button 'e.get("button") == "right" and e.get("state") == "down"')
rup=$(count button 'e.get("button") == "right" and e.get("state") == "up"')
check "killed client's right button released by the host ($rdown down, $rup up)" test "$rdown" -eq 1 -a "$rup" -eq 1
[[ "$rdown" -eq 1 ]] || { echo "  client:"; cat "$work/killed.err"; echo "  host:"; grep -v '^{"t"' "$work/host.err"; }

# 2b. A host that serves phones for weeks (reloads, Wi-Fi blips, screen locks reconnect them)
#     does not grow with them: 5,000 sessions opened and closed one after another after a
#     1,000-session warm-up leave its resident memory flat (each session used to keep ~3 KiB).
"$bin" host --bind 127.0.0.1 --port 0 --insecure --inject log --no-web --no-dashboard --no-discovery \
  --data-dir "$work/soak-data" --ready-file "$work/soak-ready.json" >/dev/null 2>"$work/soak.err" &
soak_host=$!; pids+=("$soak_host")
if wait_ready "$work/soak-ready.json" "$soak_host" 30; then
  soak=$(python3 e2e/soak/session_soak.py --port "$(ready_value "$work/soak-ready.json" udpPort)" --pid "$soak_host" \
         --sessions 5000 --warmup 1000)
  echo "     soak: $soak"
  check "5,000 sessions opened and closed leave the host's memory flat (growth under 1 MiB)" python3 -c '
import json, sys; d = json.loads(sys.argv[1])
sys.exit(0 if d["opened"] == 6000 and d["growth_kib"] < 1024 else 1)' "$soak"
else
  check "the soak host started" false
fi
kill -INT "$soak_host"; wait "$soak_host" 2>/dev/null
check "... and its stop line says the latency of a client on another clock is not measured" \
  grep -q "one-way latency not measured (no shared or estimated clock)" "$work/soak.err"

# 3. Nobody unpaired injects: an unpaired client and a plain (--insecure) client.
start_host || exit 1
"$bin" client --host "127.0.0.1:$port" --data-dir "$work/stranger" --duration 1 --press A@0.2+0.2 2>"$work/stranger.err"; rc=$?
check "an unpaired client is refused with one clear line" test "$rc" -ne 0 -a "$(wc -l <"$work/stranger.err")" -eq 1
"$bin" client --host "127.0.0.1:$port" --insecure --timeout 1 --duration 1 --press A@0.2+0.2 2>/dev/null; rc=$?
stop_host
check "a plain client gets no answer from a secure host" test "$rc" -ne 0
check "nothing was injected for them" test "$(count button True)" -eq 0 -a "$(count move_to True)" -eq 0

# 4. Bad flags: one clear line, non-zero exit.
"$bin" client --host nowhere 2>"$work/bad.err"; rc=$?
check "bad --host exits non-zero" test "$rc" -ne 0
check "bad --host gets one line" test "$(wc -l <"$work/bad.err")" -eq 1
check "bad --host says what to fix" grep -q "HOST:PORT" "$work/bad.err"
"$bin" client --host 127.0.0.1:1 --press Q@1 2>"$work/bad2.err"; rc=$?
check "bad --press is one clear line" test "$rc" -ne 0 -a "$(wc -l <"$work/bad2.err")" -eq 1
"$bin" host --port 70000 2>"$work/bad3.err"; rc=$?
check "bad --port is one clear line" test "$rc" -ne 0 -a "$(wc -l <"$work/bad3.err")" -eq 1
"$bin" host --inject bogus 2>"$work/bad4.err"; rc=$?
check "bad --inject is one line naming the choices" test "$rc" -ne 0 -a "$(wc -l <"$work/bad4.err")" -eq 1
grep -q "auto, xtest, uinput" "$work/bad4.err" || cat "$work/bad4.err"
printf '[buttons]\nQ = "left"\n' >"$work/bad.toml"
"$bin" host --insecure --config "$work/bad.toml" 2>"$work/bad5.err"; rc=$?
check "a bad config file stops the host with file:line and the fix" grep -q "bad.toml:2: button \"Q\" is not a button; use A to P" "$work/bad5.err"
check "... and nothing else started (one line, non-zero exit)" test "$rc" -ne 0 -a "$(wc -l <"$work/bad5.err")" -eq 1
# [gamepad] in the config asks for a virtual pad: on a machine without /dev/uhid (this one)
# the host stops before binding, in one line with the fix; --gamepad none overrides the file.
printf '[gamepad]\npad = "dualsense"\n' >"$work/pad.toml"
if [[ ! -e /dev/uhid ]]; then
  timeout 20 "$bin" host --insecure --bind 127.0.0.1 --port 0 --inject log --no-discovery --no-dashboard --no-web \
    --config "$work/pad.toml" >/dev/null 2>"$work/pad.err"; rc=$?
  check "[gamepad] pad = \"dualsense\" without /dev/uhid: one line naming uhid, exit 1, nothing bound" \
    test "$rc" -eq 1 -a "$(wc -l <"$work/pad.err")" -eq 1 -a "$(grep -c 'uhid' "$work/pad.err")" -eq 1 -a "$(grep -c listening "$work/pad.err")" -eq 0
fi
"$bin" host --insecure --bind 127.0.0.1 --port 0 --inject log --no-discovery --no-dashboard --no-web \
  --config "$work/pad.toml" --gamepad none --ready-file "$work/nopad.ready" >/dev/null 2>"$work/nopad.err" &
nopad=$!; pids+=("$nopad")
# Not ready in 30 s: killed outright (the check below fails), never waited for forever.
if wait_ready "$work/nopad.ready" "$nopad" 30; then kill -INT "$nopad"; else kill -KILL "$nopad"; fi; wait "$nopad" 2>/dev/null
check "... --gamepad none overrides the file: the host serves (and stops on SIGINT)" grep -q "every held input released" "$work/nopad.err"
# SIGINT the moment the ready file appears: the record is written only once the host's signal
# handlers listen (ReadyAnnouncement). When it was written before, 7 of 20 such hosts lost the
# signal and ran on forever. Ten starts, each given 10 s to stop with its stop line.
stopped=0
for i in $(seq 10); do
  "$bin" host --insecure --bind 127.0.0.1 --port 0 --inject log --no-discovery --no-dashboard --no-web \
    --gamepad none --data-dir "$work/early-$i" --ready-file "$work/early-$i.ready" >/dev/null 2>"$work/early-$i.err" &
  early=$!; pids+=("$early")
  for _ in $(seq 30000); do [[ -s $work/early-$i.ready ]] || ! kill -0 "$early" 2>/dev/null && break; sleep 0.001; done
  kill -INT "$early" 2>/dev/null
  for _ in $(seq 100); do kill -0 "$early" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$early" 2>/dev/null; wait "$early" 2>/dev/null
  grep -q "every held input released" "$work/early-$i.err" && stopped=$((stopped + 1))
done
check "SIGINT as soon as --ready-file appears stops the host gracefully (10 of 10 starts; $stopped did)" test "$stopped" -eq 10
printf '[gamepad]\npad = "xbox"\n' >"$work/badpad.toml"
"$bin" host --insecure --config "$work/badpad.toml" 2>"$work/badpad.err"; rc=$?
check "... a bad [gamepad] pad is one line with file:line and the choices" \
  test "$rc" -ne 0 -a "$(wc -l <"$work/badpad.err")" -eq 1 -a "$(grep -c 'badpad.toml:2: \[gamepad\] pad must be' "$work/badpad.err")" -eq 1
# A Wayland session (with XWayland's DISPLAY) and no usable /dev/uinput: auto never falls
# back to XTest; the host stops with one line saying what to do (REMOTION_NO_UINPUT=1
# makes uinput count as unusable even where this machine has it).
XDG_SESSION_TYPE=wayland WAYLAND_DISPLAY=wayland-0 DISPLAY=:0 REMOTION_NO_UINPUT=1 "$bin" host \
  --bind 127.0.0.1 --port 0 --no-discovery --no-dashboard --no-web --data-dir "$work/wayland-keys" 2>"$work/wayland.err"; rc=$?
check "--inject auto on Wayland without uinput: one line, non-zero exit, never XTest" \
  test "$rc" -ne 0 -a "$(wc -l <"$work/wayland.err")" -eq 1
check "... saying what to do (install.sh --system, the uaccess rule of docs/INJECTION.md)" \
  bash -c "grep -q 'Wayland session' '$work/wayland.err' && grep -q 'scripts/install.sh --system' '$work/wayland.err' \
    && grep -qF '$(grep -m1 '^KERNEL=="uinput"' docs/INJECTION.md)' '$work/wayland.err'"
# --inject xtest on a Wayland session works (XWayland windows) and warns once, in its start line.
outer_display=${DISPLAY-}
if start_xvfb "$work"; then
  rm -f "$work/xw.ready"
  XDG_SESSION_TYPE=wayland "$bin" host --inject xtest --bind 127.0.0.1 --port 0 --no-discovery --no-dashboard \
    --no-web --data-dir "$work/xw-keys" --ready-file "$work/xw.ready" >/dev/null 2>"$work/xw.err" &
  xw=$!; pids+=("$xw")
  wait_ready "$work/xw.ready" "$xw"; kill -INT "$xw"; wait "$xw" 2>/dev/null
  kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null
  check "--inject xtest on Wayland: one warning, in the injector's start line" \
    test "$(grep -c 'WARNING: this is a Wayland session' "$work/xw.err")" -eq 1 -a "$(grep -c 'injecting with --inject xtest; WARNING' "$work/xw.err")" -eq 1
else
  check "Xvfb for the xtest-on-Wayland check" false
fi
if [[ -n $outer_display ]]; then export DISPLAY=$outer_display; else unset DISPLAY; fi

python3 -c 'print("[buttons]\nA = \"" + "x" * 2000000 + "\"\n[mapping]\nmode = \"\\u001b[2J\\u0000\"")' >"$work/huge.toml"
"$bin" host --insecure --config "$work/huge.toml" 2>"$work/bad6.err"; rc=$?
check "a 2 MB config value gives one short line ($(wc -c <"$work/bad6.err") bytes)" test "$rc" -ne 0 -a "$(wc -l <"$work/bad6.err")" -eq 1 -a "$(wc -c <"$work/bad6.err")" -lt 300
sed -i 's/^A = .*$/A = "left"/' "$work/huge.toml"
"$bin" host --insecure --config "$work/huge.toml" 2>"$work/bad7.err"; rc=$?
check "ESC and NUL in a config value are shown escaped, not sent raw" \
    python3 -c 'import sys; t=open(sys.argv[1],"rb").read(); sys.exit(0 if b"\\e[2J\\0" in t and not any(c < 32 and c != 10 for c in t) else 1)' "$work/bad7.err"

# 4b. The host's own messages: a busy dashboard port is one clear line (no NIO internals,
#     balanced parentheses), discovery off is said once, a config file that does not exist
#     yet is announced as created on the first change, and it is.
dport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -c 'import socket, sys, time; s=socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); open(sys.argv[2], "w").close(); time.sleep(30)' "$dport" "$work/blocker.ready" &
blocker=$!; pids+=("$blocker")
until_ok 5 test -e "$work/blocker.ready"
mkdir -p "$work/home"
HOME="$work/home" XDG_CONFIG_HOME= DBUS_SYSTEM_BUS_ADDRESS="unix:path=$work/no-bus" \
  "$bin" host --bind 127.0.0.1 --port 0 --inject log --dashboard-port "$dport" --data-dir "$hostkeys" \
  --ready-file "$work/msgs-ready.json" >/dev/null 2>"$work/msgs.err" &
msg_host=$!; pids+=("$msg_host")
# Every start-up message is written before the ready file (discovery is told off at once).
wait_ready "$work/msgs-ready.json" "$msg_host" 30
until_ok 5 grep -q "discovery" "$work/msgs.err"
kill -INT "$msg_host"; wait "$msg_host" 2>/dev/null
kill "$blocker" 2>/dev/null
line=$(grep "dashboard off" "$work/msgs.err")
check "a busy dashboard port is one clear line naming it" grep -qx "remotion host: dashboard off: 127.0.0.1 port $dport is in use; pick another port with --dashboard-port (0: any free port)" <<<"$line"
check "... with balanced parentheses" test "$(tr -cd '(' <<<"$line" | wc -c)" -eq "$(tr -cd ')' <<<"$line" | wc -c)"
line=$(grep "discovery" "$work/msgs.err")
check "discovery off is said once: $line" test "$(grep -o "discovery" <<<"$line" | wc -l)" -eq 1 -a "$(grep -o "connect by address" <<<"$line" | wc -l)" -eq 1
mkdir -p "$work/fakebin" "$work/runtime" && chmod 700 "$work/runtime"
HOME="$work/home" XDG_CONFIG_HOME= XDG_RUNTIME_DIR="$work/runtime" "$bin" host --bind 127.0.0.1 --port 0 --inject log --no-discovery --dashboard-port 0 \
  --data-dir "$hostkeys" --ready-file "$work/cfg-ready.json" >/dev/null 2>"$work/cfg.err" &
cfg_host=$!; pids+=("$cfg_host")
wait_ready "$work/cfg-ready.json" "$cfg_host" 30
config="$work/home/.config/remotion/config.toml"
check "a config file that does not exist yet is announced as created on the first change" \
  grep -q "settings will be saved to $config, created on the first change" "$work/cfg.err"
cport=$(ready_value "$work/cfg-ready.json" dashboardPort)
# 4c. The dashboard's writes need this start's token (docs/SECURITY.md §5.3). Another Unix
#     user (nobody) can reach 127.0.0.1 but not read the token: every write route and the
#     WebSocket are refused, and nothing changes. The host's user has it (`remotion dashboard`).
chmod 755 "$work"      # nobody may walk to the runtime directory; the directory and the file guard the token
dash_url=$(XDG_RUNTIME_DIR="$work/runtime" "$bin" dashboard --print --data-dir "$hostkeys")
token=${dash_url#*#token=}
token_file=$(ls -d "$work"/runtime/remotion/dashboard-address-* 2>/dev/null | head -1)
check "remotion dashboard prints the address with its token" test -n "$token" -a "$dash_url" != "$token"
check "the dashboard's token file is 0600" test -n "$token_file" -a "$(stat -c %a "$token_file")" = 600
check "another user cannot read the token" bash -c "! runuser -u nobody -- cat '$token_file' 2>/dev/null"
# `remotion dashboard` with a display hands the browser a 0600 page by file URL, never the
# token on a command line (/proc/PID/cmdline is world-readable). A recording
# xdg-open stands in for the browser (it reads the page, as a browser would).
cat >"$work/fakebin/xdg-open" <<FAKE
#!/bin/sh
printf '%s\n' "\$*" >"$work/xdg-open.args"
page=\$(printf '%s' "\$1" | sed 's|^file://||')
stat -c %a "\$page" >"$work/xdg-open.mode" && cat "\$page" >"$work/xdg-open.page"
FAKE
chmod +x "$work/fakebin/xdg-open"
PATH="$work/fakebin:$PATH" DISPLAY=:99 XDG_RUNTIME_DIR="$work/runtime" "$bin" dashboard --data-dir "$hostkeys" >"$work/dash.out"
check "remotion dashboard gives xdg-open a file URL, not the token" \
  bash -c "grep -q '^file://$work/runtime/remotion/dashboard-' '$work/xdg-open.args' && ! grep -qF -- '$token' '$work/xdg-open.args' '$work/dash.out'"
check "... a 0600 page in a 0700 directory that sends the browser on with the token" \
  bash -c "test \"\$(cat '$work/xdg-open.mode')\" = 600 && test \"\$(stat -c %a '$work/runtime/remotion')\" = 700 && grep -qF -- '$token' '$work/xdg-open.page'"
check "... removed once the browser read it" bash -c "! ls '$work/runtime/remotion' | grep -q '^dashboard-.*[.]html$'"
as_nobody() { runuser -u nobody -- curl -s -o /dev/null -w '%{http_code}' "$@"; }
for route in settings web-pairing calibrate; do
  code=$(as_nobody -H 'Content-Type: application/json' -H "Origin: http://127.0.0.1:$cport" \
         -d '{"key":"sensitivity","value":"3"}' "http://127.0.0.1:$cport/api/$route")
  check "another user's POST /api/$route is refused (403)" test "$code" = 403
done
code=$(as_nobody -H 'Connection: Upgrade' -H 'Upgrade: websocket' -H 'Sec-WebSocket-Version: 13' \
       -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' "http://127.0.0.1:$cport/ws")
check "another user's dashboard WebSocket is refused (no 101)" test "$code" != 101
check "... and nothing they sent changed the settings" bash -c "! grep -q 'sensitivity = 3' '$config' 2>/dev/null"
curl -s -o /dev/null -H 'Content-Type: application/json' -H "X-Remotion-Token: $token" \
  -d '{"key":"sensitivity","value":"1.5"}' "http://127.0.0.1:$cport/api/settings"
kill -INT "$cfg_host"; wait "$cfg_host" 2>/dev/null
check "... and the first change creates it" grep -q "sensitivity = 1.5" "$config"
check "the token file is gone when the host stops" test ! -e "$token_file"

# 4c2. The app menu's entry runs `remotion dashboard --start`: with no host running it starts
#     the user unit and waits for that host's dashboard (the address file is the host's
#     readiness signal). systemd --user cannot run here, so a recording `systemctl` in fakebin
#     stands in for it and starts the host the way the unit would; its pid is kept to stop it.
cat >"$work/fakebin/systemctl" <<FAKE
#!/bin/sh
printf '%s\n' "\$*" >>"$work/systemctl.calls"
if [ -e "$work/systemctl.fail" ]; then echo "Failed to start remotion-host.service: Unit remotion-host.service not found." >&2; exit 5; fi
XDG_RUNTIME_DIR="$work/runtime" "$bin" host --bind 127.0.0.1 --port 0 --inject log --no-discovery --no-web --dashboard-port 0 \
  --data-dir "$work/startkeys" >/dev/null 2>"$work/started.err" </dev/null &
echo \$! >"$work/started.pid"
FAKE
chmod +x "$work/fakebin/systemctl"
PATH="$work/fakebin:$PATH" XDG_RUNTIME_DIR="$work/runtime" "$bin" dashboard --start --print --data-dir "$work/startkeys" >"$work/start.out" 2>"$work/start.err"; rc=$?
[[ -s $work/started.pid ]] && pids+=("$(cat "$work/started.pid")")
check "dashboard --start with no host starts the user unit" grep -qx -- "--user start remotion-host.service" "$work/systemctl.calls"
check "... waits for the started host and prints its dashboard's address" \
  bash -c "test $rc -eq 0 && grep -q '^http://127.0.0.1:[0-9]*/#token=' '$work/start.out'"
PATH="$work/fakebin:$PATH" XDG_RUNTIME_DIR="$work/runtime" "$bin" dashboard --start --print --data-dir "$work/startkeys" >"$work/start2.out"
check "... and with that host running, opens it without starting another" \
  bash -c "test \$(wc -l <'$work/systemctl.calls') -eq 1 && cmp -s '$work/start.out' '$work/start2.out'"
[[ -s $work/started.pid ]] && kill -9 "$(cat "$work/started.pid")" 2>/dev/null
for _ in $(seq 100); do kill -0 "$(cat "$work/started.pid")" 2>/dev/null || break; sleep 0.1; done
touch "$work/systemctl.fail"
PATH="$work/fakebin:$PATH" XDG_RUNTIME_DIR="$work/runtime" "$bin" dashboard --start --print --data-dir "$work/startkeys" >/dev/null 2>"$work/start3.err"; rc=$?
check "... a dead host's address file is not opened, and a unit that cannot start is one line naming why" \
  bash -c "test $rc -ne 0 && test \$(wc -l <'$work/systemctl.calls') -eq 2 && test \$(wc -l <'$work/start3.err') -eq 1 &&
           grep -q 'systemctl --user start remotion-host.service. failed (Failed to start remotion-host.service: Unit remotion-host.service not found.)' '$work/start3.err'"

# 4d. Pairing needs consent, and its secret never reaches a log (docs/SECURITY.md §9): a host
#     whose output is not a terminal (a user unit's journal) opens no pairing window at start
#     and prints no link, with or without --json; it says how to get one.
"$bin" host --bind 127.0.0.1 --port 0 --inject log --no-discovery --no-dashboard --web-port 0 --json \
  --data-dir "$work/consent-keys" --ready-file "$work/consent-ready.json" >"$work/consent.out" 2>"$work/consent.err" &
consent_host=$!; pids+=("$consent_host")
wait_ready "$work/consent-ready.json" "$consent_host" 30
kill -INT "$consent_host"; wait "$consent_host" 2>/dev/null
check "a host not on a terminal prints no pairing link (no #pair= on stdout or stderr, --json included)" \
  bash -c "! grep -q '#pair=' '$work/consent.out' '$work/consent.err'"
check "... opens no pairing window at start (none in its ready file)" grep -q '"pairingURL":null' "$work/consent-ready.json"
check "... and says how to pair a phone" grep -q 'pair a phone: run `remotion pair --web`' "$work/consent.err"

# 5. Nobody answering: the client says so and fails.
"$bin" client --host 127.0.0.1:9 --data-dir "$clientkeys" --timeout 1 --duration 1 2>"$work/timeout.err"; rc=$?
check "client with no host times out with a clear message" test "$rc" -ne 0
check "timeout message names the address" grep -q "no answer from 127.0.0.1:9" "$work/timeout.err"

# 5b. scripts/install.sh and scripts/uninstall.sh into a temporary home (this build's
#     binary, no release build, nothing enabled or started).
inst="$work/install-home"; mkdir -p "$inst"
HOME="$inst" XDG_CONFIG_HOME= bash scripts/install.sh --bin "$bin" >"$work/install.out" 2>&1; rc=$?
check "install.sh into a temporary home exits 0" test "$rc" -eq 0
check "... remotion --version answers the one version ($("$bin" --version))" \
  test "$("$inst/.local/bin/remotion" --version 2>/dev/null)" = "$("$bin" --version)"
check "... the installed binary finds the dashboard's files" \
  bash -c "'$inst/.local/bin/remotion' demo --dashboard 0 --duration 0.5 2>&1 | grep -q 'dashboard on http://127.0.0.1:'"
check "... a systemd user unit for remotion host (not enabled)" \
  grep -qx "ExecStart=$inst/.local/bin/remotion host" "$inst/.config/systemd/user/remotion-host.service"
# The unit's hardening, scored offline (no running systemd here): 9.8 UNSAFE without it,
# 6.4 with it (docs/SECURITY.md §11.5); the threshold catches a directive lost.
mkdir -p "$work/unit-runtime" && chmod 700 "$work/unit-runtime"
check "... hardened: systemd-analyze security --offline scores it at most 6.5" \
  env XDG_RUNTIME_DIR="$work/unit-runtime" systemd-analyze security --offline=yes --user --threshold=65 \
  "$inst/.config/systemd/user/remotion-host.service"
check "... and systemd-analyze verify says nothing about it (an unknown key would be a warning)" \
  bash -c "XDG_RUNTIME_DIR='$work/unit-runtime' systemd-analyze verify --user '$inst/.config/systemd/user/remotion-host.service' 2>&1 | { ! grep .; }"
check "... the udev rule of docs/INJECTION.md" \
  grep -qxF "$(grep -m1 '^KERNEL=="uinput"' docs/INJECTION.md)" "$inst/.local/share/remotion/60-remotion-uinput.rules"
check "... which gives the desktop session access (uaccess), no group" \
  bash -c "grep -q 'TAG+=\"uaccess\"' '$inst/.local/share/remotion/60-remotion-uinput.rules' && ! grep -q GROUP '$inst/.local/share/remotion/60-remotion-uinput.rules'"
check "... which grants no /dev/uhid (the virtual gamepad's grant is an opt-in of its own)" \
  bash -c "! grep -v '^#' '$inst/.local/share/remotion/60-remotion-uinput.rules' | grep -q 'uhid\|hidraw'"
check "... which makes nothing writable by every account (the pads' light is an opt-in of its own)" \
  bash -c "! grep -v '^#' '$inst/.local/share/remotion/60-remotion-uinput.rules' | grep -qE 'chmod|MODE|leds'"
check "... the opt-in pads' light rule shipped in share/remotion, and the command that installs it printed" \
  bash -c "grep -q 'SUBSYSTEM==\"leds\"' '$inst/.local/share/remotion/60-remotion-pad-light.rules' && grep -qF 'sudo install -m644 $inst/.local/share/remotion/60-remotion-pad-light.rules /etc/udev/rules.d/' '$work/install.out'"
check "... the opt-in uhid rule shipped in share/remotion, and the one command that installs it printed" \
  bash -c "grep -q '^KERNEL==\"uhid\"' '$inst/.local/share/remotion/60-remotion-uhid.rules' && grep -qF 'sudo install -m644 $inst/.local/share/remotion/60-remotion-uhid.rules /etc/udev/rules.d/' '$work/install.out'"
inst2="$work/inst-gamepad"
HOME="$inst2" XDG_CONFIG_HOME= bash scripts/install.sh --bin "$bin" --udev-dir "$inst2/udev" >/dev/null 2>&1
check "install.sh without --gamepad puts no uhid rule where udev reads (--udev-dir)" \
  test -s "$inst2/udev/60-remotion-uinput.rules" -a ! -e "$inst2/udev/60-remotion-uhid.rules"
check "... nor a pads' light rule without --pad-light" test ! -e "$inst2/udev/60-remotion-pad-light.rules"
HOME="$inst2" XDG_CONFIG_HOME= bash scripts/install.sh --bin "$bin" --udev-dir "$inst2/udev" --gamepad --pad-light >/dev/null 2>&1
check "... with --gamepad it does" test -s "$inst2/udev/60-remotion-uhid.rules"
check "... with --pad-light the light's rule" test -s "$inst2/udev/60-remotion-pad-light.rules"
HOME="$inst2" XDG_CONFIG_HOME= bash scripts/uninstall.sh >/dev/null 2>&1
check "... and uninstall.sh removes it with the rest" test -z "$(find "$inst2" -type f -o -type l)"
check "... bash, zsh and fish completions" test -s "$inst/.local/share/bash-completion/completions/remotion" \
  -a -s "$inst/.local/share/zsh/site-functions/_remotion" -a -s "$inst/.local/share/fish/vendor_completions.d/remotion.fish"
check "... and the bash completion knows the subcommands" grep -q "pair" "$inst/.local/share/bash-completion/completions/remotion"
HOME="$inst" XDG_CONFIG_HOME= bash scripts/uninstall.sh >"$work/uninstall.out" 2>&1; rc=$?
check "uninstall.sh removes every installed file" test "$rc" -eq 0 -a -z "$(find "$inst" -type f -o -type l)"

# 6. The terminal view as a real terminal shows it (tmux): the host's facts inside the
#    view (injector and why, dashboard, discovery), the log injector's JSON only among its
#    last events, the paired name once and the address once, gauges that move for 20°,
#    and the last line after the view closed. The welcome screen is compared with
#    e2e/terminal/welcome.txt (ports, paths and the key masked); captures are kept in artifacts/.
if command -v tmux >/dev/null; then
  bash scripts/terminal-view-test.sh "$bin" "$hostkeys" "$clientkeys" "$work/view"; rc=$?
  check "the terminal view in tmux (scripts/terminal-view-test.sh)" test "$rc" -eq 0
else
  check "tmux is installed (bash scripts/setup.sh)" false
fi

# 7. Time from outside is data (docs/SECURITY.md): a host with a virtual pad (the null sink
#    stands in for /dev/uhid) fed a DSU source and a plain UDP controller whose timestamps
#    jump 4e15 µs ahead and to u64's extremes (once a SIGILL) stays up, serves DSU within a
#    real pad's range and stops on SIGINT with its stop line.
timeout 60 python3 e2e/hostile/far_future_time.py "$bin" >"$work/far-future.log" 2>&1; rc=$?
sed 's/^/     /' "$work/far-future.log"
check "a host with a pad survives far-future and extreme timestamps from a DSU source and a UDP controller" test "$rc" -eq 0

# 8. Outputs before sources (docs/GAMEPAD.md): two DSU sources that stream from the moment
#    the host asks, into a host with pads (null sink); both controllers connect while the
#    host starts and each gets its own pad (once 0 or 1 of 2), three rounds.
timeout 120 python3 e2e/gamepad/early_players.py "$bin" >"$work/early-players.log" 2>&1; rc=$?
sed 's/^/     /' "$work/early-players.log"
check "every controller that connects while the host starts gets its own pad" test "$rc" -eq 0

echo "cli-e2e: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
