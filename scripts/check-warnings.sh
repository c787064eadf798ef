#!/usr/bin/env bash
# Zero compiler warnings in the project's own code (Sources/ and Tests/): reads a build
# log (scripts/test.sh keeps the one of its build) and fails on any warning whose file is
# ours. Warnings in dependencies and SwiftPM's notes about pkg-config flags are not ours.
# An incremental build prints warnings only for the files it recompiles; CI builds a fresh
# clone, so there every file is compiled and every warning is seen.
set -euo pipefail
log=${1:?usage: check-warnings.sh BUILD_LOG}
root=$(cd "$(dirname "$0")/.." && pwd)
ours=$(grep -E "^(${root}/)?(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:" "$log" | sort -u || true)
if [[ -n "$ours" ]]; then
    echo "check-warnings: the build warned in the project's own files (fix each; zero is the rule):"
    echo "$ours"
    echo "check-warnings: 0 passed, 1 failed"
    exit 1
fi
echo "check-warnings: no compiler warning in Sources/ or Tests/"
