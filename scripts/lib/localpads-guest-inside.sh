#!/bin/bash
# Runs INSIDE the QEMU guest of scripts/localpads-guest-test.sh (uhid, hid-playstation, evdev
# and uinput loaded by its /init). An "owned" DualSense is made by `remotion gamepad-probe
# --as-owned` over UHID (named "DualSense Wireless Controller", a phys that is not Remotion's:
# the hidden flag is the probe's, the host has no exception) and the kernel's real
# hid-playstation gives it a Motion Sensors node; the host under test reads it with
# `--local-pads --local-pads-grab`, injects through uinput (libinput the witness) and gives the
# pad's controller a virtual DualSense (`--gamepad dualsense`), which it must not read back.
# Then a DualShock 4 (hid-sony) and a Switch Pro Controller (hid-nintendo), each a UHID
# emulator (uhid_ds4.py, uhid_switchpro.py), read by the same host.
# The checks run outside (localpads_guest_check.py). No network device; loopback only.
set -uo pipefail
. "$(dirname "$0")/guest-helpers.sh"   # out, guest.env, ready.sh, the pace, the kernel fact

ip link set lo up
say "udev"
# Remotion's own rules, as the package installs them, and the pads' light opt-in (it makes the
# pads' lightbar attributes writable: checked below on the owned pad); uaccess needs logind, absent here.
mkdir -p /run/udev/rules.d && cp "$(dirname "$0")/../../packaging/60-remotion-uinput.rules" \
  "$(dirname "$0")/../../packaging/60-remotion-pad-light.rules" /run/udev/rules.d/
/lib/systemd/systemd-udevd --daemon
udevadm trigger --action=add --subsystem-match=input --subsystem-match=misc >/dev/null 2>&1
udevadm settle -t 20

pids=()
# The host's status as the dashboard reads it (GET /api/snapshot on loopback; no token needed).
# Its content is checked, not its speed: a debug host in a TCG guest beside two busy loops once
# took more than 10 s to answer.
snapshot() { /usr/bin/python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(
  "http://127.0.0.1:%s/api/snapshot" % sys.argv[1], timeout=60).read().decode())' "$1" >"$2" 2>"$2.err"; }
stop_all() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; }
trap stop_all EXIT

# FPS mode made linear (no acceleration curve, smoothing, tightening, calibration or rest
# gate) and calibrated in counts: 10 counts per degree the pad turns.
cat >"$HOME/fps.toml" <<'TOML'
[mapping]
mode = "fps"
sensitivity = 1
"fps.calibration" = "counts"
"fps.counts_per_360" = 3600
"fps.slow_sensitivity" = 1
"fps.fast_sensitivity" = 1
"fps.tightening" = 0
"fps.smooth_threshold" = 0
"fps.space" = "local"
"calibration.mode" = "off"
"calibration.rest_gate" = false
TOML

stdbuf -oL libinput debug-events --show-keycodes --udev seat0 >"$out/libinput" 2>&1 &
li=$!; pids+=("$li")
"$REMOTION_BIN" host --local-pads --local-pads-grab --gamepad dualsense --inject uinput --insecure --bind 127.0.0.1 --port 0 \
  --no-discovery --no-web --dashboard-port 0 --timeout "$HOST_TIMEOUT" --config "$HOME/fps.toml" \
  --data-dir "$HOME/data" --ready-file "$HOME/host.ready" >"$out/host.out" 2>"$out/host.err" &
host=$!; pids+=("$host")
# A host that may not read the pads (user nobody, no input group): it must say which node and what fixes it.
mkdir -p /tmp/nobody && chmod 0777 /tmp/nobody
setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp/nobody "$REMOTION_BIN" host --local-pads --inject log \
  --insecure --bind 127.0.0.1 --port 0 --no-discovery --no-web --dashboard-port 0 --data-dir /tmp/nobody/data \
  --ready-file /tmp/nobody/ready >"$out/nobody.out" 2>"$out/nobody.err" &
nobody=$!; pids+=("$nobody")
wait_ready "$HOME/host.ready" "$host" 60 || { fact timeout "the host was not ready: $(tail -2 "$out/host.err")"; exit 1; }
wait_ready /tmp/nobody/ready "$nobody" 60 || { fact timeout "nobody's host was not ready: $(tail -2 "$out/nobody.err")"; exit 1; }
wait_for 30 "libinput sees the host's mouse" at_least "$out/libinput" "DEVICE_ADDED.*Remotion virtual mouse" 1 || exit 1

say "a DualSense turning right at 90 °/s for $PROBE_SECONDS s, Cross held over the middle half"
# The witness of the host's own virtual pad (the first "Remotion virtual DualSense"): its events until it goes.
/usr/bin/python3 "$(dirname "$0")/gamepad_guest_read.py" - - "$out/virtual.json" >"$out/virtual-reader.out" 2>&1 &
virtual=$!; pids+=("$virtual")
"$REMOTION_BIN" gamepad-probe --as-owned --seconds "$PROBE_SECONDS" --rate 100 --gyro 0,-90,0 --identity owned-pad \
  --go-file /tmp/go1 >"$out/probe1.out" 2>"$out/probe1.err" &
