#!/bin/bash
# Runs INSIDE the QEMU guest of scripts/gamepad-guest-test.sh (uhid and hid-playstation are
# loaded by its /init). 1. `remotion gamepad-probe` makes one virtual DualSense; the reader
# (gamepad_guest_read.py) finds its evdev nodes by uniq, reads their EVIOCGABS, tells the
# probe to go (its --go-file) and records every event until the nodes are gone.
# 2. `remotion host --gamepad dualsense --gyro-stick` with `remotion client` on loopback: a controller
# that sweeps, presses A and holds its left stick and R2 (--analog), then leaves; 3. one that holds A and is killed (SIGKILL) once
# the reader saw Cross down: its pad goes to rest and away at the host's timeout. 4. Two controllers
# at once from one address: two live pads, two MACs. 5. SDL sets the light and rumbles the pad of a
# controller: the client hears both, then the rumble's end. 6. A DSU source's controller (one host
# serving a client over DSU, a second reading it with --dsu) gets a pad that turns and rests.
# The checks run outside (gamepad_guest_check.py). No network device; loopback only.
set -uo pipefail
. "$(dirname "$0")/guest-helpers.sh"   # out, guest.env, ready.sh, the pace, the kernel fact
fact_modules uhid hid_playstation

# The uniq (MAC) of every live virtual pad, comma-separated.
pad_uniqs() { for d in /sys/class/input/event*/device; do
  [[ "$(cat "$d/name" 2>/dev/null)" == "Remotion virtual DualSense" ]] && cat "$d/uniq"; done | sort -u | paste -sd, -; }
# The evdev nodes of live virtual pads (three each: gamepad, Motion Sensors, Touchpad). hid-playstation
# registers them at the end of its probe, after the feature reports it asks the pad for.
pad_nodes() { local d n=0; for d in /sys/class/input/event*/device; do
  [[ "$(cat "$d/name" 2>/dev/null)" == "Remotion virtual DualSense"* ]] && n=$((n + 1)); done; echo "$n"; }

say "probe"
"$REMOTION_BIN" gamepad-probe --seconds "$PROBE_SECONDS" --rate 100 --gyro "$PROBE_GYRO" \
  --identity guest-controller --go-file /tmp/go >"$out/probe.out" 2>"$out/probe.err" &
probe=$!
/usr/bin/python3 "$(dirname "$0")/gamepad_guest_read.py" "$out/probe.out" /tmp/go "$out/events.json" \
  >"$out/reader.out" 2>&1
fact reader_rc $?
say "reader done"
wait "$probe"; fact probe_rc $?
cp /proc/bus/input/devices "$out/devices-after"
ls /sys/class/hidraw >"$out/hidraw-after" 2>/dev/null

say "SDL witness"
"$REMOTION_BIN" gamepad-probe --seconds 3 --rate 100 --gyro "$PROBE_GYRO" \
  --identity sdl-controller --go-file /tmp/sdl-go >"$out/sdl-probe.out" 2>"$out/sdl-probe.err" &
probe=$!
SDL_JOYSTICK_DISABLE_UDEV=1 /usr/bin/python3 "$(dirname "$0")/gamepad_sdl_witness.py" /tmp/sdl-go "$out/sdl.json" \
  >"$out/sdl.out" 2>&1
fact sdl_rc $?
[[ -e /tmp/sdl-go ]] || touch /tmp/sdl-go
wait "$probe"; fact sdl_probe_rc $?

ip link set lo up
say "host"
"$REMOTION_BIN" host --gamepad dualsense --gyro-stick --inject log --insecure --bind 127.0.0.1 --port 0 --no-discovery \
  --no-web --no-dashboard --timeout "$HOST_TIMEOUT" --data-dir "$HOME/data" --ready-file "$HOME/host.ready" \
  >"$out/host.out" 2>"$out/host.err" &
