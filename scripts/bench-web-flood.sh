#!/usr/bin/env bash
# Memory and descriptors of the host under a connection flood on the web controller's port
# (e2e/bench/web_flood_rss.py), in a new network namespace with only lo. ~1 minute.
# Prints a Markdown table for docs/BENCHMARKS.md. Needs root (unshare -n).
set -u
cd "$(dirname "$0")/.."
if [ -z "${REMOTION_IN_NETNS:-}" ]; then
    [ -n "${REMOTION_SKIP_BUILD:-}" ] || swift build --product remotion >/dev/null || exit 1
    export REMOTION_BIN="$(swift build --show-bin-path)/remotion"
    exec unshare -n env REMOTION_IN_NETNS=1 "$0" "$@"
fi
ip link set lo up
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
timeout 300 python3 e2e/bench/web_flood_rss.py --bin "$REMOTION_BIN" --work "$work"
