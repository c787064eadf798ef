#!/usr/bin/python3
"""The checks of scripts/localpads-guest-test.sh, on what the guest wrote into RESULTS.

The witness of what the pad did is its own input reports (hidraw), read by
localpads_guest_read.py (frames.json: the sensor clock and the raw gyro per report); the witness
of what the host injected is libinput (its raw, unaccelerated motion in brackets). The counts
a rotation should give are computed here the way docs/MOTION.md's FPS mode defines them with
the test's linear settings: 10 counts per degree, each report's rate times the time since the
previous report (capped at 0.1 s, none after a gap over 0.5 s). The pad's reports are read on
its hidraw node: the host grabs the evdev nodes, so a second evdev reader must see nothing.
Last line: N passed, N failed.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from guest_results import GuestResults  # noqa: E402

results = sys.argv[1]
_r = GuestResults(results)
check, read, facts = _r.check, _r.read, _r.facts
NUM = r"([-+]?\d+(?:\.\d+)?)"
COUNTS_PER_DEGREE = 10


def expected_counts(reports):
    """The counts the pad's own reports give: its gyro in raw units (20 per °/s: the probe's
    calibration blob, which the kernel scales by 51.2 to ABS_RY's 1024 per °/s) over its
    sensor clock (thirds of a µs, u32)."""
    x = y = 0.0
    for (t0, *_), (t1, gx, gy, gz) in zip(reports, reports[1:]):
        dt = ((t1 - t0) & 0xFFFFFFFF) / 3e6
        if dt <= 0 or dt > 0.5:
            continue
        dt = min(dt, 0.1)
        # hid-playstation's frame: y is the yaw (+ = turning left), x the pitch (+ = far end
        # up). FPS mode moves right for a right turn and up for a pitch up.
        x += -gy / 20 * dt * COUNTS_PER_DEGREE
        y += -gx / 20 * dt * COUNTS_PER_DEGREE
    return x, y


# The pads emulated over UHID (scripts/lib/uhid_ds4.py, uhid_switchpro.py): the driver, how
# the kernel names the bound HID device (dmesg), the controller's name in the host's line
# (its motion node's name without " Motion Sensors" or " IMU") and the driver's axes there.
# From Linux 6.2 the DualShock 4 is hid-playstation's (the 6.12 run of this stage), before hid-sony's.
kernel_version = tuple(int(n) for n in re.findall(r"\d+", facts.get("kernel", "0.0"))[:2])
ds4_driver = "playstation" if kernel_version >= (6, 2) else "sony"
EMULATED = {
    "ds4": (f"hid-{ds4_driver}", f"{ds4_driver} 0003:054C:09CC", "Sony Interactive Entertainment Wireless Controller",
            "playstation"),
    # 6.1's hid-nintendo names its nodes itself; 6.12's after the device (the USB product string).
    "switchpro": ("hid-nintendo", "nintendo 0003:057E:2009", "Nintendo Co., Ltd. Pro Controller" if kernel_version >= (6, 12)
                  else "Nintendo Switch Pro Controller", "nintendo"),
}


def kernel_lost(moved, want, drops, period):
    """A turn short by no more than what the kernel's own drops can hold: each SYN_DROPPED
    loses the reader's whole evdev buffer, at most 8 frames of the motion node (its 64
    events), which no reader can get back. Only short, never long, and only with drops."""
    short = (want - moved) if want > 0 else (moved - want)
    return drops > 0 and 0 <= short <= drops * 8 * period * 90 * COUNTS_PER_DEGREE   # the emulators turn at 90 °/s


def check_emulated(pad, lines, host_err):
    """One emulated pad: its driver bound it (its motion node, with the resolution the driver
    gives), the host read it with that driver's axes and gave it a virtual DualSense, its 2 s
    right turn moved the pointer by what the pad's own reports give (their yaw rate times the
    report period, on the pad's clock; 10 counts per degree) within 2%, and its bottom face
    button was one click."""
    driver, bound, display, axes = EMULATED[pad]
    log = [json.loads(l) for l in read(f"{pad}.jsonl").splitlines() if l.startswith("{")]
    created = next((e for e in log if e.get("event") == "created"), {})
    done = next((e for e in log if e.get("event") == "done"), {})
    data = json.loads(read(f"{pad}-frames.json") or "{}")
    node, uniq = data.get("node", "?"), created.get("uniq", "?")
    check(f"{driver} bound the {pad} emulator ({bound}): {node} ({uniq}), the witness saw the host read it and its virtual DualSense",
          facts.get(f"{pad}_reader_rc") == "0" and created.get("ready") is True and bound in read("dmesg"),
          read(f"{pad}-reader.out")[-300:])
    check(f"the {pad} emulator answered its driver and streamed until destroyed ({len(done.get('reports', []))} reports, "
          f"{done.get('late_s')} s late at the end)", facts.get(f"{pad}_rc") == "0" and done.get("go_seen") is True,
          read(f"{pad}.out")[-300:])
    reading = [l for l in host_err.splitlines() if "local pads: reading" in l and f"({uniq})" in l]
    check(f"the host reads the {pad}'s motion node {node} as \"{display} ({uniq})\" with {axes} axes",
          any(f"reading {display} ({uniq}) from {node} ({axes} axes" in l for l in reading), "\n".join(reading) or host_err[-300:])
    period = done.get("period", 0)
    reports = done.get("reports", [])
    turned = sum(r[1] * period for r in reports)
    # hid-nintendo's own timestamps are a running average, so the host times its reports by the
    # kernel's event time (LocalPadDriver.timesReportsByKernel): what they give is each report's
    # yaw over the time since the one before it was written. The same turn on the pad's clock
    # unless the emulator, starved in a loaded guest, wrote a turning report late (once +7.3%).
    # Each of those times is capped as the host caps it (docs/MOTION.md: at most 0.1 s, nothing
    # after a gap over 0.5 s), so a report written after a stall counts as the host counts it.
    stamped = turned
    if pad == "switchpro" and all(len(r) > 3 for r in reports):
        gaps = [r[3] - (reports[k - 1][3] if k else r[3] - period) for k, r in enumerate(reports)]
        stamped = sum(r[1] * (min(dt, 0.1) if 0 < dt <= 0.5 else 0) for r, dt in zip(reports, gaps))
    want = -stamped * COUNTS_PER_DEGREE
    start = int(read(f"libinput.{pad}.mark").strip() or len(lines))
    end = int(read("libinput.switchpro.mark" if pad == "ds4" else "libinput.end.mark").strip() or len(lines))
    section = "\n".join(lines[start:end])
    raw = [0.0, 0.0]
    for m in re.finditer(r"POINTER_MOTION\s.*?\(\s*" + NUM + r"\s*/\s*" + NUM + r"\s*\)", section):
        raw[0] += float(m.group(1)); raw[1] += float(m.group(2))
    error = abs(raw[0] - want) / abs(want) * 100 if want else 100.0
    ended = next((l for l in host_err.splitlines() if f"({uniq}) ended (" in l), "")
    drops = int((re.search(r"(?<![-\w])dropped-by-kernel=(\d+)", ended) or [0, 0])[1])
    rate = 1 / period if period else 0
    timing = f", {stamped:+.2f} by the times it was written" if pad == "switchpro" else ""
    check(f"the {pad} turning right ({turned:+.2f} degrees on its clock at {rate:.1f} reports/s{timing}) moved the pointer "
          f"{raw[0]:+.0f} counts for {want:+.1f} within 2% ({error:.2f}%; or short by no more than the kernel's drops hold), not vertically ({raw[1]:+.0f}); "
          f"frames dropped by the kernel: {drops}",
          want > 1000 and (error <= 2.0 or kernel_lost(raw[0], want, drops, period)) and abs(raw[1]) <= 0.02 * want + 1, ended)
    check(f"the {pad}'s bottom face button is a left click, pressed and released once",
          section.count("BTN_LEFT (272) pressed") == 1 and section.count("BTN_LEFT (272) released") == 1, section[-300:])
    check(f"the {pad}'s session ended when it went", bool(ended) and "host-shutdown" not in ended, ended)


def main():
    _r.check_ran()
    check("the witness read the pad's Motion Sensors node until it was gone",
          facts.get("reader_rc") == "0", read("reader.out")[-300:])
    check("the probe fed its pad and destroyed it", facts.get("probe1_rc") == "0", read("probe1.err")[-300:])
    host_err = read("host.err")
    data = json.loads(read("frames.json") or "{}")
    node, uniq = data.get("node", "?"), data.get("uniq", "?")
    reading = [l for l in host_err.splitlines() if "local pads: reading" in l]
    check(f"the host reads the pad's Motion Sensors node {node} with hid-playstation's axes",
          any(node in l and uniq in l and "(playstation axes" in l for l in reading), "\n".join(reading))
    skipped = [l for l in host_err.splitlines() if "own virtual pad" in l]
    check("the host skips the virtual DualSense it made for the pad (no feedback loop) and reads only owned pads",
          any("Remotion virtual DualSense Motion Sensors" in l for l in skipped)
          and not any("Remotion virtual" in l for l in reading), "\n".join(skipped + reading))
    virtual = json.loads(read("virtual.json") or "{}").get("nodes", {})
    motion = next((n for k, n in virtual.items() if k.endswith("Motion Sensors")), {"events": []})
    rates = [v for t, c, v in motion["events"] if t == 3 and c == 4]
    peak = min(rates, default=0) / 1024
    check(f"the pad's virtual DualSense turns with it: ABS_RY down to {peak:.2f} °/s (the pad: -90 within 2%)",
          facts.get("virtual_reader_rc") == "0" and abs(peak + 90) <= 1.8, read("virtual-reader.out")[-300:])
    denied = [l for l in read("nobody.err").splitlines() if "local pads: cannot read" in l]
    check("a host that may not read the pad says once which node and what fixes it",
          len([l for l in denied if f"cannot read {node} " in l and uniq in l]) == 1
          and all("usermod -aG" in l or "udev rule" in l for l in denied) and facts.get("nobody_rc") == "0",
          "\n".join(denied) or read("nobody.err")[-300:])
    if denied:
        print(f"     {denied[0]}")
    resolution = data.get("axes", {}).get("4", {}).get("resolution", 0)
    frames, reports = data.get("frames", []), data.get("reports", [])
    check(f"the node reports 1024 per °/s on ABS_RY (EVIOCGABS) and the pad sent {len(reports)} reports",
          resolution == 1024 and len(reports) >= 50, f"resolution {resolution}")
    check(f"the host grabbed the pad: a second reader of its evdev node got {len(frames)} frames",
          not frames and any("grabbed" in l for l in reading))
    want = expected_counts(reports)
    lines = read("libinput").splitlines()
    mark = int(read("libinput.mark").strip() or len(lines))
    second_end = int(read("libinput.ds4.mark").strip() or len(lines))
    first, second = "\n".join(lines[:mark]), "\n".join(lines[mark:second_end])
    raw = [0.0, 0.0]
    for m in re.finditer(r"POINTER_MOTION\s.*?\(\s*" + NUM + r"\s*/\s*" + NUM + r"\s*\)", first):
        raw[0] += float(m.group(1)); raw[1] += float(m.group(2))
    error = abs(raw[0] - want[0]) / abs(want[0]) * 100 if want[0] else 100.0
    print(f"     pointer: libinput raw ({raw[0]:+.0f}, {raw[1]:+.0f}), the rotation gives ({want[0]:+.1f}, {want[1]:+.1f}): "
          f"error {error:.2f}%")
    # Frames the kernel dropped before the host read them (its evdev buffer holds ~8 of this
    # pad's reports; a starved guest can leave the reader off the CPU longer) are motion the
    # host cannot see: the pad's end line says how many. Then the pointer must still move
    # right, by more than half and never more than the stamps give; with none dropped, within 2%.
    ended1 = next((l for l in host_err.splitlines() if f"({uniq}) ended (" in l), "")
    kernel_drops = int((re.search(r"(?<![-\w])dropped-by-kernel=(\d+)", ended1) or [0, 0])[1])
    # How far the host fell behind the pad, and its reader's longest step, when worth saying.
    for line in host_err.splitlines():
        if "local pads: the reader was busy" in line or "local pads: the host fell behind" in line:
            print(f"     {line.strip()}")
    if "behind it" in ended1:
        print(f"     the host's reads of the first pad: {ended1.rsplit(';', 1)[1].strip()}")
    if kernel_drops:
        print(f"     the kernel dropped {kernel_drops} of this pad's frames before the host read them")
        check(f"the pointer moved right, by more than half and no more than the rotation gives ({error:.2f}% short; "
              f"{kernel_drops} frames dropped by the kernel)",
              want[0] > 1000 and 0.5 * want[0] <= raw[0] <= 1.02 * want[0] and abs(raw[1]) <= 0.02 * abs(want[0]) + 1)
    else:
        check(f"the pointer moved right by the counts the rotation gives within 2% ({error:.2f}%)",
              want[0] > 1000 and error <= 2.0 and abs(raw[1] - want[1]) <= 0.02 * abs(want[0]) + 1)
    check("Cross is a left click, pressed and released once",
          first.count("BTN_LEFT (272) pressed") == 1 and first.count("BTN_LEFT (272) released") == 1)
    release = facts.get("unplug_release_seconds")
    # The reader keeps an open pad's session alive (heard every 0.5 s), so the host's 1 s backstop
    # cannot be what released it: the pad's node going away did (the host says why it ended).
    # The time bounds only the kernel's teardown of a killed pad in a starved guest: 0.5–2.9 s
    # idle or beside one load, 6–10 s beside two, 21 s once when a CI run, two busy loops and
    # this guest shared two cores.
    ended = [l for l in host_err.splitlines() if "local pads: DualSense Wireless Controller" in l and " ended (" in l]
    why = ended[-1].split(" ended (", 1)[1].split(")", 1)[0] if len(ended) == 2 else "?"
    check(f"a pad unplugged mid-press releases the click ({release} s after the kill; ended: {why})",
          release is not None and float(release) <= 30.0 and second.count("BTN_LEFT (272) pressed") == 1
          and second.count("BTN_LEFT (272) released") == 1 and why != "host-shutdown", "no release seen")
    # A game's rumble on the second pad's virtual DualSense (EVIOCSFF on its gamepad node,
    # strong 0xFFFF, weak 0x8000 for 400 ms) comes back to the owned pad through its own
    # gamepad node's force feedback: hid-playstation's output report to the probe.
    game = json.loads(read("rumble.json") or "{}")
    outputs = [json.loads(l) for l in read("probe2.out").splitlines() if '"event":"output"' in l]
    motors = [(o["rumble_left"], o["rumble_right"]) for o in outputs if o.get("sets_rumble")]
    on = next((i for i, m in enumerate(motors) if m[0] > 0), None)
    check(f"a game's rumble on the virtual pad ({game.get('node')}) reaches the owned pad: motors {motors[on] if on is not None else None} "
          "(the game's 0xFFFF/0x8000: 255/128)",
          facts.get("rumble_rc") == "0" and on is not None and motors[on] == (255, 128), (game, motors, read("rumble.out")[-300:]))
    check("... and stops there when the game's 400 ms are over",
          on is not None and (0, 0) in motors[on + 1:], motors)
    # Then a game's light on the same virtual pad (its LED: 255 64 16 into multi_intensity, 255
    # into brightness) reaches the owned pad: its hid-playstation's output report to the probe
    # carries the colour exactly. No tolerance: the brightness is written at max_brightness
    # (255) by the game and by the host, so the driver's intensity x brightness / max_brightness
    # is the identity at both ends.
    light = json.loads(read("light.json") or "{}")
    colour = light.get("colour")
    lightbars = [o.get("lightbar") for o in outputs if o.get("lightbar") is not None]
    got = [c for c in lightbars if c == colour]
    check(f"a game's light on the virtual pad reaches the owned pad: {colour} (the probe's lightbars: {lightbars})",
          facts.get("light_rc") == "0" and colour is not None and bool(got), (light, read("light.out")[-300:]))
    # The host writes a colour once (multi_intensity, then brightness): not again per refresh.
    check(f"... written once: {len(got)} of the owned pad's reports carry it (at most 2)", 1 <= len(got) <= 2, lightbars)
    modes = light.get("owned_modes") or {}
    check(f"Remotion's opt-in light rule makes only the owned pad's lightbar colour and brightness writable: {modes}",
          modes.get("multi_intensity") == "666" and modes.get("brightness") == "666"
          and modes.get("trigger") == "644" and modes.get("player_brightness") == "644", light)
    # The dashboard's status (GET /api/snapshot) says which pads are read and which nodes are
    # not, with why: the second pad read (grabbed, its gamepad node, rumble), its virtual
    # DualSense skipped as Remotion's own; nobody's host: the pad not readable, with the fix.
    status = json.loads(read("snapshot.json") or "{}").get("localPads") or {}
    reading_now = status.get("reading", [])
    check(f"the dashboard lists the pad it reads: {[(p.get('name'), p.get('motionNode')) for p in reading_now]}",
          len(reading_now) == 1 and reading_now[0].get("grabbed") is True and reading_now[0].get("rumble") is True
          and reading_now[0].get("driver") == "playstation" and bool(reading_now[0].get("gamepadNode")), status)
    own = [k for k in status.get("skipped", []) if k.get("reason") == "Remotion's own virtual pad"]
    check(f"... and skips its virtual DualSense as Remotion's own ({[k.get('node') for k in own]})",
          len(own) == 1 and own[0].get("name", "").startswith("Remotion virtual DualSense"), status)
    denied_status = json.loads(read("nobody-snapshot.json") or "{}").get("localPads") or {}
    check("nobody's dashboard reads no pad and says which node it may not read and the fix",
          not denied_status.get("reading") and reading_now
          and any(k.get("node") == reading_now[0].get("motionNode") and "may not read" in k.get("reason", "")
                                                   and "udev rule" in k.get("reason", "") for k in denied_status.get("skipped", [])),
          denied_status or read("nobody-snapshot.json.err")[-300:])
    for pad in EMULATED:
        check_emulated(pad, lines, host_err)
    check("the host stopped cleanly", facts.get("host_rc") == "0", f"{facts.get('host_rc')}")
    check(f"both DualSenses' sessions ended when they went ({len(ended)})", len(ended) == 2, "\n".join(ended))
    stop = [l for l in host_err.splitlines() + read("host.out").splitlines() if "local pads: 4 opened" in l]
    check("the stop line counts the four pads and their four virtual DualSenses",
          bool(stop) and "4 virtual DualSense pads made" in stop[0], host_err[-400:])
    # The pads' times are the host's clock (the kernel's): a sample re-timed would mean a first
    # frame taken late was treated as a fast clock (the pointer fell 31 % short under load).
    clocks = re.search(r"sample clocks: [^;)]*", stop[0]) if stop else None
    print(f"     {clocks.group(0) if clocks else 'sample clocks: every sample kept its own step'}")


try:
    main()
except Exception as error:  # a malformed result file is a failure with its reason, never a crash
    check("the guest's results could be read", False, repr(error))
_r.finish()
