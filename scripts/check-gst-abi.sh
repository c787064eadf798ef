#!/usr/bin/env bash
# The WebRTC shim declares the GStreamer/GLib/libnice ABI it loads at run time by hand
# (Sources/CLibraries/CWebRTCPeer/gst_api.h); this compiles Tests/GStreamerABI/gst_api_check.c
# against the real headers and fails if an enum value, offset or size differs.
# Needs the headers (bash scripts/setup.sh --test installs them; the demo's build does not).
set -euo pipefail
cd "$(dirname "$0")/.."
flags=$(pkg-config --cflags gstreamer-webrtc-nice-1.0 2>/dev/null) || {
  echo "check-gst-abi: GStreamer's headers are missing: bash scripts/setup.sh --test installs them"; exit 1; }
# shellcheck disable=SC2086
cc -std=gnu11 -fsyntax-only $flags -I Sources/CLibraries/CWebRTCPeer Tests/GStreamerABI/gst_api_check.c
echo "check-gst-abi: gst_api.h matches GStreamer $(pkg-config --modversion gstreamer-1.0), libnice $(pkg-config --modversion nice)"
