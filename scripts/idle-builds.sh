#!/usr/bin/env bash
# The builds the last CI stages need, made while the earlier stages run, on CPU time they
# leave unused (scripts/test.sh starts this in the background after its debug build):
#   1. the .deb's release build (swift build -c release --static-swift-stdlib) into
#      .build-release, its own scratch path: SwiftPM locks a scratch path, and the stages
#      still call `swift build --show-bin-path` on .build;
#   2. swift-argument-parser's generate-manual, which scripts/package.sh runs for the man
#      pages (the same command it runs; then it finds it built);
#   3. the fuzzers' sanitizer builds (scripts/fuzz.sh with FUZZ_BUILD_ONLY=1, .build-fuzz).
# Everything here runs under SCHED_IDLE (chrt --idle): the scheduler gives it a core only when
# no stage's process wants it, and a stage's process that wakes preempts it at once. (It also
# asks for the idle I/O class, which only BFQ honours; this VM's disk has no I/O scheduler. A
# small file's fsync stayed under 0.3 s while such a build ran.) The stages' own timing is what they were; the builds take the gaps
# (a browser waiting for a page, QEMU's one emulated CPU, sleeps in fault tests).
#
#   bash scripts/idle-builds.sh DIR   logs and exit statuses go to DIR:
#                                     release.log release.rc fuzz.log fuzz.rc
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: idle-builds.sh DIR}
mkdir -p "$dir"
rm -f "$dir"/*.rc
# chrt and ionice are util-linux's (in every Debian); the policy is inherited by every
# compiler process SwiftPM starts.
exec_idle() { chrt --idle 0 ionice -c 3 "$@"; }

began=$SECONDS
exec_idle swift build -c release --static-swift-stdlib --product remotion --scratch-path .build-release \
  >"$dir/release.log" 2>&1
echo $? >"$dir/release.rc"
exec_idle swift build --package-path .build/checkouts/swift-argument-parser --scratch-path .build/generate-manual \
  --product generate-manual >>"$dir/release.log" 2>&1 || echo 1 >"$dir/release.rc"
echo "idle-builds: release build and generate-manual took $((SECONDS - began)) s (wall, at idle priority)" >>"$dir/release.log"

began=$SECONDS
FUZZ_BUILD_ONLY=1 exec_idle bash scripts/fuzz.sh >"$dir/fuzz.log" 2>&1
echo $? >"$dir/fuzz.rc"
echo "idle-builds: fuzzer builds took $((SECONDS - began)) s (wall, at idle priority)" >>"$dir/fuzz.log"
