#!/bin/bash
# Runs INSIDE the QEMU guest of scripts/page-guest-test.sh (uhid, hid-playstation and
# virtio_net loaded by its /init; user-mode networking with restrict=on, the web port
# forwarded from 127.0.0.1 outside). `remotion host --gamepad dualsense` serves the phone page
# on the guest's address; a person accepting phones (e2e/web/consent.py) pairs the Chromium
# outside; SDL 2 (scripts/lib/gamepad_sdl_page.py) opens the pad the page's session gets and
# records what it reads at each step the page outside announces (the results share's steps/).
# The checks run outside (scripts/lib/page_guest_check.py).
set -uo pipefail
. "$(dirname "$0")/guest-helpers.sh"   # out, guest.env, ready.sh, the pace, the kernel fact
fact_modules uhid hid_playstation virtio_net

# The network QEMU's user mode gives (10.0.2.0/24, the guest at .15), set by hand: no DHCP
# client is needed for one fixed address, and the guest reaches nothing beyond it (restrict=on).
ip link set lo up
nic=$(ls /sys/class/net | grep -vx lo | head -1)
if [[ -z $nic ]]; then fact timeout "no network device in the guest"; exit 1; fi
ip link set "$nic" up && ip addr add "$GUEST_ADDRESS/24" dev "$nic"
fact nic "$nic"

# SDL first: it waits for the pad, which comes when the page connects.
SDL_JOYSTICK_DISABLE_UDEV=1 /usr/bin/python3 "$(dirname "$0")/gamepad_sdl_page.py" "$out/steps" "$out/sdl.ready" \
  "$out/sdl-page.json" >"$out/sdl-page.out" 2>&1 &
witness=$!

say "host"
# --bind: the web server (and the UDP port) on the guest's own address, where QEMU forwards;
# the page is reached as https://127.0.0.1:PORT outside, a name its certificate carries (the
# host always adds loopback), so Host and Origin pass as they are. 30 s timeouts: the one-CPU
# emulated guest stalls for seconds while SDL starts. No data channels: only the web port is
# forwarded, so the page uses its WebSocket.
"$REMOTION_BIN" host --gamepad dualsense --inject log --bind "$GUEST_ADDRESS" --port 0 --no-discovery --no-dashboard \
  --web-port "$WEB_PORT" --no-web-rtc --pair-at-start --timeout 30 --data-dir "$HOME/data" \
  --ready-file "$out/host.ready" >"$out/host.out" 2>"$out/host.err" &
host=$!
if wait_ready "$out/host.ready" "$host" 120; then
  /usr/bin/python3 /run/repo/e2e/web/consent.py "$HOME/data" 300 &
  consent=$!
  # The page outside says when it is done (steps/done); the witness ends then, or on its own bounds.
  wait "$witness"; fact sdl_page_rc $?
  wait_for 60 "the page's end (steps/done)" test -e "$out/steps/done"
  kill "$consent"; wait "$consent" 2>/dev/null
  kill -INT "$host"; wait "$host"; fact host_rc $?
else
  fact timeout "the host was not ready: $(tail -2 "$out/host.err")"
  kill "$witness"; wait "$witness"
fi
cp /proc/bus/input/devices "$out/devices-end"
dmesg >"$out/dmesg" 2>/dev/null
say "done"
