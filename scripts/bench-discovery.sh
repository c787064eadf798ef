#!/usr/bin/env bash
# Discovery timings (docs/BENCHMARKS.md), across a veth pair between two namespaces with
# their own avahi-daemons: (1) host start → controller connected, when the controller
# starts browsing at the same moment as the host; (2) browse start → resolved, for a
# host that is already running. N runs each.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/stage.sh
bin=$(remotion_bin)
runs=${RUNS:-5}
stage_workdir remotion-bench-disc
lab=$work
stop_signal=INT
on_exit 'bash scripts/netns-lab.sh down "$lab" >/dev/null 2>&1'
bash scripts/netns-lab.sh up "$lab" >/dev/null
. "$lab/env"
spawn_a() { ip netns exec "$REMOTION_NETNS_A" env DBUS_SYSTEM_BUS_ADDRESS="$REMOTION_NETNS_A_BUS" "$@" & }
spawn_b() { ip netns exec "$REMOTION_NETNS_B" env DBUS_SYSTEM_BUS_ADDRESS="$REMOTION_NETNS_B_BUS" "$@" & }
now() { date +%s.%N; }
spawn_a "$bin" pair --listen --yes --port 7474 --advertise 10.77.0.1:7474 --window 30 --data-dir "$lab/a-keys" >"$lab/pair.out" 2>/dev/null
listener=$!; pids+=("$listener")
for _ in $(seq 100); do grep -q '^remotion-pair:' "$lab/pair.out" && break; sleep 0.05; done
ip netns exec "$REMOTION_NETNS_B" env DBUS_SYSTEM_BUS_ADDRESS="$REMOTION_NETNS_B_BUS" \
  "$bin" pair "$(grep -m1 '^remotion-pair:' "$lab/pair.out")" --data-dir "$lab/b-keys" >/dev/null 2>&1
wait_pid "$listener" || true

: >"$lab/cold"; : >"$lab/warm"
for i in $(seq "$runs"); do
  t0=$(now)
  spawn_a "$bin" host --inject virtual --no-dashboard --name "Bench $i" --data-dir "$lab/a-keys" >/dev/null 2>"$lab/host.err"; host=$!; pids+=("$host")
  spawn_b "$bin" client --data-dir "$lab/b-keys" --host-name "Bench $i" --duration 0.3 --browse-timeout 10 >/dev/null 2>"$lab/client.err"; client=$!
  until grep -q "connected to" "$lab/client.err" 2>/dev/null; do sleep 0.005; kill -0 "$client" 2>/dev/null || break; done
  t1=$(now); wait "$client" || true
  python3 -c "print(round(($t1 - $t0) * 1000))" >>"$lab/cold"
  spawn_b "$bin" client --data-dir "$lab/b-keys" --host-name "Bench $i" --duration 0.2 >/dev/null 2>"$lab/client2.err"; c2=$!
  wait "$c2" || true
  sed -n 's/.*found .* after \([0-9]*\) ms.*/\1/p' "$lab/client2.err" >>"$lab/warm"
  stop_pid "$host" INT || true
done
python3 - "$lab/cold" "$lab/warm" <<'PY'
import sys, statistics as st
cold = [int(x) for x in open(sys.argv[1]) if x.strip()]; warm = [int(x) for x in open(sys.argv[2]) if x.strip()]
print(f"host start -> controller connected (cold, across veth): median {st.median(cold)} ms, min {min(cold)}, max {max(cold)} (n={len(cold)})")
print(f"browse start -> resolved, host already running: median {st.median(warm)} ms, min {min(warm)}, max {max(warm)} (n={len(warm)})")
PY
