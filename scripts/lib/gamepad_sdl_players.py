"""Two players, as a game sees them, inside the gamepad guest: Debian's libSDL2 (ctypes) opens
every PS5 controller the host's two controllers made (one a UDP controller, one a DSU
source's), enables each one's gyro, and records per pad its left stick, its A and B buttons
and its gyro for 2 s. Then it tells the script (the `sampled` file), which ends player 1, and
goes on reading until one pad is gone: what remains, and what it reads after. Writes one
JSON file; the checks are scripts/lib/gamepad_guest_check.py's."""
import ctypes, json, os, sys, time
from gamepad_sdl import (SDL_INIT_JOYSTICK, SDL_INIT_GAMECONTROLLER, SDL_INIT_SENSOR, SDL_SENSOR_GYRO,
                         SDL_CONTROLLER_TYPE_PS5, load)

sampled_file, result = sys.argv[1:3]
AXIS_LEFTX, BUTTON_A, BUTTON_B = 0, 0, 1
out = {"pads": {}, "after": {}}
sdl = load(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER | SDL_INIT_SENSOR)
sdl.SDL_GameControllerGetAxis.argtypes = [ctypes.c_void_p, ctypes.c_int]
sdl.SDL_GameControllerGetAxis.restype = ctypes.c_int16
sdl.SDL_GameControllerGetButton.argtypes = [ctypes.c_void_p, ctypes.c_int]
sdl.SDL_GameControllerGetAttached.argtypes = [ctypes.c_void_p]
pads = {}   # serial -> handle


def find(want, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and len(pads) < want:
        sdl.SDL_GameControllerUpdate()
        for i in range(sdl.SDL_NumJoysticks()):
            if not sdl.SDL_IsGameController(i): continue
            gc = sdl.SDL_GameControllerOpen(i)
            if not gc or sdl.SDL_GameControllerGetType(gc) != SDL_CONTROLLER_TYPE_PS5: continue
            serial = (sdl.SDL_GameControllerGetSerial(gc) or b"?").decode()
            if serial not in pads:
                pads[serial] = gc
                sdl.SDL_GameControllerSetSensorEnabled(gc, SDL_SENSOR_GYRO, 1)
        time.sleep(0.05)


def record(into, seconds):
    data = (ctypes.c_float * 3)()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sdl.SDL_GameControllerUpdate()
        for serial, gc in pads.items():
            if not sdl.SDL_GameControllerGetAttached(gc): continue
            r = into.setdefault(serial, {"leftx": [], "a": [], "b": [], "gyro": []})
            r["leftx"].append(sdl.SDL_GameControllerGetAxis(gc, AXIS_LEFTX))
            r["a"].append(sdl.SDL_GameControllerGetButton(gc, BUTTON_A))
            r["b"].append(sdl.SDL_GameControllerGetButton(gc, BUTTON_B))
            if sdl.SDL_GameControllerGetSensorData(gc, SDL_SENSOR_GYRO, data, 3) == 0:
                r["gyro"].append([round(v, 4) for v in data])
        time.sleep(0.01)


find(2, 60)
out["found"] = sorted(pads)
record(out["pads"], 2.0)
open(sampled_file, "w").close()
# Player 1 leaves: wait (bounded) until one pad is no longer attached, then read what remains.
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    sdl.SDL_GameControllerUpdate()
    gone = [s for s, gc in pads.items() if not sdl.SDL_GameControllerGetAttached(gc)]
    if gone:
        out["gone"] = gone
        break
    time.sleep(0.05)
record(out["after"], 1.0)
out["attached_after"] = sorted(s for s, gc in pads.items() if sdl.SDL_GameControllerGetAttached(gc))
sdl.SDL_Quit()
json.dump(out, open(result, "w"))
print(f"SDL saw {out['found']}; gone {out.get('gone')}; attached after {out['attached_after']}")
