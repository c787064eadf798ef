#!/usr/bin/env bash
# Encryption cost (docs/BENCHMARKS.md): the same build serving the same load with
# Noise IK sessions and with --insecure plain datagrams, interleaved in one run.
# Host CPU per packet, packets per second and one-way latency p50/p99.
#   usage: scripts/bench-security.sh [debug|release]   (default release)
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-release}
. scripts/lib/stage.sh
bin=$(build_remotion "$config")
clients=${CLIENTS:-4}; rate=${RATE:-1000}; seconds=${SECONDS_PER_RUN:-4}; rounds=${ROUNDS:-2}
stage_workdir remotion-bench-security
hz=$(getconf CLK_TCK)

# Pair once, through the real flow.
"$bin" pair --listen --yes --bind 127.0.0.1 --port 0 --window 20 --data-dir "$work/h" >"$work/pair.out" 2>/dev/null & pids+=($!)
for _ in $(seq 100); do code=$(grep -m1 '^remotion-pair:' "$work/pair.out" || true); [[ -n "$code" ]] && break; sleep 0.05; done
"$bin" pair "$code" --name bench --data-dir "$work/c" >/dev/null 2>&1

hostkey=$(sed -n 's/^remotion-pair:v1:\([A-Z2-7]*\):.*/\1/p' "$work/pair.out")
run() { # mode: noise|plain|flood (noise while bogus initiations arrive at FLOOD_RATE/s)
  local flags=(); [[ $1 == plain ]] && flags=(--insecure)
  "$bin" host --bind 127.0.0.1 --port 0 --inject virtual --no-discovery --no-dashboard --data-dir "$work/h" "${flags[@]}" \
    --ready-file "$work/ready-$1.json" >/dev/null 2>"$work/host.err" & local host=$!
  wait_ready "$work/ready-$1.json" "$host" 60 || { cat "$work/host.err"; return 1; }
  local port; port=$(ready_value "$work/ready-$1.json" udpPort)
  local before; before=$(awk '{print $14 + $15}' "/proc/$host/stat")
  local t0; t0=$(date +%s.%N)
  local cpids=()
  if [[ $1 == flood ]]; then
    python3 e2e/bench/flood.py 127.0.0.1 "$port" "$hostkey" "${FLOOD_RATE:-2000}" "$seconds" 2>>"$work/flood.log" & cpids+=($!)
  fi
  for _ in $(seq "$clients"); do
    "$bin" client --host "127.0.0.1:$port" --data-dir "$work/c" "${flags[@]}" --source synthetic:figure-eight \
      --rate "$rate" --duration "$seconds" 2>/dev/null & cpids+=($!)
  done
  for p in "${cpids[@]}"; do wait "$p"; done
  local t1; t1=$(date +%s.%N)
  local after; after=$(awk '{print $14 + $15}' "/proc/$host/stat")
  kill -INT "$host"; wait "$host" || true
  local line; line=$(grep "stopped after" "$work/host.err")
  local events p50 p99
  events=$(sed -n 's/.*after injecting \([0-9]*\) events.*/\1/p' <<<"$line")
  p50=$(sed -n 's/.*p50 \([0-9.]*\) ms.*/\1/p' <<<"$line"); p99=$(sed -n 's/.*p99 \([0-9.]*\) ms.*/\1/p' <<<"$line")
  python3 -c "print('$1 %d %.0f %.2f %s %s' % ($events, $events / ($t1 - $t0), ($after - $before) / $hz / max(1, $events) * 1e6, '$p50', '$p99'))"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), build $config"
echo "load: $clients clients x $rate Hz x ${seconds}s per run, $rounds rounds, interleaved; flood ${FLOOD_RATE:-2000}/s"
: >"$work/results"
for r in $(seq "$rounds"); do run plain >>"$work/results"; run noise >>"$work/results"; run flood >>"$work/results"; done
cat "$work/flood.log"
python3 - "$work/results" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
def agg(mode):
    r = [x for x in rows if x[0] == mode]
    return (sum(int(x[1]) for x in r), st.median(float(x[2]) for x in r), st.median(float(x[3]) for x in r),
            st.median(float(x[4]) for x in r), st.median(float(x[5]) for x in r))
for mode in ("plain", "noise", "flood"):
    n, pps, cpu, p50, p99 = agg(mode)
    label = {"plain": "plain", "noise": "noise", "flood": "noise + bogus-handshake flood"}[mode]
    print(f"{label}: {n} packets, {pps:.0f} packets/s, {cpu:.1f} us host CPU per packet, latency p50 {p50} ms, p99 {p99} ms")
_, _, cp, lp50, lp99 = agg("plain"); _, _, cn, ln50, ln99 = agg("noise")
print(f"noise/plain: host CPU per packet x{cn/cp:.2f} ({100*(cn/cp-1):+.0f}%), latency p50 x{ln50/lp50:.2f}, p99 x{ln99/lp99:.2f}")
_, _, cf, lf50, lf99 = agg("flood")
print(f"under the flood: paired clients' latency p99 {lf99} ms (x{lf99/ln99:.2f} of no flood); host CPU per delivered packet x{cf/cn:.2f}")
PY
