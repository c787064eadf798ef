#!/usr/bin/env bash
# Injection benchmark (docs/BENCHMARKS.md): pointer events per second and cost per
# event injecting through `remotion host --inject xtest` into a private Xvfb, against
# xdotool driven the usual way (one process per event), in the same run.
#   usage: scripts/bench-injection.sh [debug|release]   (default release)
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-release}
. scripts/lib/stage.sh
bin=$(build_remotion "$config")
clients=${CLIENTS:-4}; rate=${RATE:-2000}; seconds=${SECONDS_PER_RUN:-3}; xdo_events=${XDO_EVENTS:-300}
stage_workdir remotion-bench-injection
start_xvfb "$work" || exit 1

# Plain datagrams where the build has a secure default (the comparison is about injection).
# (Not `--help | grep -q`: with pipefail, grep's early exit fails the pipe now and then.)
insecure=""; grep -q -- --insecure <("$bin" host --help 2>&1) && insecure=--insecure
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

# xdotool, one process per event.
start=$(date +%s.%N)
for i in $(seq "$xdo_events"); do xdotool mousemove $((i % 1900)) $((i % 1000)); done
end=$(date +%s.%N)
xdo_rate=$(python3 -c "print(round($xdo_events / ($end - $start)))")
xdo_cost=$(python3 -c "print(round(($end - $start) / $xdo_events * 1e6))")

# remotion: $clients controllers at $rate Hz each for $seconds s.
"$bin" host --bind 127.0.0.1 --port 0 --inject xtest $insecure --ready-file "$work/ready.json" >/dev/null 2>"$work/host.err" & host=$!; pids+=($host)
wait_ready "$work/ready.json" "$host" 60 || { cat "$work/host.err"; exit 1; }
port=$(ready_value "$work/ready.json" udpPort)
before=$(cpu_ticks "$host")
t0=$(date +%s.%N)
cpids=()
for c in $(seq "$clients"); do
  "$bin" client --host "127.0.0.1:$port" $insecure --source synthetic:figure-eight --rate "$rate" --duration "$seconds" 2>/dev/null & cpids+=($!)
done
for p in "${cpids[@]}"; do wait "$p"; done
t1=$(date +%s.%N)
after=$(cpu_ticks "$host")
kill -INT "$host"; wait "$host" || true
injected=$(sed -n 's/.*after injecting \([0-9]*\) events.*/\1/p' "$work/host.err")
dropped=$(sed -n 's/.* \([0-9]*\) \(datagrams \)\{0,1\}dropped by the protocol.*/\1/p' "$work/host.err")
rem_rate=$(python3 -c "print(round($injected / ($t1 - $t0)))")
rem_cost=$(python3 -c "print(round(($after - $before) / $hz / max(1, $injected) * 1e6, 1))")

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), build $config"
echo "xdotool (one process per event): $xdo_events events, $xdo_rate events/s, ${xdo_cost} us wall per event"
echo "remotion host --inject xtest: $injected events from $clients clients at $rate Hz for ${seconds}s, $rem_rate events/s, ${rem_cost} us host CPU per event, $dropped dropped"
python3 -c "print('ratio: remotion sustains %.0fx the event rate of xdotool at %.1f%% of its per-event cost' % ($rem_rate / $xdo_rate, 100 * $rem_cost / $xdo_cost))"
