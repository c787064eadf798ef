#!/usr/bin/env bash
# The timed figures of the quicker stages over repeated runs: runs each STAGE (a
# scripts/STAGE.sh) RUNS times, one after the other, each under a 400 s limit, and prints per
# figure n, min, median, max and the bound the stage keeps (e2e/bench/stage_timings.py;
# docs/BENCHMARKS.md, "Figures that left the tests"). cli-e2e and dsu-e2e run inside a network
# namespace of their own here (lo only); the others make their own. Root; REMOTION_BIN and
# REMOTION_SKIP_BUILD as for the stages.
#   scripts/bench-stage-timings.sh [runs, 5] [log directory] [stage ...]
set -u
cd "$(dirname "$0")/.."
runs=${1:-5}; logs=${2:-$(mktemp -d /tmp/bench-stage-timings.XXXXXX)}; shift 2 2>/dev/null
stages=("$@"); ((${#stages[@]})) || stages=(web-controller-test web-stall-test dsu-e2e cli-e2e web-flood-test web-modes-test webkit-test)
mkdir -p "$logs"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load before: $(cut -d' ' -f1-3 /proc/loadavg); logs: $logs"
for r in $(seq "$runs"); do
    for s in "${stages[@]}"; do
        case $s in
            dsu-e2e|cli-e2e) timeout -k 10 400 unshare -n bash -c "ip link set lo up; bash scripts/$s.sh" >"$logs/$s.$r.log" 2>&1 ;;
            *) timeout -k 10 400 bash "scripts/$s.sh" >"$logs/$s.$r.log" 2>&1 ;;
        esac
        echo "run $r $s: exit $?, $(tail -1 "$logs/$s.$r.log") (load $(cut -d' ' -f1 /proc/loadavg))"
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 e2e/bench/stage_timings.py "$logs"
