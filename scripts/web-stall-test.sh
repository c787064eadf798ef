#!/usr/bin/env bash
# Newest wins after a real stall (e2e/web/stall_test.py): `remotion host --inject log` and
# a WebSocket client framed like the page, inside a new network namespace that has only lo;
# nftables drops the WebSocket's port for 1 s while the client keeps sending. Then a phone
# that stops reading (e2e/web/blocked_reader_test.py): its button is released by the timeout,
# and by a revocation sooner. Then the WebSocket's motion lane (e2e/web/lane_test.py).
# Prints 'N passed, N failed'; exits non-zero on any failure. Needs root (unshare -n, nft).
#   REMOTION_SKIP_BUILD=1 scripts/web-stall-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

. scripts/lib/private-netns.sh
enter_private_netns web-stall-test "nft python3" "$@"

stage_workdir remotion-web-stall
timeout 90 python3 e2e/web/stall_test.py --bin "$REMOTION_BIN" --work "$work"
rc=$?
[ $rc -eq 124 ] && echo "web-stall-test: timed out" && echo "0 passed, 1 failed"
[ $rc -ne 0 ] && { echo "--- host stderr"; tail -20 "$work/host.err"; }
# A phone that stops reading (a tiny receive buffer, pings flooded, then silence; then
# the same and a revocation): nothing stays pressed (e2e/web/blocked_reader_test.py).
mkdir -p "$work/blocked"
timeout 90 python3 e2e/web/blocked_reader_test.py --bin "$REMOTION_BIN" --work "$work/blocked"
rc2=$?
[ $rc2 -eq 124 ] && echo "web-stall-test: the blocked-reader test timed out" && echo "0 passed, 1 failed"
[ $rc2 -ne 0 ] && { echo "--- host stderr (blocked reader)"; tail -20 "$work/blocked/host.err"; }
# The WebSocket's motion lane: who may attach, what it carries, what its end does
# (e2e/web/lane_test.py).
mkdir -p "$work/lane"
timeout 90 python3 e2e/web/lane_test.py --bin "$REMOTION_BIN" --work "$work/lane"
rc3=$?
[ $rc3 -eq 124 ] && echo "web-stall-test: the lane test timed out" && echo "0 passed, 1 failed"
[ $rc3 -ne 0 ] && { echo "--- host stderr (lane)"; tail -20 "$work/lane/host.err"; }
[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ $rc3 -eq 0 ]
