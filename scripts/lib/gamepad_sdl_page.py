"""The page's pad as a game reads it, inside the page guest (scripts/page-guest-test.sh):
Debian's libSDL2 (ctypes) opens the PS5 controller the page's session gets, enables its gyro
and accelerometer and says so (READY). Then, step by step, as the page outside announces each
one (STEPS/N.json, written once the page has set what the step sets), it reads the pad until
the reading differs from the last step's and has stayed the same for 0.4 s — the settled
reading —, and writes it to STEPS/N.seen.json (the page outside waits for it before its next
step). A reading that does not settle within 30 s is written with "timeout". Ends at
STEPS/done. Writes everything to RESULT; the checks are scripts/lib/page_guest_check.py's.
A reading has the touchpad's two fingers too ([state, x, y], 0…1 of the pad). Two kinds of step
differ: a "transient" one (a tap: the touchpad's click lasts 60 ms) settles once the buttons it
names have been seen down, however briefly, even where the settled reading is the last step's.
What was seen down since the last step was read is kept as "pressed": the page acts before it
announces a step, and one SDL update may read a press and its release together, so SDL's own
button-down events count as well as the polled state. A "rumble" step is something the
game does: SDL sets the lightbar and rumbles the pad (low 0xFFFF, high 0x8000, 400 ms), keeps
updating for 1.2 s so that SDL sends the rumble's end, and records the calls' results.

    gamepad_sdl_page.py STEPS READY RESULT"""
import ctypes, json, os, sys, time
from gamepad_sdl import (SDL_INIT_JOYSTICK, SDL_INIT_GAMECONTROLLER, SDL_INIT_SENSOR, SDL_SENSOR_ACCEL,
                         SDL_SENSOR_GYRO, game_feedback, load, open_ps5, with_sensors)

steps_dir, ready_file, result = sys.argv[1:4]
AXES = ["leftx", "lefty", "rightx", "righty", "lefttrigger", "righttrigger"]
BUTTONS = ["a", "b", "x", "y", "back", "guide", "start", "leftstick", "rightstick", "leftshoulder",
           "rightshoulder", "dpup", "dpdown", "dpleft", "dpright", "misc1", "paddle1", "paddle2",
           "paddle3", "paddle4", "touchpad"]
SETTLE, STEP_LIMIT, WAIT_LIMIT = 0.4, 30.0, 180.0
out = {"controllers": [], "steps": []}


def save():
    tmp = result + ".tmp"
    json.dump(out, open(tmp, "w"), indent=1)
    os.replace(tmp, result)


sdl = load(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER | SDL_INIT_SENSOR)
sdl.SDL_GameControllerGetAxis.argtypes = [ctypes.c_void_p, ctypes.c_int]
sdl.SDL_GameControllerGetAxis.restype = ctypes.c_int16
sdl.SDL_GameControllerGetButton.argtypes = [ctypes.c_void_p, ctypes.c_int]
sdl.SDL_GameControllerGetAttached.argtypes = [ctypes.c_void_p]


# The pad comes when the page outside has paired and connected: minutes at most, unless the
# page's part ended first (it failed before the pad came).
pad, deadline = None, time.monotonic() + WAIT_LIMIT
while pad is None and time.monotonic() < deadline and not os.path.exists(os.path.join(steps_dir, "done")):
    pad = open_ps5(sdl, with_sensors(sdl, out["controllers"]), seconds=2)
if pad is None:
    out["error"] = f"no PS5 controller with sensors: {out['controllers'][-3:]} ({sdl.SDL_GetError().decode()})"
    save()
    sys.exit(out["error"])
