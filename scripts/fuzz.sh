#!/usr/bin/env bash
# Builds the libFuzzer targets with AddressSanitizer into .build-fuzz and runs each
# for a bounded time (docs/FUZZING.md). Works from a fresh clone.
#
#   FUZZ_SECONDS   seconds per target (default 60)
#   FUZZ_TARGETS   targets to run (default "FuzzDatagram FuzzHandshake FuzzHost"; also FuzzWebRTC, FuzzGamepad)
#   FUZZ_SCRATCH   where the SwiftPM scratch paths go (default .build-fuzz/<name>)
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
# Each target gets its own scratch path under $SCRATCH: alternating --product
# builds in one scratch path invalidate each other (BoringSSL was recompiled
# every run, 155 s), separate ones stay incremental.
SANITIZE=(--sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address)
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

start=$(date +%s)
for target in $FUZZ_TARGETS; do
    [[ ${FUZZ_SKIP_BUILD:-0} == 1 ]] && break
    swiftpm build --scratch-path "$SCRATCH/$(corpus_name "$target")" "${SANITIZE[@]}" --product "$target"
done
echo "fuzz.sh: sanitizer build took $(( $(date +%s) - start )) s"
[[ ${FUZZ_BUILD_ONLY:-0} == 1 ]] && exit 0

status=0
for target in $FUZZ_TARGETS; do
    name=$(corpus_name "$target")
    bin="$SCRATCH/$name/debug"   # SwiftPM's link to <triple>/debug
    [[ -x $bin/$target ]] || { echo "fuzz.sh: no $bin/$target: build it (run without FUZZ_SKIP_BUILD)" >&2; exit 1; }
    work="$SCRATCH/corpus/$name"
    mkdir -p "$work"
    seconds=$FUZZ_SECONDS
    # The whole host (FuzzHost) has the most to explore: three times as long (docs/FUZZING.md).
    [[ $target == FuzzHost ]] && seconds=${FUZZ_HOST_SECONDS:-$((FUZZ_SECONDS * 3))}
    echo "fuzz.sh: running $target for ${seconds} s"
    set +e
    "$bin/$target" "$work" "Fuzz/corpus/$name" \
        -max_total_time="$seconds" -max_len=1200 -timeout=10 -rss_limit_mb=2048 \
        -use_value_profile=1 -print_final_stats=1 \
        -artifact_prefix="$ARTIFACTS/$target-" 2>&1 | tee "$ARTIFACTS/$target.log"
    rc=${PIPESTATUS[0]}
    set -e
    if [ "$rc" -ne 0 ]; then
        echo "fuzz.sh: $target FAILED (exit $rc); inputs:" >&2
        ls -1 "$ARTIFACTS/$target-"* 2>/dev/null >&2 || true
        status=1
    fi
done
exit "$status"