probe=$!; pids+=("$probe")
/usr/bin/python3 "$(dirname "$0")/localpads_guest_read.py" "$out/probe1.out" "$host" /tmp/go1 \
  "$out/frames.json" >"$out/reader.out" 2>&1
fact reader_rc $?
wait "$probe"; fact probe1_rc $?
wait_for 20 "the host ends the first pad's session" at_least "$out/host.err" "local pads: DualSense Wireless Controller .* ended" 1
wait "$virtual"; fact virtual_reader_rc $?
wait_for 10 "nobody's host says it cannot read the pad" at_least "$out/nobody.err" "local pads: cannot read" 1
wait_for 10 "libinput saw the release" at_least "$out/libinput" "BTN_LEFT (272) released" 1
wc -l <"$out/libinput" >"$out/libinput.mark"

say "a second pad that holds Cross and is unplugged (SIGKILL: no rest report) mid-press"
"$REMOTION_BIN" gamepad-probe --as-owned --seconds 60 --rate 100 --gyro 0,0,0 --cross 0.2-60 --identity owned-pad-2 \
  --go-file /tmp/go2 >"$out/probe2.out" 2>"$out/probe2.err" &
probe=$!; pids+=("$probe")
if wait_for 30 "the host reads the second pad" at_least "$out/host.err" "local pads: reading" 2; then
  touch /tmp/go2
  if wait_for 30 "the second press" at_least "$out/libinput" "BTN_LEFT (272) pressed" 2; then
    say "a game rumbles the second pad's virtual DualSense (the kernel's force feedback)"
    /usr/bin/python3 "$(dirname "$0")/localpads_guest_rumble.py" "$out/rumble.json" >"$out/rumble.out" 2>&1
    fact rumble_rc $?
    wait_for 20 "the owned pad's rumble" at_least "$out/probe2.out" '"rumble_left":255' 1
    snapshot "$(ready_value "$HOME/host.ready" dashboardPort)" "$out/snapshot.json"
    snapshot "$(ready_value /tmp/nobody/ready dashboardPort)" "$out/nobody-snapshot.json"
    rumble_ended() { awk '/"rumble_left":255/ { on = 1 } on && /"rumble_left":0,"rumble_right":0,"sets_rumble":true/ { found = 1 } END { exit !found }' "$out/probe2.out"; }
    wait_for 20 "the owned pad's rumble ends" rumble_ended
    say "a game sets the light of the second pad's virtual DualSense (its LED in sysfs)"
    /usr/bin/python3 "$(dirname "$0")/localpads_guest_light.py" "$out/light.json" >"$out/light.out" 2>&1
    fact light_rc $?
    wait_for 20 "the owned pad's light" at_least "$out/probe2.out" '"lightbar":\[255,64,16\]' 1
    t0=$(now); kill -9 "$probe"
    wait_for 40 "the release after the unplug" at_least "$out/libinput" "BTN_LEFT (272) released" 2
    fact unplug_release_seconds "$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')"
  fi
fi
kill -9 "$probe" 2>/dev/null; wait "$probe" 2>/dev/null

# Pads of the other drivers, each a small UHID emulator that answers its driver's probe
# (scripts/lib/uhid_ds4.py: hid-sony's feature reports; uhid_switchpro.py: hid-nintendo's USB
# handshake and UART subcommands), then turns right for 2 s on its own clock with its bottom
# face button (BTN_SOUTH: Cross, B) held in the middle. The witness waits until the host has
# the pad and its virtual DualSense before the emulator starts the turn.
lib=$(dirname "$0")
released_since() { tail -n +"$(($1 + 1))" "$out/libinput" | grep -q "BTN_LEFT (272) released"; }
for pad in ds4 switchpro; do
  wc -l <"$out/libinput" >"$out/libinput.$pad.mark"
  say "a $pad over UHID turning right for 2 s, its bottom face button held over the middle"
  /usr/bin/python3 "$lib/uhid_$pad.py" "$out/$pad.jsonl" "/tmp/go-$pad" 2.5 0.25-2.25 0.9-1.6 >"$out/$pad.out" 2>&1 &
  emu=$!; pids+=("$emu")
  /usr/bin/python3 "$lib/localpads_guest_read.py" "$out/$pad.jsonl" "$host" "/tmp/go-$pad" \
    "$out/$pad-frames.json" >"$out/$pad-reader.out" 2>&1
  fact "${pad}_reader_rc" $?
  wait "$emu"; fact "${pad}_rc" $?
  uniq=$(sed -n 's/.*"event": "created", "uniq": "\([^"]*\)".*/\1/p' "$out/$pad.jsonl")
  wait_for 20 "the host ends the $pad's session" at_least "$out/host.err" "local pads: .*($uniq) ended" 1
  wait_for 10 "libinput saw the $pad's release" released_since "$(cat "$out/libinput.$pad.mark")"
done
wc -l <"$out/libinput" >"$out/libinput.end.mark"
kill -INT "$nobody"; wait "$nobody"; fact nobody_rc $?
kill -INT "$host"; wait "$host"; fact host_rc $?
wait_for 20 "libinput sees the host's mouse removed" at_least "$out/libinput" "DEVICE_REMOVED.*Remotion virtual mouse" 1
kill "$li"; wait "$li" 2>/dev/null
cp /proc/bus/input/devices "$out/devices-end"
dmesg >"$out/dmesg" 2>/dev/null
say "done"
