#!/bin/bash
# Runs INSIDE the QEMU guest of scripts/kernel-guest-test.sh (as PID 1's child, on this
# machine's root shared read-only; /tmp and /run are the guest's own tmpfs, /run/results
# the writable share). Writes what it saw into /run/results; the checks run outside
# (scripts/lib/kernel_guest_check.py). Only loopback exists in the guest: no network device.
set -uo pipefail
. "$(dirname "$0")/guest-helpers.sh"   # out, guest.env, ready.sh, the pace, the kernel fact

ip link set lo up
say "udev"
/lib/systemd/systemd-udevd --daemon
udevadm trigger --action=add --subsystem-match=input --subsystem-match=misc >/dev/null 2>&1
udevadm settle -t 20

pids=()
stop_all() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; }
trap stop_all EXIT

# phase NAME CONFIG_MODE: libinput + host; sets host, port, li, log
start_phase() {
  local name=$1 mode=$2
  log="$out/$name.libinput"
  printf '[buttons]\nH = "wheel:up"\n[mapping]\nmode = "%s"\n' "$mode" >"$HOME/$name.toml"
  stdbuf -oL libinput debug-events --show-keycodes --udev seat0 >"$log" 2>&1 &
  li=$!; pids+=("$li")
  REMOTION_ECHO_INJECTED=1 "$REMOTION_BIN" host --inject uinput --insecure --bind 127.0.0.1 --port 0 \
    --no-discovery --no-web --no-dashboard --timeout "$HOST_TIMEOUT" --config "$HOME/$name.toml" \
    --data-dir "$HOME/data-$name" --ready-file "$HOME/$name.ready" >"$out/$name.host.out" 2>"$out/$name.host.err" &
  host=$!; pids+=("$host")
  # The host's readiness signal (docs/ARCHITECTURE.md, "Readiness"): its ready file.
  wait_ready "$HOME/$name.ready" "$host" 60 \
    || { fact "timeout" "$name: the host was not ready: $(tail -2 "$out/$name.host.err")"; exit 1; }
  port=$(ready_value "$HOME/$name.ready" udpPort)
  say "$name: host on port $port"
  wait_for 30 "$name: libinput sees both devices" \
    eval 'at_least "$log" "DEVICE_ADDED.*Remotion virtual pointer" 1 && at_least "$log" "DEVICE_ADDED.*Remotion virtual mouse" 1' \
    || exit 1
}

# stop_phase NAME: SIGINT to the host; both devices must go away.
stop_phase() {
  local name=$1
  cp /proc/bus/input/devices "$out/$name.devices-running"
  kill -INT "$host"; wait "$host"; fact "$name.host_rc" $?
  wait_for 20 "$name: libinput sees both devices removed" \
    eval 'at_least "$log" "DEVICE_REMOVED.*Remotion virtual pointer" 1 && at_least "$log" "DEVICE_REMOVED.*Remotion virtual mouse" 1'
  cp /proc/bus/input/devices "$out/$name.devices-after"
  kill "$li"; wait "$li" 2>/dev/null
}

client() { # extra flags...
  "$REMOTION_BIN" client --insecure --host "127.0.0.1:$port" --timeout 10 "$@"
}

# Pointer mode: absolute motion, a click (A), a key (C: Left) and a wheel step (H) once each; then a controller
# killed while it holds A, released by the host's timeout.
if start_phase pointer pointer; then
  say "pointer: streaming"
  client --source synthetic:figure-eight --rate 50 --duration 3 --press A@1.0+0.4 --press C@1.8+0.4 --press H@2.4+0.2 \
    >"$out/pointer.client.out" 2>&1
  fact pointer.client_rc $?
  say "pointer: a controller that holds A and is killed"
  # (The binary itself in the background, so that the kill reaches the controller, not a subshell.)
  "$REMOTION_BIN" client --insecure --host "127.0.0.1:$port" --timeout 10 --source synthetic:still --rate 50 \
    --duration 120 --press A@0.2+100 >"$out/kill.client.out" 2>&1 &
  killed=$!; pids+=("$killed")
  if wait_for 30 "kill: the second press" at_least "$log" "BTN_LEFT (272) pressed" 2; then
    t0=$(now); kill -9 "$killed"
    wait_for 20 "kill: the release" at_least "$log" "BTN_LEFT (272) released" 2
    t1=$(now)
    fact kill.release_seconds "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
  fi
  wait "$killed" 2>/dev/null
  stop_phase pointer
fi

# Seed mode: absolute motion too.
if start_phase seed seed; then
  say "seed: streaming"
  client --source synthetic:figure-eight --rate 50 --duration 2 >"$out/seed.client.out" 2>&1
  fact seed.client_rc $?
  stop_phase seed
fi

# FPS mode: relative motion, raw.
if start_phase fps fps; then
  say "fps: streaming"
  client --source synthetic:figure-eight --rate 50 --duration 3 >"$out/fps.client.out" 2>&1
  fact fps.client_rc $?
  stop_phase fps
fi
say "done"
