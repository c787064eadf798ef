#!/usr/bin/env bash
# The virtual pad's cost in the real host (docs/BENCHMARKS.md, docs/GAMEPAD.md).
# The load of scripts/bench.sh — N controllers x R Hz of real sessions through UDP on lo
# (remotion-load, plain datagrams, sendmmsg), 16 x 250 Hz by default — fed in turn, for
# ROUNDS rounds, to:
#   floor    the C receiver that does nothing (e2e/bench/floor-recv.c)
#   pointer  remotion host --insecure --inject virtual (the pointer path, as bench.sh's plain)
#   pad      the same plus --gamepad dualsense --gamepad-sink null: every session gets a
#            virtual DualSense that runs the production pad code (DualSensePad, the Bluetooth
#            report with its CRC-32, UHID_INPUT2) and writes each report to /dev/null — a
#            stand-in for /dev/uhid, which this machine's kernel does not have (the TCG guest
#            of scripts/gamepad-guest-test.sh proves the reports right; it is too slow to time)
# and prints each phase's CPU per sample (all the receiver's threads, /proc schedstat, read
# by the sender when streaming starts and ends), the CPU the pad adds per sample against
# the pointer path's, and from the host's stop line the reports written and the time from
# a sample's receipt by the host to its report written (p50/p99), beside the one-way
# latency. Runs inside a network namespace of its own with only lo (root: unshare -n); no
# fixed ports (port 0 and the host's --ready-file); every process stops by itself (bounded
# runs) and is stopped by its pid.
#   usage: scripts/bench-gamepad.sh [debug|release]     (default release)
#   env:   SECONDS_PER_RUN (4)  ROUNDS (3)  LOAD (16x250: NxR)  MODES ("floor pointer pad")
#          SMOKE=1: fail unless every run opened its sessions and every pad sample made a
#          report (no timing)
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-release}
. scripts/lib/private-netns.sh
if [[ -z ${REMOTION_IN_NETNS:-} && -z ${REMOTION_SKIP_BUILD:-} ]]; then
  swift build -c "$config" --product remotion-load >/dev/null || stage_fail bench-gamepad "build of remotion-load failed"
fi
NETNS_BUILD_CONFIG=$config enter_private_netns bench-gamepad "cc python3" "$@"

bin=$REMOTION_BIN
load="$(dirname "$bin")/remotion-load"
[[ -x $load ]] || stage_fail bench-gamepad "no $load (swift build -c $config --product remotion-load)"
seconds=${SECONDS_PER_RUN:-4}; rounds=${ROUNDS:-3}; spec=${LOAD:-16x250}; modes=${MODES:-"floor pointer pad"}
n=${spec%x*}; rate=${spec#*x}
stage_workdir remotion-bench-gamepad
floor="$work/floor-recv"
cc -O2 -o "$floor" e2e/bench/floor-recv.c
rcvbuf=${FLOOR_RCVBUF:-4194304}
. scripts/lib/load-run.sh     # run_receiver, shared with scripts/bench.sh

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -r), build $config, $(date -u '+%F %H:%M') UTC, load before $(cut -d' ' -f1-3 /proc/loadavg)"
echo "runs: ${seconds}s each, $n x $rate Hz, $rounds rounds of: $modes"
: >"$work/results"
for ((r = 1; r <= rounds; r++)); do
  for m in $modes; do
    case $m in
      floor) run_receiver floor "$n" "$rate" >"$work/line" ;;
      pointer) run_receiver plain "$n" "$rate" >"$work/line" ;;
      pad) HOST_FLAGS="--gamepad dualsense --gamepad-sink null" run_receiver plain "$n" "$rate" >"$work/line" ;;
      *) echo "unknown mode $m (floor, pointer, pad)" >&2; exit 1 ;;
    esac
    echo "$m $(cut -d' ' -f2- "$work/line")" | tee -a "$work/results" >&2
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 e2e/bench/gamepad_table.py "$work/results" ${SMOKE:+--check}
