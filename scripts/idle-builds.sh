#!/usr/bin/env bash
# The builds the last CI stages need, made while the earlier stages run, on CPU time they
# leave unused (scripts/test.sh starts this in the background after its `swift test` stage):
#   1. the .deb as the README's install step makes it: `bash scripts/package.sh` in a fresh
#      clone of HEAD (DIR/fresh-clone: no .build, nothing resolved; its release build,
#      generate-manual, lintian), so a step that needs something only an earlier stage leaves
#      behind fails here (it once did: package.sh's log went into a .build it never made);
#      the package stage installs that .deb and drives it with that clone's binary;
#   2. the fuzzers' sanitizer build (scripts/fuzz.sh with FUZZ_BUILD_ONLY=1: one executable for
#      every target, .build-fuzz/build);
#   and beside the first, the libei stage's Debian 13 root with mutter (scripts/libei-mutter-test.sh
#   --root), then the .deb stage's minimal Debian 12 and 13 roots and Debian 13's
#   Recommends downloaded (scripts/package-test.sh --roots: mmdebstrap and apt, mostly waiting on
#   the mirror), cached for the day, so that a fresh machine's .deb stage does not fetch them.
# Everything here runs under SCHED_IDLE (chrt --idle): the scheduler gives it a core only when
# no stage's process wants it, and a stage's process that wakes preempts it at once, so the
# builds take the gaps (a browser waiting for a page, QEMU's one emulated CPU, sleeps in fault
# tests). It also asks for the idle I/O class, which only BFQ honours; this VM's disk has no
# I/O scheduler, and a small file's fsync stayed under 0.3 s while such a build ran.
#
#   bash scripts/idle-builds.sh DIR   logs and exit statuses go to DIR:
#                                     release.log release.rc fuzz.log fuzz.rc roots.log roots.rc
#                                     libei-root.rc;
#                                     the clone: DIR/fresh-clone (dist/*.deb, .build/release)
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: idle-builds.sh DIR}
# It makes the builds: the stages' REMOTION_SKIP_BUILD (scripts/test.sh exports it) must not
# reach package.sh, which would then look for a release binary nobody built.
unset REMOTION_SKIP_BUILD
mkdir -p "$dir"
rm -f "$dir"/*.rc
# This shell takes the idle policy and class itself (chrt and ionice are util-linux's, in every
# Debian); every compiler process SwiftPM starts inherits them.
chrt --idle -p 0 $$ && ionice -c 3 -p $$ || echo "idle-builds: could not take the idle policy; building at normal priority" >&2

{ began=$SECONDS; bash scripts/libei-mutter-test.sh --root; echo $? >"$dir/libei-root.rc"
  echo "idle-builds: the mutter root took $((SECONDS - began)) s (wall, at idle priority)"
  began=$SECONDS; bash scripts/package-test.sh --roots; echo $? >"$dir/roots.rc"
  echo "idle-builds: the minimal roots took $((SECONDS - began)) s (wall, at idle priority)"; } >"$dir/roots.log" 2>&1 &
roots=$!

began=$SECONDS
fresh="$dir/fresh-clone"
rm -rf "$fresh"
# Each build's CPU time too (bash's `time`: its processes' user and system seconds), the figure
# that says what a build costs the run whatever the stages beside it left over.
TIMEFORMAT='%U s user + %S s system'
{
  [[ -z $(git status --porcelain --untracked-files=no) ]] ||
    echo "idle-builds: this checkout has uncommitted changes; the .deb is built from HEAD, without them"
  time { git clone -q . "$fresh" && bash "$fresh/scripts/package.sh"; }
} >"$dir/release.log" 2>&1
echo $? >"$dir/release.rc"
echo "idle-builds: scripts/package.sh in a fresh clone took $((SECONDS - began)) s (wall, at idle priority; CPU $(tail -1 "$dir/release.log"))" >>"$dir/release.log"

began=$SECONDS
{ time FUZZ_BUILD_ONLY=1 bash scripts/fuzz.sh; } >"$dir/fuzz.log" 2>&1
echo $? >"$dir/fuzz.rc"
echo "idle-builds: fuzzer builds took $((SECONDS - began)) s (wall, at idle priority; CPU $(tail -1 "$dir/fuzz.log"))" >>"$dir/fuzz.log"
wait "$roots"
