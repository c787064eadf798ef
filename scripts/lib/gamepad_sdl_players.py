"""Two players, as a game sees them, inside the gamepad guest: Debian's libSDL2 (ctypes) opens
every PS5 controller the host's two controllers made (one a UDP controller, one a DSU
source's), enables each one's gyro, waits until each pad is live (SDL has read a report of
it: its gyro reading has a sensor timestamp), and records per pad its left stick, its A and B
buttons and its gyro for 2 s and until each pad has shown `STREAM_US` of its player's stream
(the span of its sensor timestamps, the controller's sample clock). Then it tells the
script (the `sampled` file), which ends player 1, and goes on reading until one pad is gone:
what remains, and what it reads after. Writes one JSON file; the checks are
scripts/lib/gamepad_guest_check.py's.

A pad is made when its controller's session opens, before the controller's first state
reaches it (the kernel's driver drops input while it probes, and on this one-CPU emulated
guest a new client's stream can reach the host seconds after its handshake): SDL opening
the pad says nothing of its player yet. Each report carries the pad's sensor timestamp, so
SDL's timestamp is the signal that a report of the player arrived; a window started at
"opened" read player 1's pad as 0 throughout once (no stick, no gyro). It polls at 20 Hz:
the guest has one emulated CPU, which the players' clients and hosts need too."""
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
sdl.SDL_GameControllerGetSensorDataWithTimestamp.argtypes = [
    ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_float), ctypes.c_int]
sdl.SDL_GameControllerPath.restype = ctypes.c_char_p
sdl.SDL_GameControllerPath.argtypes = [ctypes.c_void_p]
STREAM_US = 1_000_000   # each pad's stream a window holds at least: 1 s (A is held from 0.2 s)
POLL = 0.05
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


def report_time(gc):
    """The sensor timestamp of the pad's latest report SDL read (0: none yet)."""
    stamp, data = ctypes.c_uint64(0), (ctypes.c_float * 3)()
    if sdl.SDL_GameControllerGetSensorDataWithTimestamp(gc, SDL_SENSOR_GYRO, ctypes.byref(stamp), data, 3) != 0:
        return 0
    return stamp.value


def live(seconds):
    """Waits (bounded) until SDL has read a report of every pad; each pad's wait in seconds."""
    start = time.monotonic()
    deadline, waited = start + seconds, {}
    while time.monotonic() < deadline and len(waited) < len(pads):
        sdl.SDL_GameControllerUpdate()
        for serial, gc in pads.items():
            if serial not in waited and report_time(gc):
                waited[serial] = round(time.monotonic() - start, 2)
        time.sleep(POLL)
    return waited


def record(into, seconds, stream_us=0, longest=20.0):
    """Reads every attached pad for `seconds`, and on (up to `longest`) until each has shown
    `stream_us` of its stream (its sensor timestamps' span): a stalled guest's seconds hold
    none. Each pad's span in µs."""
    data = (ctypes.c_float * 3)()
    start = time.monotonic()
    first, last = {}, {}
    while True:
        now = time.monotonic()
        if now - start >= longest: break
        if now - start >= seconds and all(last.get(s, 0) - first.get(s, 0) >= stream_us for s in pads): break
        sdl.SDL_GameControllerUpdate()
        for serial, gc in pads.items():
            if not sdl.SDL_GameControllerGetAttached(gc): continue
            r = into.setdefault(serial, {"leftx": [], "a": [], "b": [], "gyro": []})
            r["leftx"].append(sdl.SDL_GameControllerGetAxis(gc, AXIS_LEFTX))
            r["a"].append(sdl.SDL_GameControllerGetButton(gc, BUTTON_A))
            r["b"].append(sdl.SDL_GameControllerGetButton(gc, BUTTON_B))
            if sdl.SDL_GameControllerGetSensorData(gc, SDL_SENSOR_GYRO, data, 3) == 0:
                r["gyro"].append([round(v, 4) for v in data])
            stamp = report_time(gc)
            if stamp:
                first.setdefault(serial, stamp)
                last[serial] = stamp
        time.sleep(POLL)
    return {s: last[s] - first[s] for s in last}


find(2, 60)
out["found"] = sorted(pads)
out["paths"] = {s: (sdl.SDL_GameControllerPath(gc) or b"").decode() for s, gc in pads.items()}
# Each pad live (a report of its player read) before the window opens.
out["live_after"] = live(60)
out["stream_us"] = record(out["pads"], 2.0, stream_us=STREAM_US)
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
print(f"SDL saw {out['found']} at {out['paths']}; live after {out['live_after']} s; stream shown (µs) {out['stream_us']}; "
      f"gone {out.get('gone')}; attached after {out['attached_after']}")
