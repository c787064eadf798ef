#!/usr/bin/env bash
# DSU source benchmark (docs/BENCHMARKS.md): one DSU server with 4 slots at 1,000 Hz
# each (e2e/bench/dsu_sender.c, C, so the sender keeps its rate) into
# `remotion host --dsu` in FPS mode, injecting through XTest into a private Xvfb and,
# to separate the injection, into the in-memory virtual screen. Reports the host's CPU
# per accepted pad packet (utime+stime from /proc/<pid>/stat over the run, minus the
# host's idle CPU measured just before) and the one-way latency the host measured (the
# sender stamps CLOCK_MONOTONIC, the clock of the host's event loop). 127.0.0.1 only.
#   usage: scripts/bench-dsu.sh [debug|release]   (default release)
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-release}
. scripts/lib/stage.sh
bin=$(build_remotion "$config")
slots=${SLOTS:-4}; rate=${RATE:-1000}; seconds=${SECONDS_PER_RUN:-10}; idle=${IDLE_SECONDS:-3}
stage_workdir remotion-bench-dsu

cc -O2 -o "$work/dsu_sender" e2e/bench/dsu_sender.c -lz
start_xvfb "$work" || exit 1
printf '[mapping]\nmode = "fps"\n' >"$work/fps.toml"
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), build $config"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) before the runs"
for inject in xtest virtual; do
  q=$(free_udp_port)
  "$bin" host --bind 127.0.0.1 --port 0 --insecure --no-discovery --no-dashboard --no-web --data-dir "$work/data" --inject "$inject" \
    --config "$work/fps.toml" --dsu "127.0.0.1:$q" --ready-file "$work/ready-$inject.json" >/dev/null 2>"$work/host.err" & host=$!; pids+=($host)
  wait_ready "$work/ready-$inject.json" "$host" 60 || { cat "$work/host.err"; exit 1; }
  sleep 0.5
  i0=$(cpu_ticks "$host"); sleep "$idle"; i1=$(cpu_ticks "$host")
  before=$(cpu_ticks "$host"); t0=$(date +%s.%N)
  "$work/dsu_sender" "$q" "$slots" "$rate" "$seconds" >"$work/sender.out"
  t1=$(date +%s.%N); after=$(cpu_ticks "$host")
  stop_pid "$host" INT || true
  line=$(grep 'stopped after' "$work/host.err")
  packets=$(sed -n 's/.*DSU source [^:]*:[0-9]*: \([0-9]*\) pad packets.*/\1/p' <<<"$line")
  samples=$(sed -n 's/.* \([0-9]*\) samples to the host (\([0-9]*\) merged).*/\1 \2/p' <<<"$line")
  latency=$(sed -n 's/.*one-way latency \(p50 [0-9.]* ms, p99 [0-9.]* ms\).*/\1/p' <<<"$line")
  dropped=$(sed -n 's/.*pad packets.*dropped \(.*\)$/\1/p' <<<"$line")
  read -r cpu_us pct <<<"$(python3 -c "
idle = ($i1 - $i0) / $hz / $idle
busy = ($after - $before) / $hz - idle * ($t1 - $t0)
print(round(busy / max(1, $packets) * 1e6, 2), round(100 * ($after - $before) / $hz / ($t1 - $t0), 1))")"
  echo "--inject $inject: $(cat "$work/sender.out")"
  echo "  host accepted $packets pad packets, $samples (samples to the mapper, merged); dropped $dropped"
  echo "  host CPU ${cpu_us} us per packet (idle subtracted; ${pct}% of one core over the run); one-way latency $latency"
done