host=$!
if wait_ready "$HOME/host.ready" "$host" 60; then
  port=$(ready_value "$HOME/host.ready" udpPort)
  say "host on port $port: a controller that sweeps and presses A"
  /usr/bin/python3 "$(dirname "$0")/gamepad_guest_read.py" - - "$out/host-events.json" >"$out/host-reader.out" 2>&1 &
  reader=$!
  "$REMOTION_BIN" client --insecure --host "127.0.0.1:$port" --timeout 10 --source synthetic:sweep --rate 50 \
    --duration "$CLIENT_SECONDS" --press A@1.0+1.0 --analog lx=1,ly=-0.5,r2=0.5 >"$out/client.out" 2>&1
  fact client_rc $?
  wait "$reader"; fact host_reader_rc $?
  say "a controller that holds A and is killed"
  /usr/bin/python3 "$(dirname "$0")/gamepad_guest_read.py" - - "$out/kill-events.json" /tmp/south-down \
    >"$out/kill-reader.out" 2>&1 &
  reader=$!
  "$REMOTION_BIN" client --insecure --host "127.0.0.1:$port" --timeout 10 --source synthetic:still --rate 50 \
    --duration 120 --press A@0.2+100 >"$out/kill-client.out" 2>&1 &
  killed=$!
  if wait_for 30 "the reader saw Cross down" test -e /tmp/south-down; then
    t0=$(now); kill -9 "$killed"
    wait "$reader"; fact kill_reader_rc $?
    fact kill_gone_seconds "$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')"
  else
    kill -9 "$killed"; kill "$reader"
  fi
  wait "$killed" 2>/dev/null
  say "two controllers at once from one address: a pad each, two MACs"
  seen_pads=""
  two_pads() { local u; u=$(pad_uniqs); [[ "$(tr ',' '\n' <<<"$u" | grep -c .)" -ge 2 ]] && seen_pads=$u; }
  twins=()
  for n in 1 2; do
    "$REMOTION_BIN" client --insecure --host "127.0.0.1:$port" --timeout 10 --source synthetic:still --rate 20 \
      --duration 20 >"$out/twin-$n.out" 2>&1 &
    twins+=($!)
  done
  # 20 s each, not 6: the emulated guest runs at half speed beside a second load, and a second
  # client that starts late must still overlap the first.
  # Once both pads are seen the clients are told to stop (SIGINT: each says goodbye and exits 0),
  # rather than streaming out their 20 s.
  wait_for 60 "two live pads" two_pads && fact two_pads "$seen_pads"
  kill -INT "${twins[@]}" 2>/dev/null
  twin_rcs=""; for p in "${twins[@]}"; do wait "$p"; twin_rcs+="$?"; done; fact twin_rcs "$twin_rcs"
  kill -INT "$host"; wait "$host"; fact host_rc $?
else
  fact timeout "the host was not ready: $(tail -2 "$out/host.err")"
fi

# 5. A host of its own, so its controller's pad is the only one SDL can find, and a 30 s
# timeout on both sides: this one-CPU emulated guest can stall for seconds while SDL starts.
say "a game's rumble and light reach the controller"
"$REMOTION_BIN" host --gamepad dualsense --inject log --insecure --bind 127.0.0.1 --port 0 --no-discovery \
  --no-web --no-dashboard --timeout 30 --data-dir "$HOME/data2" --ready-file "$HOME/host2.ready" \
  >"$out/host2.out" 2>"$out/host2.err" &
