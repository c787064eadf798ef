#!/usr/bin/env bash
# The WebRTC shim declares the GStreamer/GLib/libnice ABI it loads at run time by hand
# (Sources/CLibraries/CWebRTCPeer/gst_api.h); this compiles Tests/GStreamerABI/gst_api_check.c
# against the real headers and fails if an enum value, offset or size differs.
# Needs the headers (bash scripts/setup.sh --test installs them; the demo's build does not).
#   bash scripts/check-gst-abi.sh                 against this machine's headers
#   bash scripts/check-gst-abi.sh --headers DIR   against another release's, unpacked under DIR
#                                                 (dpkg -x of its -dev packages: scripts/package-test.sh
#                                                 does it for Debian 13)
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == --headers ]]; then
  h=${2:?--headers DIR}
  arch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
  flags="-I$h/usr/include/gstreamer-1.0 -I$h/usr/include/glib-2.0 -I$h/usr/lib/$arch/glib-2.0/include"
  flags+=" -I$h/usr/include/$arch -I$h/usr/include/nice"
  version() { sed -n 's/^Version: *//p' "$h/usr/lib/$arch/pkgconfig/$1.pc" 2>/dev/null || echo "?"; }
  gst=$(version gstreamer-1.0) nice=$(version nice) glib=$(version glib-2.0)
  for f in gstreamer-1.0/gst/gst.h gstreamer-1.0/gst/webrtc/webrtc.h glib-2.0/glib.h nice/agent.h; do
    [[ -s $h/usr/include/$f ]] || { echo "check-gst-abi: $h has no usr/include/$f: unpack the release's -dev packages there"; exit 1; }
  done
else
  flags=$(pkg-config --cflags gstreamer-webrtc-nice-1.0 2>/dev/null) || {
    echo "check-gst-abi: GStreamer's headers are missing: bash scripts/setup.sh --test installs them"; exit 1; }
  gst=$(pkg-config --modversion gstreamer-1.0) nice=$(pkg-config --modversion nice) glib=$(pkg-config --modversion glib-2.0)
fi
# shellcheck disable=SC2086
cc -std=gnu11 -fsyntax-only $flags -I Sources/CLibraries/CWebRTCPeer Tests/GStreamerABI/gst_api_check.c
echo "check-gst-abi: gst_api.h matches GStreamer $gst, GLib $glib, libnice $nice"
