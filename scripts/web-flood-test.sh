#!/usr/bin/env bash
# The web controller's HTTPS port withstands a neighbour (e2e/web/flood_test.py): the host
# under `prlimit --nofile=1024:1024`, one process holding 1,300 idle TCP connections and
# stalled ClientHellos from 127.0.0.1, a fresh page request from 127.0.0.2, a UDP controller
# meanwhile; all inside a new network namespace that has only lo. About 25 s.
# Prints 'N passed, N failed'; exits non-zero on any failure. Needs root (unshare -n).
#   REMOTION_SKIP_BUILD=1 scripts/web-flood-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

. scripts/lib/private-netns.sh
enter_private_netns web-flood-test "prlimit python3" "$@"

stage_workdir remotion-web-flood
timeout 120 python3 e2e/web/flood_test.py --bin "$REMOTION_BIN" --work "$work" "$@"
rc=$?
[ $rc -eq 124 ] && echo "web-flood-test: timed out" && echo "0 passed, 1 failed"
[ $rc -ne 0 ] && { echo "--- host stderr"; tail -20 "$work/flood.err"; }
exit $rc
