#!/usr/bin/env bash
# The phone page drives a virtual DualSense on a real kernel (docs/GAMEPAD.md, "Tests").
# Debian's kernel boots in QEMU (scripts/lib/kernel-guest.sh) with uhid, hid-playstation and
# virtio_net, and a network of QEMU's user mode with restrict=on: the guest reaches nothing
# outside, and one port, chosen free at run time, is forwarded from 127.0.0.1 here to the
# guest's web port. Inside (scripts/lib/page-guest-inside.sh): `remotion host --gamepad
# dualsense` with its page on the guest's address, a person accepting phones, and SDL 2
# (scripts/lib/gamepad_sdl_page.py) reading the pad. Here: headless Chromium
# (e2e/web/page_guest_pad.py) opens https://127.0.0.1:PORT/ — the host's ready file in the
# results share is the signal —, pairs, enters the Gamepad mode and, step by step, holds the
# left stick, pulls L2 and R2, holds Cross, turns the emulated gyro, puts two fingers on the
# touchpad and taps it; SDL reads each step's settled values; then a game inside rumbles and
# lights the pad. Checked (scripts/lib/page_guest_check.py): sticks and triggers within one
# step of the report's byte, buttons exactly, the gyro within 2% of the emulated rate, each
# finger in its slot within 0.002, the tap's click, every rest between; the page's vibration
# and light (e2e/web/page_guest_pad.py). Everything runs in a new network namespace that has only lo (root: unshare -n),
# so neither Chromium nor QEMU's forwarded port reaches anything else. A guest that does not
# boot is a failure, never a skip. Same environment as scripts/gamepad-guest-test.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s.%N)

# The kernel cache is fetched (apt-get download) before the namespace, which has no network.
# The host inside runs at a phone's rate on one emulated CPU, beside SDL: the release build
# (REMOTION_BIN overrides; scripts/test.sh gives the .deb's). A debug host there falls seconds
# behind the page's frames until the page, 30 s without a pong, ends the session.
export NETNS_BUILD_CONFIG=${NETNS_BUILD_CONFIG:-release}
netns_precheck() { (. scripts/lib/kernel-guest.sh; kguest_kernel >/dev/null) || { echo "page-guest-test: no guest kernel"; return 1; }; }
. scripts/lib/private-netns.sh
enter_private_netns page-guest-test "python3 qemu-system-x86_64 /usr/bin/chromium /usr/bin/chromedriver" "$@"

. scripts/lib/kernel-guest.sh
kguest_init kguest-page
driver=""
page_cleanup() {
  [[ -n $driver ]] && kill "$driver" 2>/dev/null && wait "$driver" 2>/dev/null
  kguest_cleanup
}
trap page_cleanup EXIT
kguest_kernel
kguest_initramfs scripts/lib/page-guest-inside.sh virtio_pci 9pnet_virtio 9p evdev uhid hid_playstation virtio_net
mkdir -p "$results/steps"
# The port: free here (this namespace is new and ours alone), the same number inside the guest.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') \
  || fail_now "no free port on 127.0.0.1"
cat >"$results/guest.env" <<ENV
REMOTION_BIN='/run/bin/$(basename "$bin")'
WEB_PORT=$port
GUEST_ADDRESS=10.0.2.15
ENV
kguest_start 420 -netdev "user,id=n0,restrict=on,net=10.0.2.0/24,hostfwd=tcp:127.0.0.1:$port-:$port" \
  -device "virtio-net-pci,netdev=n0,romfile="

# The host's readiness: its ready file in the results share, written once the web server listens.
ready="$results/host.ready"
for ((i = 0; i < 180 * 20; i++)); do
  [[ -s $ready ]] && break
  kill -0 "$qemu_pid" 2>/dev/null || break
  sleep 0.05
done
if [[ -s $ready ]]; then
  link=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pairingURL"] or "")' "$ready")
  echo "page-guest: the host inside is ready; its link ${link%%#*}…, opened here as https://127.0.0.1:$port/"
  # The same link, at the address QEMU forwards: the pairing secret and fingerprint stay as the host made them.
  SE_AVOID_STATS=true timeout 400 python3 e2e/web/page_guest_pad.py --url "https://127.0.0.1:$port/#${link#*#}" \
    --results "$results" --profile "$work/profile" &
  driver=$!
  wait "$driver"; echo "page-guest: the page's part exited $?"; driver=""
else
  echo "page-guest: the host inside wrote no ready file"
fi
touch "$results/steps/done"
kguest_wait
kguest_check page-guest scripts/lib/page_guest_check.py; exit $?
