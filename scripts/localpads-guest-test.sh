#!/usr/bin/env bash
# Gamepads people own as controllers, on a real Linux kernel (docs/LOCAL-PADS.md, "Tests").
# Debian's kernel boots in QEMU (scripts/lib/kernel-guest.sh) with uhid, hid-playstation,
# hid-sony, hid-nintendo, evdev and uinput. Inside (scripts/lib/localpads-guest-inside.sh): `remotion gamepad-probe`
# --as-owned makes a DualSense over UHID that looks like one a person owns (a real pad's name,
# a phys that is not Remotion's), fed a known rotation (90 °/s to the right) and a Cross press;
# the kernel's hid-playstation makes its Motion Sensors node; `remotion host --local-pads
# --gamepad dualsense` reads it (grabbed), moves the pointer through uinput and gives it a
# virtual DualSense, which it must not read back. Checked (scripts/lib/localpads_guest_check.py):
# libinput's raw motion equals the counts the rotation gives (10 per degree, the integral of
# the rates the pad's own reports carry over its sensor clock, read on hidraw) within 2%; a
# second reader of the grabbed evdev node gets nothing; Cross is a click pressed and
# released once; a second pad unplugged (SIGKILL, no rest report) while Cross is held releases
# it; the host skips the virtual DualSense it made (no feedback loop) and that pad turns at the
# owned pad's rate; a game's rumble and then its light (the virtual pad's LED in sysfs) on the
# second pad's virtual DualSense reach the owned pad (its probe logs hid-playstation's output
# reports), and the package's udev rule makes only that pad's lightbar attributes writable.
# Then a DualShock 4 and a Switch Pro Controller, each a small UHID emulator
# (scripts/lib/uhid_ds4.py, uhid_switchpro.py) that answers its driver's probe (hid-sony,
# hid-nintendo): each pad's 2 s right turn moves the pointer by what its own reports give
# within 2%, its bottom face button is one click, the host gives it a virtual DualSense.
# No network device. REMOTION_GUEST_KERNEL=linux-image-6.12-amd64 runs it all on Debian 12's
# 6.12, where the DualShock 4 is hid-playstation's (the checks follow the kernel's version).
set -uo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s.%N)
. scripts/lib/kernel-guest.sh
kguest_init kguest-localpads
kguest_kernel
kguest_initramfs scripts/lib/localpads-guest-inside.sh virtio_pci 9pnet_virtio 9p evdev uinput uhid hid_playstation hid_sony hid_nintendo
cat >"$results/guest.env" <<ENV
REMOTION_BIN='/run/bin/$(basename "$bin")'
PROBE_SECONDS=2
HOST_TIMEOUT=1
ENV
# GUEST_DEADLINE: the hang guard on an idle machine; it stretches by the guest's measured pace
# (docs/INJECTION.md, "The guest's pace").
kguest_boot "${GUEST_DEADLINE:-360}"
kguest_check localpads-guest scripts/lib/localpads_guest_check.py; exit $?
