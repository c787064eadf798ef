#!/usr/bin/env bash
# Gamepads people own as controllers, on a real Linux kernel (docs/LOCAL-PADS.md, "Tests").
# Debian's kernel boots in QEMU (scripts/lib/kernel-guest.sh) with uhid, hid-playstation,
# evdev and uinput. Inside (scripts/lib/localpads-guest-inside.sh): `remotion gamepad-probe`
# makes a DualSense over UHID fed a known rotation (90 °/s to the right) and a Cross press;
# the kernel's hid-playstation makes its Motion Sensors node; `remotion host --local-pads`
# reads it (grabbed) and moves the pointer through uinput. Checked (scripts/lib/localpads_guest_check.py):
# libinput's raw motion equals the counts the rotation gives (10 per degree, the integral of
# the rates the pad's own reports carry over its sensor clock, read on hidraw) within 2%; a
# second reader of the grabbed evdev node gets nothing; Cross is a click pressed and
# released once; a second pad unplugged (SIGKILL, no rest report) while Cross is held releases
# it; a host without the hidden --local-pads-include-own skips Remotion's own pad (the probe's
# pad is one: the test host reads it only through that explicit switch). No network device.
set -uo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s.%N)
. scripts/lib/kernel-guest.sh
kguest_init kguest-localpads
kguest_kernel
kguest_initramfs scripts/lib/localpads-guest-inside.sh virtio_pci 9pnet_virtio 9p evdev uinput uhid hid_playstation
cat >"$results/guest.env" <<ENV
REMOTION_BIN='/run/bin/$(basename "$bin")'
PROBE_SECONDS=2
HOST_TIMEOUT=1
ENV
kguest_boot 120
kguest_check localpads-guest scripts/lib/localpads_guest_check.py; exit $?
