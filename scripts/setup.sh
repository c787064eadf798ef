#!/usr/bin/env bash
# Installs what Remotion needs on Debian 12 (run as root). Two set-ups:
#   bash scripts/setup.sh          the demo: only what `swift build` of remotion needs
#                                  (the C libraries' -dev packages and pkg-config)
#   bash scripts/setup.sh --test   the demo's and everything the test suite uses (Xvfb,
#                                  avahi, browsers, nftables, QEMU, packaging tools, …)
#   bash scripts/setup.sh --list demo|test   prints the package names, installs nothing
# Idempotent: packages already installed are not fetched again. scripts/count-setup.sh
# counts what each set-up installs on a fresh machine (docs/BENCHMARKS.md).
set -euo pipefail

# What the build of remotion links (Package.swift's system libraries).
demo=(
  pkg-config zlib1g-dev libqrencode-dev libx11-dev libxtst-dev
  libavahi-client-dev
  # (GStreamer, for the web controller's data channels, and libwayland-client, for the
  # wlroots injector, are loaded at run time: the build needs none of them; the test set-up
  # installs what its stages use)
)
# What the tests use besides.
test=(
  zbar-tools openssl libxext-dev
  xvfb x11-utils xdotool xinput nodejs imagemagick
  avahi-daemon avahi-utils dbus iproute2 nftables
  chromium chromium-driver
  webkit2gtk-driver   # the page in WebKit (scripts/webkit-test.sh): WebKitWebDriver, MiniBrowser comes with libwebkit2gtk-4.1-0
  gstreamer1.0-plugins-bad gstreamer1.0-nice gstreamer1.0-tools   # data channels (webrtcbin, libnice ICE)
  libgstreamer-plugins-bad1.0-dev libnice-dev   # headers for scripts/check-gst-abi.sh only
  tmux
  qemu-system-x86 busybox-static libinput-tools udev
  zstd                          # unpacks Debian 12's 6.12 kernel for the guest stages (scripts/lib/kernel-guest.sh)
  libsdl2-2.0-0                 # the gamepad stage's SDL witness (loaded through ctypes; already pulled in by the set-up above)
  dpkg-dev lintian mmdebstrap   # the package stage (scripts/package-test.sh)
  appstream desktop-file-utils  # ... which validates the app menu entry and its AppStream metadata
  python3-dbusmock              # logind faked on a private bus (scripts/logind-session-test.sh)
  sway grim                     # the wlroots injector's compositor, headless, and its screenshots of the laser (scripts/wayland-sway-test.sh)
  libwayland-dev libwayland-bin wayland-protocols libxkbcommon-dev   # ... and its witness client, built there
)

mode=demo
case ${1:-} in
  "") ;;
  --test) mode=test ;;
  --list)
    case ${2:-} in
      demo) printf '%s\n' "${demo[@]}" ;;
      test) printf '%s\n' "${demo[@]}" "${test[@]}" ;;
      *) echo "setup.sh: --list takes demo or test" >&2; exit 2 ;;
    esac
    exit 0 ;;
  -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
  *) echo "setup.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
esac
packages=("${demo[@]}")
[[ $mode == test ]] && packages+=("${test[@]}")

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done

if ((${#missing[@]})); then
  [[ $(id -u) -eq 0 ]] || { echo "setup.sh: ${missing[*]} missing: run as root (sudo bash scripts/setup.sh${1:+ $1})" >&2; exit 1; }
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ $mode == test ]] && ! python3 -c 'import selenium' 2>/dev/null; then
  echo "setup: installing selenium (PyPI)"
  python3 -m pip install -q 'selenium==4.51.0'
fi
# The reference filter of scripts/bench-fusion.sh (docs/BENCHMARKS.md, "Orientation through a shove").
if [[ $mode == test ]] && ! python3 -c 'import vqf, numpy' 2>/dev/null; then
  echo "setup: installing vqf and numpy (PyPI)"
  python3 -m pip install -q 'vqf==2.1.2' numpy
fi
echo "setup: ready ($mode)"
