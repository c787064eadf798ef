#!/bin/bash
# Runs INSIDE the QEMU guest of scripts/gamepad-guest-test.sh (uhid and hid-playstation are
# loaded by its /init). `remotion gamepad-probe` makes one virtual DualSense; the reader
# (gamepad_guest_read.py) finds its evdev nodes by uniq, reads their EVIOCGABS, tells the
# probe to go (its --go-file) and records every event until the nodes are gone. The checks
# run outside (gamepad_guest_check.py). No network device.
set -uo pipefail
out=/run/results
. "$out/guest.env"
. "$(dirname "$0")/guest-helpers.sh"
fact kernel "$(uname -r)"
for m in uhid hid_playstation; do [[ -d /sys/module/$m ]] && fact "module.$m" loaded; done

say "probe"
"$REMOTION_BIN" gamepad-probe --seconds "$PROBE_SECONDS" --rate 100 --gyro "$PROBE_GYRO" \
  --identity guest-controller --go-file /tmp/go >"$out/probe.out" 2>"$out/probe.err" &
probe=$!
/usr/bin/python3 "$(dirname "$0")/gamepad_guest_read.py" "$out/probe.out" /tmp/go "$out/events.json" \
  >"$out/reader.out" 2>&1
fact reader_rc $?
say "reader done"
wait "$probe"; fact probe_rc $?
cp /proc/bus/input/devices "$out/devices-after"
ls /sys/class/hidraw >"$out/hidraw-after" 2>/dev/null
dmesg >"$out/dmesg" 2>/dev/null
say "done"
