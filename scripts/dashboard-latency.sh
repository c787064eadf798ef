#!/usr/bin/env bash
# Injection latency (one-way, from sample timestamps) of the demo pipeline with and
# without dashboard WebSocket clients. Loopback only. Usage: scripts/dashboard-latency.sh [runs]
set -eu
cd "$(dirname "$0")/.."
runs=${1:-3}
. scripts/lib/stage.sh
bin=$(remotion_bin)
stage_workdir remotion-dashboard-latency
measure() {  # $1 label, $2 readers, $3 stuck readers
    for run in $(seq 1 "$runs"); do
        rm -f "$work/port"
        "$bin" demo --json --rate 250 --duration 10 --wait 1.5 --dashboard 0 --port-file "$work/port" > "$work/out" 2>&1 &
        demo=$!; pids+=("$demo")
        for _ in $(seq 1 100); do [ -s "$work/port" ] && break; sleep 0.05; done
        port=$(head -1 "$work/port"); readers=()   # the port, then the tokened address
        for _ in $(seq 1 "$2"); do python3 e2e/browser/ws_reader.py --port "$port" --seconds 12 > /dev/null & readers+=("$!"); done
        for _ in $(seq 1 "$3"); do python3 e2e/browser/ws_reader.py --port "$port" --seconds 12 --stuck > /dev/null & readers+=("$!"); done
        wait_pid "$demo" || true
        for p in "${readers[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
        echo "$1 run $run: $(tail -1 "$work/out")"
    done
}
measure "no dashboard client     " 0 0
measure "3 reading clients       " 3 0
measure "1 reading + 1 stuck     " 1 1