sdl.SDL_GameControllerSetSensorEnabled(pad, SDL_SENSOR_GYRO, 1)
sdl.SDL_GameControllerSetSensorEnabled(pad, SDL_SENSOR_ACCEL, 1)
data = (ctypes.c_float * 3)()
finger = (ctypes.c_uint8(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float())
out["touchpads"] = sdl.SDL_GameControllerGetNumTouchpads(pad)
out["fingers"] = sdl.SDL_GameControllerGetNumTouchpadFingers(pad, 0) if out["touchpads"] else 0


def fingers():
    """The touchpad's first two fingers as SDL has them: [1, x, y] down (0…1 of the pad), [0] up."""
    got = []
    for i in range(min(2, out["fingers"])):
        if sdl.SDL_GameControllerGetTouchpadFinger(pad, 0, i, *(ctypes.byref(v) for v in finger)) == 0:
            got.append([1, round(finger[1].value, 4), round(finger[2].value, 4)] if finger[0].value else [0])
    return got


SDL_CONTROLLERBUTTONDOWN = 0x651
event = (ctypes.c_uint8 * 56)()       # SDL_Event; a button event: type u32, time u32, which i32, button u8
seen_down = set()                      # the buttons seen down since the last step was read


def reading():
    """What a game reads now: the six axes, the buttons, gyro (rad/s), accelerometer (m/s²), fingers.
    Drains SDL's event queue too (it would fill), keeping every button-down in `seen_down`."""
    sdl.SDL_GameControllerUpdate()
    while sdl.SDL_PollEvent(event):
        if int.from_bytes(bytes(event[0:4]), "little") == SDL_CONTROLLERBUTTONDOWN and event[12] < len(BUTTONS):
            seen_down.add(BUTTONS[event[12]])
    r = {"attached": bool(sdl.SDL_GameControllerGetAttached(pad)),
         "axes": {n: sdl.SDL_GameControllerGetAxis(pad, i) for i, n in enumerate(AXES)},
         "buttons": [n for i, n in enumerate(BUTTONS) if sdl.SDL_GameControllerGetButton(pad, i)],
         "touch": fingers()}
    seen_down.update(r["buttons"])
    for kind, key in ((SDL_SENSOR_GYRO, "gyro"), (SDL_SENSOR_ACCEL, "accel")):
        r[key] = [round(v, 5) for v in data] if sdl.SDL_GameControllerGetSensorData(pad, kind, data, 3) == 0 else None
    return r


open(ready_file, "w").close()
previous, k = None, 0
while True:
    spec_path, done = os.path.join(steps_dir, f"{k}.json"), os.path.join(steps_dir, "done")
    deadline = time.monotonic() + WAIT_LIMIT
    while not os.path.exists(spec_path) and not os.path.exists(done) and time.monotonic() < deadline:
        reading()                                   # keeps SDL's HIDAPI reading the pad
        time.sleep(0.02)
    if not os.path.exists(spec_path):
        out["end"] = "done" if os.path.exists(done) else f"no step {k} within {WAIT_LIMIT:.0f} s"
        break
    spec = json.load(open(spec_path))
    t0 = time.monotonic()
    did = game_feedback(sdl, pad, reading) if spec.get("do") == "rumble" else None
    wanted = set(spec.get("transient") or [])
    last, since, changes, timeout = None, t0, 0, False
    while True:
        now_reading, now = reading(), time.monotonic()
        if now_reading != last:
            last, since, changes = now_reading, now, changes + 1
        elif now - since >= SETTLE and (wanted <= seen_down if wanted or did else previous is None or last != previous):
            break
        if now - t0 > STEP_LIMIT:
            timeout = True
            break
        time.sleep(0.01)
    seen = {"step": k, "name": spec.get("name"), "reading": last, "waited": round(time.monotonic() - t0, 2),
            "changes": changes, "timeout": timeout, "pressed": sorted(seen_down)}
    seen_down.clear()
    if did is not None:
        seen["did"] = did
    out["steps"].append(seen)
    save()
    tmp = os.path.join(steps_dir, f"{k}.seen.tmp")
    json.dump(seen, open(tmp, "w"))
    os.replace(tmp, os.path.join(steps_dir, f"{k}.seen.json"))
    print(f"step {k} {spec.get('name')}: {last} after {seen['waited']} s{' (timeout)' if timeout else ''}", flush=True)
    previous, k = last, k + 1
sdl.SDL_GameControllerClose(ctypes.c_void_p(pad))
sdl.SDL_Quit()
save()
