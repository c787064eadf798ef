#!/usr/bin/env bash
# The XTest keymap borrowed for typing is given back (e2e/web/keymap_recovery_test.py):
# `remotion host --inject xtest` on a private Xvfb, a WebSocket client that types,
# SIGKILL and SIGHUP, the X server's keymap (XGetKeyboardMapping) as the witness. Inside a new
# network namespace that has only lo. Prints 'N passed, N failed'; exits non-zero on any
# failure. Needs root (unshare -n). About 15 s.
#   REMOTION_SKIP_BUILD=1 scripts/xtest-keymap-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

. scripts/lib/private-netns.sh
enter_private_netns xtest-keymap-test "Xvfb python3" "$@"

stage_workdir remotion-xtest-keymap
start_xvfb "$work" || { echo "0 passed, 1 failed"; exit 1; }
timeout 120 python3 e2e/web/keymap_recovery_test.py --bin "$REMOTION_BIN" --work "$work"
rc=$?
[ $rc -eq 124 ] && echo "xtest-keymap-test: timed out" && echo "0 passed, 1 failed"
[ $rc -ne 0 ] && for f in "$work"/host*.err; do echo "--- $f"; tail -10 "$f"; done
exit $rc
