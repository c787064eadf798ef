#!/usr/bin/env bash
# DSU (cemuhook) end to end with the real binary, on 127.0.0.1 only (docs/DSU.md).
# The DSU side is e2e/dsu/dsu_peer.py, written from the protocol description.
#   A  a DSU server's yaw rotation moves the X pointer (XTest into a private Xvfb) by the
#      amount its packets integrate to; its cross press reaches X exactly once; the
#      malformed packets it sends first are counted by reason
#   B  the same server comes back and is picked up; killed mid-press, the host releases
#      the button within the timeout
#   C  a `remotion client` (synthetic:circle) is served by `--dsu-serve` to the peer as
#      DSU client: the stream's rate, gyro and accelerometer equal the circle's (float
#      rounding); malformed requests are counted and nothing crashes
#   D  a DSU source flooding at 10x its rate (4 slots) does not starve a UDP controller
#   E  a DSU source's finger on its touchpad is served on by `--dsu-serve` where it was
#   F  a DSU source flapping "disconnected" and data (200 packets a second) opens a session
#      per round trip but makes at most 4 virtual pads (`--gamepad-sink null`)
# Prints 'N passed, N failed'; every process is stopped by its pid; bounded durations.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/stage.sh
bin=$(remotion_bin)
peer=e2e/dsu/dsu_peer.py
stage_workdir remotion-dsu-e2e
passed=0; failed=0
check() { # name, command...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}
until_ok() { local limit=$1 i; shift; for ((i = 0; i < limit * 20; i++)); do "$@" && return 0; sleep 0.05; done; "$@"; }
start_host() { # name, flags...; sets host_pid, port (from the host's ready file)
  local name=$1; shift
  "$bin" host --bind 127.0.0.1 --port 0 --insecure --no-discovery --no-dashboard --no-web --data-dir "$work/data-$name" \
    --ready-file "$work/$name.ready" "$@" >"$work/$name.out" 2>"$work/$name.err" &
  host_pid=$!; pids+=("$host_pid")
  wait_ready "$work/$name.ready" "$host_pid" 30 || { cat "$work/$name.err"; return 1; }
  port=$(ready_value "$work/$name.ready" udpPort)
}
stop_host() { kill -INT "$host_pid" 2>/dev/null; wait "$host_pid"; }

# ---- A and B: a DSU source drives the X pointer --------------------------------------
start_xvfb "$work" || { echo "dsu-e2e: 0 passed, 1 failed"; exit 1; }
# X itself counts the presses: raw button events of the master pointer (scripts/lib/xvfb.sh).
start_xi2_witness "$work/xi.out"; xi2=$?
pids+=("$xi2_pid")
[[ $xi2 -eq 0 ]] || { echo "dsu-e2e: 0 passed, 1 failed"; exit 1; }
xdotool mousemove 960 540
raw() { python3 - "$work/xi.out" "$1" <<'PY'
import sys
text, kind = open(sys.argv[1]).read(), sys.argv[2]
blocks = text.split("EVENT type")
print(sum(1 for b in blocks if f"({kind})" in b and "detail: 1\n" in b))
PY
}
cat >"$work/fps.toml" <<'EOF'
[mapping]
mode = "fps"
"fps.slow_sensitivity" = 1
"fps.fast_sensitivity" = 1
"fps.degrees_per_screen" = 360
EOF
printf '[mapping]\nmode = "pointer"\n' >"$work/pointer.toml"
q=$(free_udp_port)
start_host hostA --inject xtest --timeout 1 --config "$work/fps.toml" --dsu "127.0.0.1:$q" || exit 1
python3 "$peer" server --port "$q" --duration 6 --rate 60 --yaw-rate 30 --rotate-seconds 3 \
  --press cross@4+0.5 --malformed >"$work/peerA.out"
sleep 1.5                                                         # the slot times out (1 s): nothing held
read -r x y < <(xdotool getmouselocation --shell | sed -n 's/^[XY]=//p' | xargs)
expected=$(python3 - "$work/peerA.out" <<'PY'
import json, sys
sent = [e for e in map(json.loads, open(sys.argv[1])) if e["event"] == "sent"]
deg = sum(b["gyro"][1] * min((b["timestamp_us"] - a["timestamp_us"]) / 1e6, 0.1) for a, b in zip(sent, sent[1:]))
print(round(deg * 1920 / 360))
PY
)
echo "     pointer moved $((x - 960)) px right, $((y - 540)) px down; the packets integrate to $expected px"
check "A: yaw right moves the X pointer right by the integrated amount (±3%)" \
  python3 -c "import sys; d, e = $x - 960, $expected; sys.exit(0 if e > 200 and abs(d - e) <= max(3, 0.03 * e) else 1)"
check "A: no vertical motion from a pure yaw" test "$y" -eq 540
check "A: the cross press reached X exactly once ($(raw RawButtonPress) press, $(raw RawButtonRelease) release)" \
  test "$(raw RawButtonPress)" -eq 1 -a "$(raw RawButtonRelease)" -eq 1

python3 "$peer" server --port "$q" --duration 20 --yaw-rate 0 --press cross@0.3+60 >"$work/peerB.out" & peerB=$!; pids+=("$peerB")
for _ in $(seq 100); do [[ $(raw RawButtonPress) -ge 2 ]] && break; sleep 0.05; done
check "B: the returning server is picked up and its press arrives" test "$(raw RawButtonPress)" -eq 2
sleep 0.3
kill -9 "$peerB"; wait "$peerB" 2>/dev/null
t_kill=$(date +%s.%N)
# The release comes from the host's 1 s timeout: looked for up to 5 s (each look runs python).
# 0.5-3 s: by the timeout and not before it; 5 runs on 2 loaded cores took 1.01-1.17 s, so
# the old 1.5 s sat within 0.33 s of the worst (docs/BENCHMARKS.md, "Figures that left the tests").
deadline=$(( ${EPOCHREALTIME/./} + 5000000 ))
while (( ${EPOCHREALTIME/./} < deadline )); do [[ $(raw RawButtonRelease) -ge 2 ]] && break; sleep 0.02; done
t_rel=$(date +%s.%N)
delay=$(python3 -c "print(round($t_rel - $t_kill, 2))")
check "B: killed mid-press, released once by the 1 s timeout (after $delay s; 0.5-3 s)" \
  python3 -c "import sys; sys.exit(0 if $(raw RawButtonRelease) == 2 and 0.5 <= $delay <= 3.0 else 1)"
check "B: the host is still running" kill -0 "$host_pid"
stop_host; rcA=$?
check "A/B: host stops cleanly (exit $rcA)" test "$rcA" -eq 0
check "A: the slot was a session twice (server returned)" test "$(grep -c 'DSU slot connected' "$work/hostA.err")" -eq 2
check "A: malformed packets counted by reason in the stop line" \
  grep -q "DSU source 127.0.0.1:$q: .*dropped bad-crc=1 bad-magic=1 bad-version=1 truncated=1" "$work/hostA.err"

# ---- C: a Remotion client served to a DSU client -------------------------------------
start_host hostC --inject log --config "$work/pointer.toml" --dsu-serve 127.0.0.1:0 || exit 1
r=$(ready_require "$work/hostC.ready" dsuServe) || exit 1
r=${r##*:}
python3 - "$r" <<'PY'
import socket, struct, sys, zlib
def seal(msg_type, payload, version=1001, magic=b"DSUC"):
    p = bytearray(magic + struct.pack("<HH", version, 4 + len(payload)) + b"\0" * 4 + struct.pack("<II", 7, msg_type) + payload)
    struct.pack_into("<I", p, 8, zlib.crc32(bytes(p)) & 0xFFFFFFFF)
    return bytes(p)
good = seal(0x100000, b"")
bad_crc = bytearray(good); bad_crc[8] ^= 0xFF
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for d in [b"XSUC" + good[4:], bytes(bad_crc), good[:11], seal(0x100001, struct.pack("<i", 9) + bytes(9)),
          seal(0x100000, b"", version=1000)]:
    s.sendto(d, ("127.0.0.1", int(sys.argv[1])))
PY
check "C: the DSU server's port cannot be shared (bound without SO_REUSEADDR)" python3 - "$r" <<'PY'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(0)
sys.exit(1)
PY
python3 "$peer" client --port "$r" --duration 4 >"$work/dsuclient.out" & dsuclient=$!; pids+=("$dsuclient")
# Subscribed once the server has answered its port request (sent after the pad subscription).
until_ok 5 grep -q '"event":"port"' "$work/dsuclient.out" || echo "     the DSU client got no port reply"
"$bin" client --host "127.0.0.1:$port" --insecure --source synthetic:circle --rate 100 --duration 3 --press A@1+0.5 2>"$work/clientC.err"
check "C: the remotion client ran" grep -q "sent" "$work/clientC.err"
wait "$dsuclient"
check "C: the host survived the malformed requests" kill -0 "$host_pid"
stop_host; rcC=$?
check "C: host stops cleanly (exit $rcC)" test "$rcC" -eq 0
check "C: malformed requests counted by reason" \
  grep -q "DSU server: .*dropped bad-crc=1 bad-magic=1 bad-version=1 count-out-of-range=1 truncated=1" "$work/hostC.err"
python3 - "$work/dsuclient.out" "$work/clientC.err" <<'PY'
import json, math, re, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
pads = [p for p in lines if p["event"] == "pad"]
m = re.search(r"sent (\d+) motion samples", open(sys.argv[2]).read())
sent = int(m.group(1)) if m else 0
summary = next(p for p in lines if p["event"] == "summary")
fails = []
def check(ok, what):
    print(("     ok   " if ok else "     FAIL ") + what)
    if not ok: fails.append(what)
# Every sample the client sent is served (loopback loses none; a starved client sends fewer
# in its 3 s: 194 of 300 beside a loaded CI run and three builds, so the count is the
# client's own, not the rate's).
check(sent >= 100 and len(pads) >= 0.95 * sent, f"{len(pads)} pad packets served for the {sent} samples the client sent in 3 s at 100 Hz")
check(summary["drops"] == {} and summary["stale"] == 0 and summary["counter_gaps"] == 0,
      f"no drops, repeats or gaps ({summary['drops']}, {summary['stale']}, {summary['counter_gaps']})")
ts = [p["timestamp_us"] for p in pads]
# The samples' own spacing, not the run's average rate: a client that falls behind on a
# loaded machine skips the slots it missed (its average drops to 96 Hz beside a loaded CI
# run), but the samples served keep their 10 ms stamp spacing; a host that rescaled or
# reordered the stamps would not. (A button edge goes out at once with the latest motion,
# so a stamp may repeat.) The mean rate may not exceed the stream's.
steps = sorted(b - a for a, b in zip(ts, ts[1:]))
median_ms = steps[len(steps) // 2] / 1000
rate = (len(ts) - 1) / ((ts[-1] - ts[0]) / 1e6)
check(steps[0] >= 0 and abs(median_ms - 10) <= 1 and rate <= 102,
      f"stamps 10 ms apart: median {median_ms:.2f} ms, smallest {steps[0] / 1000:.2f} ms, mean rate {rate:.2f} Hz (stream 100 Hz)")
check(all(math.isfinite(v) for p in pads for v in p["gyro"] + p["accel"]), "every value finite")
# SyntheticMotion circle: yaw = a sin wt, pitch = 0.6 a (cos wt - 1), a = 0.3, w = pi;
# rates yaw' = a w cos wt, pitch' = -0.6 a w sin wt (rad/s). DSU: pitch = deg(pitch'),
# yaw = -deg(yaw'), roll = 0; no accelerometer, so gravity at the attitude:
# accel = (0, -cos pitch, sin pitch) g. The phase comes from the first packet.
a, w, deg = 0.3, math.pi, 180 / math.pi
p0 = pads[0]
theta0 = math.atan2(-p0["gyro"][0] / (deg * 0.6 * a * w), -p0["gyro"][1] / (deg * a * w))
worst_g = worst_a = 0.0
for p in pads:
    th = theta0 + w * (p["timestamp_us"] - p0["timestamp_us"]) / 1e6
    pitch = 0.6 * a * (math.cos(th) - 1)
    g = (deg * -0.6 * a * w * math.sin(th), -deg * a * w * math.cos(th), 0.0)
    acc = (0.0, -math.cos(pitch), math.sin(pitch))
    worst_g = max(worst_g, max(abs(x - y) for x, y in zip(p["gyro"], g)))
    worst_a = max(worst_a, max(abs(x - y) for x, y in zip(p["accel"], acc)))
check(worst_g < 2e-3, f"gyro equals the circle's rates: worst error {worst_g:.2e} deg/s of 54 (float32 + µs stamps)")
check(worst_a < 1e-5, f"accelerometer equals gravity at the circle's attitude: worst error {worst_a:.2e} g")
held = [("cross" in p["buttons"]) for p in pads]
runs = sum(1 for x, y in zip([False] + held, held) if y and not x)
check(runs == 1 and 40 <= sum(held) <= 60, f"button A served as cross: one press over {sum(held)} packets (0.5 s)")
sys.exit(1 if fails else 0)
PY
check "C: the DSU client received the stream's rate and the circle's gyro and acceleration" test $? -eq 0

# ---- D: a flooding DSU source does not starve a UDP controller -----------------------
q2=$(free_udp_port)
start_host hostD --inject log --config "$work/pointer.toml" --dsu "127.0.0.1:$q2" || exit 1
python3 "$peer" server --port "$q2" --slots 4 --rate 60 --flood-rate 10 --duration 6 --yaw-rate 30 >/dev/null & flood=$!; pids+=("$flood")
# The flood is on once the host has made a session of each of the 4 slots.
until_ok 5 test "$(grep -c 'DSU slot connected' "$work/hostD.err")" -ge 4
"$bin" client --host "127.0.0.1:$port" --insecure --source synthetic:circle --rate 100 --duration 3 2>"$work/clientD.err"
wait "$flood"
stop_host
sent=$(sed -n 's/.*sent \([0-9]*\) motion samples.*/\1/p' "$work/clientD.err")
# Pointer mode (the default). The DSU slots send gyro and acceleration, no attitude: the host
# fuses one (docs/MOTION.md), so they move the pointer too; count each session's moves.
# "remotion host: controller connected address=dsu 127.0.0.1:PORT slot N session=ID"
dsu_sessions=$(sed -n "s/.*controller connected address=dsu 127.0.0.1:$q2 slot [0-9]* session=\([0-9a-f]*\).*/\1/p" "$work/hostD.err" | sort -u)
moved_by() { grep '"move_to"' "$work/hostD.out" | grep -c "\"session\":\"$1\"" ; }
moved=0
for s in $(grep -o '"session":"[0-9a-f]*"' "$work/hostD.out" | sort -u | sed 's/.*:"\(.*\)"/\1/'); do
    echo "$dsu_sessions" | grep -qx "$s" || moved=$((moved + $(moved_by "$s")))
done
pads=$(sed -n 's/.*DSU source [^:]*:[0-9]*: \([0-9]*\) pad packets.*/\1/p' "$work/hostD.err")
echo "     flood: $pads DSU pad packets accepted; the UDP controller sent $sent samples, $moved were injected"
# That the flood was on, not how fast a Python sender manages: the peer plans 4 slots x 600 Hz
# for 6 s (14,400); idle it delivers over 7,200, and beside two busy loops a fresh-clone run
# measured 5,600. A third of the 7,200 planned over the client's 3 s is still 8 times the
# UDP controller's own 300 samples (docs/benchmarks-history.md, "The suite under a second CPU load").
check "D: the flood was on (over 2,400 pad packets: 4 slots x 200 Hz x 3 s, 8 x the controller's samples)" test "${pads:-0}" -gt 2400
# Of what the controller sent (a client that falls behind its 100 Hz on a loaded machine skips
# the slots it missed: over 150 in its 3 s says it streamed).
check "D: the UDP controller is not starved (>= 98% of its samples injected)" \
  python3 -c "import sys; sys.exit(0 if ${sent:-0} > 150 and $moved >= 0.98 * ${sent:-0} else 1)"
slots_moving=0
for s in $dsu_sessions; do [ "$(moved_by "$s")" -gt 0 ] && slots_moving=$((slots_moving + 1)); done
check "D: pointer mode works from the DSU slots' raw sensors (fused attitude): all 4 slots moved the pointer" \
  test "$slots_moving" -eq 4
check "D: no 'needs attitude' note for sources that send gyro and acceleration" \
  test "$(grep -c 'needs attitude' "$work/hostD.err")" -eq 0

# ---- E: a source's touchpad served on -----------------------------------------------
q3=$(free_udp_port)
start_host hostE --inject log --config "$work/pointer.toml" --dsu "127.0.0.1:$q3" --dsu-serve 127.0.0.1:0 || exit 1
e=$(ready_require "$work/hostE.ready" dsuServe) || exit 1
python3 "$peer" server --port "$q3" --duration 8 --rate 60 --yaw-rate 0 --touch 5,1234,567 >/dev/null & touching=$!
pids+=("$touching")
until_ok 10 grep -q 'DSU slot connected' "$work/hostE.err"
python3 "$peer" client --port "${e##*:}" --duration 3 >"$work/touchclient.out"
kill "$touching" 2>/dev/null; wait "$touching" 2>/dev/null
stop_host
check "E: the source's finger (id 5 at 1234,567 of the DS4's 1920x942) is served where it was" python3 - "$work/touchclient.out" <<'PY'
import json, sys
pads = [p for p in map(json.loads, open(sys.argv[1])) if p["event"] == "pad"]
seen = {json.dumps(p["touches"]) for p in pads}
print(f"     {len(pads)} pad packets served, touches {sorted(seen)}")
sys.exit(0 if len(pads) >= 30 and seen == {json.dumps([[5, 1234, 567]])} else 1)
PY

# ---- F: a flapping source makes at most the pad limit's pads -------------------------
q4=$(free_udp_port)
start_host hostF --inject log --timeout 1 --gamepad dualsense --gamepad-sink null --dsu "127.0.0.1:$q4" || exit 1
python3 "$peer" server --port "$q4" --duration 3 --rate 200 --yaw-rate 0 --flap >/dev/null
stop_host
sessions=$(grep -c 'DSU slot connected' "$work/hostF.err")
# One line per pad made: "gamepad: a virtual DualSense (bluetooth, MAC …) for controller ID".
made=$(grep -c 'a virtual DualSense (.*) for controller' "$work/hostF.err")
echo "     flapping: $sessions sessions opened, $made virtual pads made"
check "F: a flapping source's sessions (over 50) make at most 4 pads" \
  python3 -c "import sys; sys.exit(0 if $sessions > 50 and $made <= 4 else 1)"

echo "dsu-e2e: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
