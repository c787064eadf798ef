#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what it needs, builds, runs
# every test (unit, loopback UDP, Xvfb, avahi in namespaces, browser, fuzzers).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build --build-tests
swift test --skip-build 2>&1 | tee /tmp/remotion-swift-test.log
