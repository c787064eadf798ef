"""The DSU source's fingers as a game reads them, inside the gamepad guest: Debian's libSDL2
(ctypes) opens the PS5 controller of step 8, tells the script it has (the `opened` file, so
the source's slide starts only once SDL and the evdev witness both read the pad), then polls
SDL's touchpad API (SDL_GameControllerGetTouchpadFinger: 0…1 of the pad) every 5 ms until
the pad goes, keeping each change of either finger. Writes one JSON file; the checks are
scripts/lib/gamepad_guest_check.py's."""
import ctypes, json, sys, time
from gamepad_sdl import SDL_INIT_JOYSTICK, SDL_INIT_GAMECONTROLLER, SDL_INIT_SENSOR, load, open_ps5

opened_file, result = sys.argv[1:3]
sdl = load(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER | SDL_INIT_SENSOR)
sdl.SDL_GameControllerGetAttached.argtypes = [ctypes.c_void_p]
out = {"opened": False, "changes": []}
gc = open_ps5(sdl, seconds=60)
if gc:
    out["opened"] = True
    out["touchpads"] = sdl.SDL_GameControllerGetNumTouchpads(gc)
    out["fingers"] = sdl.SDL_GameControllerGetNumTouchpadFingers(gc, 0) if out["touchpads"] else 0
    open(opened_file, "w").close()
    state, x, y, pressure = ctypes.c_uint8(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
    last, deadline = None, time.monotonic() + 60
    while time.monotonic() < deadline:
        sdl.SDL_GameControllerUpdate()
        if not sdl.SDL_GameControllerGetAttached(gc):
            out["gone"] = True
            break
        now = []
        for finger in range(min(2, out["fingers"])):
            if sdl.SDL_GameControllerGetTouchpadFinger(gc, 0, finger, ctypes.byref(state), ctypes.byref(x),
                                                       ctypes.byref(y), ctypes.byref(pressure)) == 0:
                now.append([state.value, round(x.value, 4), round(y.value, 4)] if state.value else [0])
        if now != last:
            out["changes"].append(now)
            last = now
        time.sleep(0.005)
sdl.SDL_Quit()
json.dump(out, open(result, "w"))
print(f"SDL touchpad: opened {out['opened']}, {out.get('touchpads')} touchpad(s) of {out.get('fingers')} fingers, "
      f"{len(out['changes'])} changes, gone {out.get('gone')}")
