#!/usr/bin/env bash
# Installs what Remotion needs to build, run and test on Debian 12 (run as root).
# Idempotent: packages already installed are not fetched again.
set -euo pipefail

packages=(
  pkg-config zlib1g-dev libqrencode-dev zbar-tools openssl
  libx11-dev libxtst-dev libxext-dev
  libavahi-client-dev
  xvfb x11-utils xdotool xinput nodejs imagemagick
  avahi-daemon avahi-utils dbus iproute2 nftables
  chromium chromium-driver
  webkit2gtk-driver   # the page in WebKit (scripts/webkit-test.sh): WebKitWebDriver, MiniBrowser comes with libwebkit2gtk-4.1-0
  # the web controller's data channels: GStreamer's webrtcbin with libnice (ICE), DTLS, SCTP
  libgstreamer-plugins-bad1.0-dev libnice-dev gstreamer1.0-plugins-bad gstreamer1.0-nice gstreamer1.0-tools
  tmux
  qemu-system-x86 busybox-static libinput-tools udev
)

missing=()
for p in "${packages[@]}"; do
  [[ "$p" == \#* ]] && continue
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! python3 -c 'import selenium' 2>/dev/null; then
  echo "setup: installing selenium (PyPI)"
  python3 -m pip install -q 'selenium==4.51.0'
fi
echo "setup: ready"