host=$!
if wait_ready "$HOME/host2.ready" "$host" 60; then
  port=$(ready_value "$HOME/host2.ready" udpPort)
  "$REMOTION_BIN" client --insecure --host "127.0.0.1:$port" --timeout 30 --source synthetic:still --rate 50 \
    --duration 120 >"$out/feedback-client.out" 2>&1 &
  fed=$!
  one_pad() { [[ -n "$(pad_uniqs)" ]]; }
  if wait_for 30 "the controller's pad" one_pad; then
    SDL_JOYSTICK_DISABLE_UDEV=1 /usr/bin/python3 "$(dirname "$0")/gamepad_sdl_feedback.py" "$out/sdl-feedback.json" \
      >"$out/sdl-feedback.out" 2>&1
    fact sdl_feedback_rc $?
    # The client says each change on stderr; the rumble's end comes from SDL at 400 ms.
    stopped() { grep -q "feedback rumble 0/0 lightbar #ff0040" "$out/feedback-client.out"; }
    wait_for 30 "the rumble's end at the client" stopped
  fi
  # Each UDP socket's queued bytes and drops while both still run (a client that stops
  # reading shows a growing rx_queue; one whose datagrams never came shows none).
  cat /proc/net/udp >"$out/udp-sockets"
  kill -INT "$fed"; wait "$fed"; fact feedback_client_rc $?
  kill -INT "$host"; wait "$host"; fact host2_rc $?
  # The guest kernel's UDP counters (buffer errors, no port), for a failing check to print.
  grep '^Udp:' /proc/net/snmp >"$out/udp-counters"
else
  fact timeout "the second host was not ready: $(tail -2 "$out/host2.err")"
fi
# A loopback host of the later steps, number N (its data, ready file and output by N), with
# 30 s timeouts (the one-CPU guest stalls for seconds) and the step's own flags.
step_host() {
  local n=$1; shift
  "$REMOTION_BIN" host --inject log --insecure --bind 127.0.0.1 --port 0 --no-discovery --no-web --no-dashboard \
    --timeout 30 --data-dir "$HOME/data$n" --ready-file "$HOME/host$n.ready" "$@" >"$out/host$n.out" 2>"$out/host$n.err" &
}

# 6. A DSU source feeds a pad: one host serves a `remotion client` over DSU (--dsu-serve), a
# second reads it as a DSU source (--dsu) and gives that controller its pad.
say "a DSU source's controller gets a pad"
step_host 3 --dsu-serve 127.0.0.1:0
served=$!
if wait_ready "$HOME/host3.ready" "$served" 60; then
  dsu=$(ready_value "$HOME/host3.ready" dsuServe)
  step_host 4 --gamepad dualsense --dsu "$dsu"
  padhost=$!
  if wait_ready "$HOME/host4.ready" "$padhost" 60; then
    /usr/bin/python3 "$(dirname "$0")/gamepad_guest_read.py" - - "$out/dsu-events.json" >"$out/dsu-reader.out" 2>&1 &
    reader=$!
    port=$(ready_value "$HOME/host3.ready" udpPort)
    "$REMOTION_BIN" client --insecure --host "127.0.0.1:$port" --timeout 30 --source synthetic:sweep --rate 50 \
      --duration "$CLIENT_SECONDS" --analog lx=1 >"$out/dsu-client.out" 2>&1
    fact dsu_client_rc $?
    # The DSU server says the slot is gone when its controller leaves; the source closes its
    # session and the pad rests, then goes (the reader ends when its nodes are gone).
    wait "$reader"; fact dsu_reader_rc $?
    kill -INT "$padhost"; wait "$padhost"; fact host4_rc $?
  else
    fact timeout "the DSU-reading host was not ready: $(tail -2 "$out/host4.err")"
  fi
  kill -INT "$served"; wait "$served"; fact host3_rc $?
else
  fact timeout "the DSU-serving host was not ready: $(tail -2 "$out/host3.err")"
