"""Checks the page guest (scripts/page-guest-test.sh): what the page outside set at each step
(RESULTS/page.json, in the page's own units) against what SDL 2 read on the pad inside
(RESULTS/sdl-page.json, settled per step). Last line: N passed, N failed.

The chain each value takes, and so what SDL must read:
- A stick v (−1…1, y down) leaves the page as int16 round(v·32767) (protocol.js), the host reads
  i/32767 (WebFrames) and writes the report's byte round((f+1)·127.5) (DualSenseInputReport);
  SDL's PS5 driver reads byte·257 − 32768. A trigger t (0…1) leaves as uint16 round(t·65535),
  the host writes round(f·255), SDL's game-controller trigger is 0…32767 for the byte 0…255.
  The byte read back (SDL's value inverted) must be the byte computed here within 1: the page's
  16-bit step is 1/257 of a byte (127.5/32767 for sticks, 255/65535 for triggers), so only float
  rounding at a half-way byte can move it, by one.
- Buttons: the set SDL reports is exactly the page's (A = Cross = SDL's a), nothing else.
- Gyro: the emulated gyroscope (x, y, z) rad/s is the page's rotationRate in the device frame,
  re-expressed in the portrait screen frame (the same axes), sent as rad/s; the host puts the
  controller's (x, y, z) on the pad as (x, z, −y) in °/s (20 raw per °/s) and SDL reads rad/s
  (pitch, yaw, roll): (x, z, −y). Within 2% of each rate, 0 where none is set (the report's
  step is 0.05 °/s). The accelerometer, (0, 0, 9.80665) m/s² emulated, reads 1 g on the pad's
  y: SDL (0, 9.80665, 0) m/s², within 2%.
- Touchpad: a finger at (fx, fy) of the page's touchpad (the pixel it was put at, over the pad's
  size) leaves as u16 round(f·65535); the host writes the DualSense's point round(f·1919),
  round(f·1079) (DualSenseInputReport); SDL's PS5 driver scales a point by 1/1920 and 1/1070.
  Each of the two slots is checked: up where the page has no finger in it, else at that place
  within 0.002 (a u16 step and the point's rounding). The tap is the touchpad's click, 60 ms
  down: SDL's touchpad button must have been seen down during the step.
- Rumble and light: SDL's calls succeed (0); the page's own checks say the phone vibrated,
  stopped and painted the light."""
import json, math, os, sys
from guest_results import GuestResults

r = GuestResults(sys.argv[1])
f = r.facts
r.check("uhid, hid-playstation and virtio_net loaded in the guest",
        f.get("module.uhid") == "loaded" and f.get("module.hid_playstation") == "loaded" and f.get("module.virtio_net") == "loaded",
        {k: v for k, v in f.items() if k.startswith("module.")})
r.check(f"the guest's network device is up ({f.get('nic')}; QEMU user mode, restrict=on)", "nic" in f, f.get("timeout"))
try:
    page = json.load(open(os.path.join(r.folder, "page.json")))
except (OSError, ValueError) as e:
    page = {"checks": [], "steps": []}
    r.check("the page's part wrote its record (page.json)", False, e)
for c in page["checks"]:
    r.check("page: " + c["name"], c["ok"], c.get("detail"))
try:
    sdl = json.load(open(os.path.join(r.folder, "sdl-page.json")))
except (OSError, ValueError) as e:
    sdl = {"steps": [], "controllers": []}
    r.check("SDL's record (sdl-page.json)", False, f"{e}; {r.read('sdl-page.out')[-300:]}")
r.check(f"SDL opened the page's pad as a PS5 controller with gyro and accelerometer: {sdl['controllers'][-1:] or sdl.get('error')}",
        not sdl.get("error") and sdl["controllers"] and sdl["controllers"][-1]["type"] == 7, sdl.get("error"))

STICKS = {"lx": "leftx", "ly": "lefty", "rx": "rightx", "ry": "righty"}
TRIGGERS = {"l2": "lefttrigger", "r2": "righttrigger"}
SDL_BUTTON = {"A": "a", "B": "b", "G": "x", "H": "y", "E": "dpup"}
PLANNED = 21


def half_up(x):
    return math.floor(x + 0.5)


def stick_byte(v):
    wire = half_up(max(-1.0, min(1.0, v)) * 32767) / 32767
    return half_up((wire + 1) * 127.5)


def wire_u16(f):
    """A 0…1 value as the page sends it: u16 round(f·65535), read back as a fraction."""
    return half_up(max(0.0, min(1.0, f)) * 65535) / 65535


def sdl_point(f, last, scale):
    """The page's 0…1 on the touchpad as SDL reads it: the wire's u16, the report's point, SDL's scale."""
    return half_up(wire_u16(f) * last) / scale


