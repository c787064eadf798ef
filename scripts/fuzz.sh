#!/usr/bin/env bash
# Builds the libFuzzer targets with AddressSanitizer into .build-fuzz and runs each
# for a bounded time (docs/FUZZING.md). Works from a fresh clone. The targets are one
# executable (FuzzTargets), so one sanitizer build serves them all; REMOTION_FUZZ_TARGET
# tells it which target a run fuzzes.
#
#   FUZZ_SECONDS   seconds per target (default 60)
#   FUZZ_TARGETS   targets to run (default "FuzzDatagram FuzzHandshake FuzzHost"; also FuzzWebRTC, FuzzGamepad)
#   FUZZ_SCRATCH   where the build (FUZZ_SCRATCH/build) and the corpora go (default .build-fuzz)
#   FUZZ_BUILD_ONLY=1  build the targets and stop (scripts/idle-builds.sh, for CI)
#   FUZZ_SKIP_BUILD=1  run the targets as they were built (CI's stage, after idle-builds.sh:
#                      SwiftPM still started the sanitizer build over there, 2 × 62 s, for
#                      a reason not found; the checkout does not change during a CI run)
#
# New corpus entries go to $FUZZ_SCRATCH/corpus/<name> (kept between runs, not
# checked in); Fuzz/corpus/<name> is read as the seed corpus. A crash, leak,
# timeout or out-of-memory input lands in artifacts/fuzz/ and the script exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_TARGETS=${FUZZ_TARGETS:-"FuzzDatagram FuzzHandshake FuzzHost"}
SCRATCH=${FUZZ_SCRATCH:-.build-fuzz}
ARTIFACTS=artifacts/fuzz
# SwiftPM's --sanitize=fuzzer links libFuzzer but compiles Swift modules with
# ASan only, so libFuzzer gets no coverage feedback (it reports "ft: 20" and no
# "cov:" at all). -Xswiftc adds the SanitizerCoverage instrumentation; it must
# repeat "address": the last -sanitize= given to swiftc wins.
# One product for every target: alternating --product builds in one scratch path invalidated
# each other (BoringSSL was recompiled every run, 155 s), and a scratch path per target
# compiled swift-crypto and the package once per target (3 × ~200 s in CI).
SANITIZE=(--sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address)
# Less work than a debug build's defaults, nothing the fuzzers need lost: no index store (only
# test discovery reads it) and line tables only (all a sanitizer's stack trace shows).
LEAN=(--disable-index-store -Xswiftc -gline-tables-only)
# SwiftPM starts a build over when its environment differs from the last one's (one new
# variable was enough: all 543 compile steps again, 80 s) and after a `--show-bin-path`. So
# the builds run with a fixed environment and the binary's path is not asked for: CI builds
# the targets beforehand (scripts/idle-builds.sh) in another environment than its stage's.
swiftpm() { env -i PATH="$PATH" HOME="$HOME" swift "$@"; }
mkdir -p "$ARTIFACTS"

corpus_name() {
    case "$1" in
        FuzzDatagram) echo datagram ;;
        FuzzHandshake) echo handshake ;;
        FuzzWebRTC) echo webrtc ;;
        FuzzGamepad) echo gamepad ;;
        FuzzHost) echo host ;;
        *) echo "fuzz.sh: unknown target $1" >&2; exit 2 ;;
    esac
}

for target in $FUZZ_TARGETS; do corpus_name "$target" >/dev/null; done   # an unknown name stops here

start=$(date +%s)
if [[ ${FUZZ_SKIP_BUILD:-0} != 1 ]]; then
    for name in datagram handshake webrtc gamepad host; do
        rm -rf "${SCRATCH:?}/$name"   # a scratch path per target, as they were once built
    done
    swiftpm build --scratch-path "$SCRATCH/build" "${SANITIZE[@]}" "${LEAN[@]}" --product FuzzTargets
fi
echo "fuzz.sh: sanitizer build took $(( $(date +%s) - start )) s"
[[ ${FUZZ_BUILD_ONLY:-0} == 1 ]] && exit 0

bin="$SCRATCH/build/debug/FuzzTargets"   # SwiftPM's link to <triple>/debug
[[ -x $bin ]] || { echo "fuzz.sh: no $bin: build it (run without FUZZ_SKIP_BUILD)" >&2; exit 1; }
# The whole host (FuzzHost) has the most to explore: three times as long (docs/FUZZING.md).
seconds_for() { if [[ $1 == FuzzHost ]]; then echo "${FUZZ_HOST_SECONDS:-$((FUZZ_SECONDS * 3))}"; else echo "$FUZZ_SECONDS"; fi; }
# fuzz_one TARGET: one libFuzzer run; its output goes to artifacts/fuzz/TARGET.log.
# -print_funcs=0: no NEW_FUNC lines, whose names came from an llvm-symbolizer that outlived
# the run (the suite's runner found and stopped one after every fuzz stage).
fuzz_one() {
    local target=$1 name
    name=$(corpus_name "$target")
    mkdir -p "$SCRATCH/corpus/$name"
    REMOTION_FUZZ_TARGET=$target "$bin" "$SCRATCH/corpus/$name" "Fuzz/corpus/$name" \
        -max_total_time="$(seconds_for "$target")" -max_len=1200 -timeout=10 -rss_limit_mb=2048 \
        -use_value_profile=1 -print_final_stats=1 -print_funcs=0 \
        -artifact_prefix="$ARTIFACTS/$target-" >"$ARTIFACTS/$target.log" 2>&1
}

# A libFuzzer run uses one core: with two cores the targets run in two lanes at once, the
# longest first, each into the lane with less time so far (CI: FuzzHost's 60 s beside FuzzDatagram
# then FuzzHandshake, 20 s each). Each target still has a core for all its seconds, so it makes
# as many runs as it would alone; the logs are shown whole, in FUZZ_TARGETS's order, at the end.
lanes=1; (( $(nproc) >= 2 )) && lanes=2
lane_seconds=(0 0); lane_targets=("" "")
for target in $(for t in $FUZZ_TARGETS; do echo "$(seconds_for "$t") $t"; done | sort -rn | cut -d' ' -f2); do
    i=0; (( lanes == 2 && lane_seconds[1] < lane_seconds[0] )) && i=1
    lane_targets[i]+=" $target"; lane_seconds[i]=$((lane_seconds[i] + $(seconds_for "$target")))
done
for target in $FUZZ_TARGETS; do rm -f "$ARTIFACTS/$target.rc"; done
for ((i = 0; i < lanes; i++)); do
    (
        for target in ${lane_targets[i]}; do
            echo "fuzz.sh: running $target for $(seconds_for "$target") s (log: $ARTIFACTS/$target.log)"
            rc=0; fuzz_one "$target" || rc=$?
            echo "$rc" >"$ARTIFACTS/$target.rc"
        done
    ) &
done
wait

status=0
for target in $FUZZ_TARGETS; do
    echo "=== fuzz.sh: $target"
    cat "$ARTIFACTS/$target.log"
    rc=$(cat "$ARTIFACTS/$target.rc" 2>/dev/null || echo "none")
    if [[ $rc != 0 ]]; then
        echo "fuzz.sh: $target FAILED (exit $rc); inputs:" >&2
        ls -1 "$ARTIFACTS/$target-"* 2>/dev/null >&2 || true
        status=1
    fi
done
exit "$status"
