#!/usr/bin/env bash
# The virtual DualSense on a real Linux kernel (docs/GAMEPAD.md, "Tests on a real kernel").
# Debian's kernel boots in QEMU as in scripts/kernel-guest-test.sh (the shared machinery:
# scripts/lib/kernel-guest.sh), with uhid and hid-playstation and their dependencies
# (from modules.dep). Inside (scripts/lib/gamepad-guest-inside.sh): `remotion gamepad-probe`
# creates one DualSense through /dev/uhid and feeds a known rotation and a Cross press; a
# reader records its evdev nodes. Checked (scripts/lib/gamepad_guest_check.py): the kernel's
# hid-playstation binds it (every feature report answered); the gamepad, Motion Sensors and
# Touchpad nodes and a hidraw node appear with the pad's MAC as uniq; the Motion Sensors node
# reads the fed angular rate within 2% (resolution from EVIOCGABS) and 1 g; MSC_TIMESTAMP
# strictly increases; BTN_SOUTH is pressed and released once; the pad is at rest at the end
# and every node is gone after the probe stops. SDL2 (Debian's libSDL2 through ctypes) opens a
# second probe's pad as a PS5 controller with gyro and accelerometer and reads the rotation
# in rad/s and gravity in m/s². `remotion host --gamepad dualsense` gives a controller on
# loopback its pad (rates within 2%, A as Cross, rest and gone when it leaves or is killed);
# a game's rumble and light (SDL) reach that controller; a DSU source's controller gets a pad;
# two players of two origins (UDP, DSU) are two PS5 controllers in SDL, each reading only its
# own player, and the one who leaves takes only their pad; a DSU source's two fingers move the
# pad's Touchpad node (multitouch slots) and lift.
# A guest that does not boot is a failure, never a skip. Same environment as kernel-guest-test.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s.%N)
. scripts/lib/kernel-guest.sh
kguest_init kguest-gamepad
kguest_kernel
kguest_initramfs scripts/lib/gamepad-guest-inside.sh virtio_pci 9pnet_virtio 9p evdev uhid hid_playstation
cat >"$results/guest.env" <<ENV
REMOTION_BIN='/run/bin/$(basename "$bin")'
PROBE_SECONDS=2
PROBE_GYRO=30,-90,45
HOST_TIMEOUT=3
CLIENT_SECONDS=3
ENV
kguest_boot 480
kguest_check gamepad-guest scripts/lib/gamepad_guest_check.py; exit $?
