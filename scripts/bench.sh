#!/usr/bin/env bash
# Performance against the floor (docs/BENCHMARKS.md). For each load — N
# controllers x R Hz, and flat out — the same paced sender (remotion-load: real
# sessions, sendmmsg) feeds, one after the other in one run:
#   floor   a C receiver doing nothing (epoll + recvmmsg, e2e/bench/floor-recv.c)
#   nio     SwiftNIO's datagram channel read as the host's is, counting only (remotion-nio-floor)
#   plain   remotion host --insecure --inject virtual
#   noise   remotion host --inject virtual (Noise IK sessions, paired through the real flow)
# and reports each receiver's CPU per packet (all threads, /proc/PID/task/*/schedstat,
# read by the sender when streaming starts and ends), the kernel's drops for its socket
# (/proc/net/udp), the host's protocol drops and one-way latency (its stop line), and
# the ratios host/floor and noise/plain. Everything is on loopback; every process stops
# by itself (bounded durations) and is stopped by its pid.
#   usage: scripts/bench.sh [debug|release]     (default release)
#   env:   SECONDS_PER_RUN (4)  LOADS ("16x250 64x250 8x2000 4x0"; RxR, rate 0 = flat out)
#          MODES ("floor nio plain noise"; "base" is plain served by $BASE_BIN, another build,
#          for a before and after in one run)  HOST_FLAGS (extra flags for the host)
#          CORE_PACKETS (200000; 0 skips the in-process core benchmark)
#          COUNT_ALLOCS=1: each host runs with e2e/bench/malloc-count.c preloaded; the table
#          adds its allocations (start to stop) and their number per datagram delivered
#          ROUNDS (1): every load and receiver again, in the same order, this many times; the
#          table gives medians and ranges, each ratio against its own round's floor
#          SMOKE=1: fail unless every run opened its sessions and delivered (CI; no timing)
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-release}
seconds=${SECONDS_PER_RUN:-4}
loads=${LOADS:-"16x250 64x250 8x2000 4x0"}
modes=${MODES:-"floor nio plain noise"}
rounds=${ROUNDS:-1}
if [[ -z ${REMOTION_SKIP_BUILD:-} ]]; then   # scripts/test.sh has built everything already
  for product in remotion remotion-load remotion-core-bench remotion-nio-floor; do
    swift build -c "$config" --product "$product" >/dev/null 2>&1 || { echo "build of $product failed" >&2; exit 1; }
  done
fi
. scripts/lib/stage.sh
bindir=$(swift_bin_dir "$config")
bin="$bindir/remotion"; load="$bindir/remotion-load"; nio_floor="$bindir/remotion-nio-floor"
stage_workdir remotion-bench
cc -O2 -o "$work/floor-recv" e2e/bench/floor-recv.c
cc -O2 -shared -fPIC -o "$work/malloc-count.so" e2e/bench/malloc-count.c
# The floor gets the receive buffer the host asks for (the kernel doubles and caps it
# at net.core.rmem_max, for both alike).
rcvbuf=${FLOOR_RCVBUF:-4194304}

if [[ " $modes " == *" noise "* ]]; then
  "$bin" pair --listen --yes --bind 127.0.0.1 --port 0 --window 20 --data-dir "$work/h" >"$work/pair.out" 2>/dev/null & pids+=($!)
  for _ in $(seq 100); do code=$(grep -m1 '^remotion-pair:' "$work/pair.out" 2>/dev/null || true); [[ -n "$code" ]] && break; sleep 0.05; done
  "$bin" pair "$code" --name bench --data-dir "$work/c" >/dev/null 2>&1
fi

# run_receiver: one receiver (floor, plain, noise) under one load (scripts/lib/load-run.sh).
floor="$work/floor-recv"
. scripts/lib/load-run.sh

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -r), build $config, $(date -u +%F)"
echo "runs: ${seconds}s each; loads $loads; modes $modes; rounds $rounds"
if [[ ${CORE_PACKETS:-200000} != 0 ]]; then
  # The pure core in process (decode → session → mapper → null injector), allocations counted.
  LD_PRELOAD="$work/malloc-count.so" "$bindir/remotion-core-bench" "${CORE_PACKETS:-200000}" 5
fi
: >"$work/results"
for _ in $(seq "$rounds"); do
  for l in $loads; do
    for m in $modes; do run_receiver "$m" "${l%x*}" "${l#*x}" | tee -a "$work/results" >&2; done
  done
done
python3 e2e/bench/bench_table.py "$work/results" ${SMOKE:+--check}
