#!/usr/bin/env bash
# The web controller's HTTPS port withstands a neighbour (e2e/web/flood_test.py): the host
# under `prlimit --nofile=1024:1024`, one process holding 1,300 idle TCP connections and
# stalled ClientHellos from 127.0.0.1, a fresh page request from 127.0.0.2, a UDP controller
# meanwhile; all inside a new network namespace that has only lo. About 25 s.
# Prints 'N passed, N failed'; exits non-zero on any failure. Needs root (unshare -n).
#   REMOTION_SKIP_BUILD=1 scripts/web-flood-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

if [ -z "${REMOTION_IN_NETNS:-}" ]; then
    for tool in unshare ip prlimit python3; do
        command -v "$tool" >/dev/null || { echo "web-flood-test: $tool is missing (bash scripts/setup.sh installs it)"; echo "0 passed, 1 failed"; exit 1; }
    done
    if [ -z "${REMOTION_SKIP_BUILD:-}" ]; then
        swift build --product remotion >/dev/null || { echo "web-flood-test: build failed"; echo "0 passed, 1 failed"; exit 1; }
    fi
    export REMOTION_BIN="$(swift build --show-bin-path)/remotion"
    exec unshare -n env REMOTION_IN_NETNS=1 "$0" "$@"
fi

ip link set lo up
if ip -o link show | grep -qv ': lo:'; then echo "web-flood-test: namespace has more than lo"; echo "0 passed, 1 failed"; exit 1; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
timeout 120 python3 e2e/web/flood_test.py --bin "$REMOTION_BIN" --work "$work" "$@"
rc=$?
[ $rc -eq 124 ] && echo "web-flood-test: timed out" && echo "0 passed, 1 failed"
[ $rc -ne 0 ] && { echo "--- host stderr"; tail -20 "$work/flood.err"; }
exit $rc
