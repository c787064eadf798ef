#!/usr/bin/env bash
# Orientation accuracy against VQF on the same samples (docs/BENCHMARKS.md, "Orientation
# through a shove"; the filter: docs/MOTION.md). e2e/bench/fusion_bench.py generates seeded
# hand-held traces (76 s, 0.5 °/s bias, a phone's noise, 18 shoves; 100 and 250 Hz), runs the
# host's raw-sensor path (`MotionBench fuse`: calibration, rest gate, fusion) and VQF (PyPI
# `vqf`, which scripts/setup.sh --test installs) on them, and prints tilt RMS / p95 / max and
# heading drift. Two sets: with table rests (the calibrator sees the bias) and held from the
# first sample to the last (it never does). Nothing leaves the machine.
#   usage: scripts/bench-fusion.sh [seeds]     (default 1,2,3,4,5)
#          FUSE="tau=3 rejection=5" scripts/bench-fusion.sh   (compare filter parameters)
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-1,2,3,4,5}
python3 -c 'import vqf, numpy' 2>/dev/null || { echo "bench-fusion: run bash scripts/setup.sh --test first (needs PyPI vqf and numpy)" >&2; exit 1; }
swift build -c release --product MotionBench >/dev/null
bench="$(swift build -c release --show-bin-path)/MotionBench"
echo "machine: $(nproc) cores, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), vqf $(python3 -m pip show vqf 2>/dev/null | awk '/^Version/{print $2}')"
# shellcheck disable=SC2086
python3 e2e/bench/fusion_bench.py "$bench" --seeds "$seeds" ${FUSE:+--fuse $FUSE} | sed -n '/^| rate/,$p'
echo
# shellcheck disable=SC2086
python3 e2e/bench/fusion_bench.py "$bench" --seeds "$seeds" --held ${FUSE:+--fuse $FUSE} | sed -n '/^| rate/,$p'
