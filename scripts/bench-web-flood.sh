#!/usr/bin/env bash
# Memory and descriptors of the host under a connection flood on the web controller's port
# (e2e/bench/web_flood_rss.py), in a new network namespace with only lo. ~1 minute.
# Prints a Markdown table for docs/BENCHMARKS.md. Needs root (unshare -n).
set -u
cd "$(dirname "$0")/.."
. scripts/lib/private-netns.sh
enter_private_netns bench-web-flood "prlimit python3" "$@"
stage_workdir remotion-bench-web-flood
timeout 300 python3 e2e/bench/web_flood_rss.py --bin "$REMOTION_BIN" --work "$work"