fi
# 7. Two players of two origins on one host: a UDP controller (sweeping, stick right, A held)
# and a DSU source's controller (still, stick left, B held). SDL opens both PS5 controllers and
# reads each one's own stick, buttons and gyro; then player 1 leaves and only their pad goes.
say "two players: a UDP controller and a DSU source's, each its own pad in SDL"
step_host 5 --dsu-serve 127.0.0.1:0
served=$!
# Both players stream until the script stops them (300 s, longer than the step's bounded
# waits): a player whose stream ran out on a slow guest left on its own, and its pad went
# before player 1's was taken away.
if wait_ready "$HOME/host5.ready" "$served" 60; then
  "$REMOTION_BIN" client --insecure --host "127.0.0.1:$(ready_value "$HOME/host5.ready" udpPort)" --timeout 30 \
    --source synthetic:still --rate 50 --duration 300 --analog lx=-1 --press B@0.2+300 >"$out/player2.out" 2>&1 &
  player2=$!
  step_host 6 --gamepad dualsense --dsu "$(ready_value "$HOME/host5.ready" dsuServe)"
  padhost=$!
  if wait_ready "$HOME/host6.ready" "$padhost" 60; then
    "$REMOTION_BIN" client --insecure --host "127.0.0.1:$(ready_value "$HOME/host6.ready" udpPort)" --timeout 30 \
      --source synthetic:sweep --rate 50 --duration 300 --analog lx=1 --press A@0.2+300 >"$out/player1.out" 2>&1 &
    player1=$!
    # SDL starts once both pads are whole. Started while hid-playstation still probed player 1's
    # pad (its session opened a moment before), SDL's enumeration found that hidraw node, failed
    # to open it as a PS5 controller and never looked again: it saw one pad (once, in a run with
    # the release binary, whose player 1 connects sooner).
    both_pads() { (($(pad_nodes) >= 6)); }
    wait_for 60 "both players' pads, three nodes each" both_pads
    SDL_JOYSTICK_DISABLE_UDEV=1 /usr/bin/python3 "$(dirname "$0")/gamepad_sdl_players.py" /tmp/players.sampled \
      "$out/sdl-players.json" >"$out/sdl-players.out" 2>&1 &
    witness=$!
    sampled() { [[ -f /tmp/players.sampled ]] || ! kill -0 "$witness" 2>/dev/null; }
    wait_for 200 "SDL read both players" sampled
    kill -INT "$player1"; wait "$player1"; fact player1_rc $?
    wait "$witness"; fact sdl_players_rc $?
    kill -INT "$padhost"; wait "$padhost"; fact host6_rc $?
  else
    fact timeout "the two-player host was not ready: $(tail -2 "$out/host6.err")"
  fi
  kill -INT "$player2"; wait "$player2"
  kill -INT "$served"; wait "$served"; fact host5_rc $?
else
  fact timeout "the second DSU-serving host was not ready: $(tail -2 "$out/host5.err")"
fi
# 8. A DSU source's touchpad: one finger sliding, then two, then none, on the pad's Touchpad
# node (hid-playstation's multitouch slots) and through SDL's touchpad API (a game). The
# source waits for the evdev reader's go file, the reader starts once SDL has the pad open.
say "a DSU source's fingers on the pad's touchpad"
rm -f /tmp/touch.port /tmp/touch.go /tmp/touch.sdl
/usr/bin/python3 "$(dirname "$0")/gamepad_guest_touch_source.py" /tmp/touch.port "$out/touch-source.json" /tmp/touch.go \
  >"$out/touch-source.out" 2>&1 &
source_pid=$!
if wait_for 30 "the touch source's port" test -f /tmp/touch.port; then
  step_host 7 --gamepad dualsense --dsu "127.0.0.1:$(cat /tmp/touch.port)"
  padhost=$!
  if wait_ready "$HOME/host7.ready" "$padhost" 60; then
    /usr/bin/python3 "$(dirname "$0")/gamepad_sdl_touch.py" /tmp/touch.sdl "$out/touch-sdl.json" >"$out/touch-sdl.out" 2>&1 &
    sdl_touch=$!
    wait_for 60 "SDL opens the touch pad" test -f /tmp/touch.sdl
    /usr/bin/python3 "$(dirname "$0")/gamepad_guest_read.py" - /tmp/touch.go "$out/touch-events.json" >"$out/touch-reader.out" 2>&1
    fact touch_reader_rc $?
    wait "$sdl_touch"; fact touch_sdl_rc $?
    kill -INT "$padhost"; wait "$padhost"; fact host7_rc $?
  else
    fact timeout "the touch host was not ready: $(tail -2 "$out/host7.err")"
  fi
fi
wait "$source_pid"; fact touch_source_rc $?
cp /proc/bus/input/devices "$out/devices-end"
dmesg >"$out/dmesg" 2>/dev/null
say "done"