def trigger_byte(t):
    return half_up(wire_u16(t) * 255)


steps = page["steps"]
seen = sdl["steps"]
r.check(f"every step the page set was read by SDL: {len(seen)} of {len(steps)} ({PLANNED} planned)",
        len(steps) == PLANNED and len(seen) == len(steps), [s["name"] for s in steps])
worst_gyro = 0.0
for k, (step, got) in enumerate(zip(steps, seen)):
    name, want, reading = step["name"], step["set"], got["reading"]
    if got["timeout"] or not reading or not reading.get("attached"):
        r.check(f"step {k} ({name}): SDL's reading settled", False, f"timeout after {got['waited']} s, last {reading}")
        continue
    axes, problems, shown = reading["axes"], [], []
    for key, axis in STICKS.items():
        byte = (axes[axis] + 32768) / 257
        expected = stick_byte(want[key])
        shown.append(f"{axis} {axes[axis]} (byte {byte:g}, expected {expected})")
        if abs(byte - expected) > 1:
            problems.append(f"{axis}: byte {byte:g}, expected {expected} ± 1 (the page's {want[key]:.4f})")
    for key, axis in TRIGGERS.items():
        byte = axes[axis] * 255 / 32767
        expected = trigger_byte(want[key])
        shown.append(f"{axis} {axes[axis]} (byte {byte:.2f}, expected {expected})")
        if abs(byte - expected) > 1:
            problems.append(f"{axis}: byte {byte:.2f}, expected {expected} ± 1 (the page's {want[key]:.4f})")
    buttons = sorted(SDL_BUTTON[b] for b in want["buttons"])
    if sorted(reading["buttons"]) != buttons:
        problems.append(f"buttons {reading['buttons']}, expected {buttons}")
    gx, gy, gz = want["gyro"]
    expected_gyro = [gx, gz, 0.0 - gy]
    gyro = reading["gyro"] or [math.nan] * 3
    for i, (e, v) in enumerate(zip(expected_gyro, gyro)):
        if e == 0:
            if abs(v) > math.radians(0.05):
                problems.append(f"gyro[{i}] {v} rad/s, expected 0")
        else:
            worst_gyro = max(worst_gyro, abs(v - e) / abs(e))
            if not abs(v - e) <= 0.02 * abs(e):
                problems.append(f"gyro[{i}] {v} rad/s, expected {e:.5f} within 2%")
    ax, ay, az = want["accel"]
    expected_accel = [ax, az, 0.0 - ay]
    accel = reading["accel"] or [math.nan] * 3
    if not all(abs(v - e) <= 0.02 * 9.80665 for e, v in zip(expected_accel, accel)):
        problems.append(f"accel {accel} m/s², expected {expected_accel} within 2% of 1 g")
    touch = reading.get("touch") or []
    expected_touch = [f if f[0] == 0 else [1, sdl_point(f[1], 1919, 1920), sdl_point(f[2], 1079, 1070)] for f in want["touch"]]
    if len(touch) != 2 or any(g[0] != e[0] or (e[0] and (abs(g[1] - e[1]) > 0.002 or abs(g[2] - e[2]) > 0.002))
                              for g, e in zip(touch, expected_touch)):
        problems.append(f"touchpad {touch}, expected {expected_touch} within 0.002")
    witness = step.get("witness") or {}
    if witness.get("transient") and not set(witness["transient"]) <= set(got.get("pressed", [])):   # SDL's names
        problems.append(f"seen down during the step {got.get('pressed')}, expected {witness['transient']}")
    if witness.get("do") == "rumble" and (got.get("did") or {}) != {"led_rc": 0, "rumble_rc": 0}:
        problems.append(f"SDL's light and rumble calls: {got.get('did')}")
    detail = "; ".join(shown) + f"; buttons {reading['buttons']} (seen down {got.get('pressed')}); touchpad {touch}; " \
        f"gyro {gyro} rad/s (expected {[round(v, 5) for v in expected_gyro]})"
    r.check(f"step {k} ({name}), SDL read after {got['waited']} s: {detail}", not problems, "; ".join(problems))
r.check(f"the gyro within 2% on every axis (worst {100 * worst_gyro:.3f}%)", len(steps) == PLANNED and worst_gyro <= 0.02)
r.check(f"the SDL witness exited 0 (rc {f.get('sdl_page_rc')}; {sdl.get('end')})", f.get("sdl_page_rc") == "0")
r.check(f"the host stopped cleanly (rc {f.get('host_rc')})", f.get("host_rc") == "0", r.read("host.err")[-300:])
r.check("no wait inside the guest timed out", "timeout" not in f, f.get("timeout"))
r.finish()
