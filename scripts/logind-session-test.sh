#!/usr/bin/env bash
# A fast user switch stops injection (e2e/web/logind_session_test.py):
# `remotion host --inject xtest` on a private Xvfb follows its session's Active property on a
# private system bus where python-dbusmock fakes logind (systemd-logind cannot run here: no
# systemd as PID 1); a WebSocket client holds a button while the test flips Active or removes
# the session, for a host with XDG_SESSION_ID and one without (the user's Display); neither
# leaves its `gdbus monitor` behind (one stopped, one killed). Inside a
# new network namespace that has only lo. Prints 'N passed, N failed'; exits non-zero on any
# failure. Needs root (unshare -n), dbus-daemon, gdbus, python3-dbusmock. About 40 s.
#   REMOTION_SKIP_BUILD=1 scripts/logind-session-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

. scripts/lib/private-netns.sh
enter_private_netns logind-session-test "Xvfb dbus-daemon gdbus python3 py:dbusmock" "$@"

stage_workdir remotion-logind
start_xvfb "$work" || { echo "0 passed, 1 failed"; exit 1; }
timeout 120 /usr/bin/python3 e2e/web/logind_session_test.py --bin "$REMOTION_BIN" --work "$work"
rc=$?
[ $rc -eq 124 ] && echo "logind-session-test: timed out" && echo "0 passed, 1 failed"
[ $rc -ne 0 ] && { echo "--- host stderr"; tail -15 "$work/host.err"; echo "--- dbusmock"; tail -5 "$work/dbusmock.err"; }
exit $rc
