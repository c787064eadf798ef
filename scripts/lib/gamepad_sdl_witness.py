"""A witness that games use, inside the gamepad guest: Debian's libSDL2 (loaded through
ctypes; no headers or python bindings needed) opens the probe's virtual DualSense as a PS5
controller through HIDAPI (hidraw), enables its gyro and accelerometer, tells the probe to
go, records what SDL reads (rad/s, m/s²), then asks SDL for rumble. Writes one JSON file."""
import ctypes, json, sys, time
from gamepad_sdl import (SDL_INIT_JOYSTICK, SDL_INIT_GAMECONTROLLER, SDL_INIT_SENSOR, SDL_SENSOR_ACCEL,
                         SDL_SENSOR_GYRO, load, open_ps5, with_sensors)

go_file, result = sys.argv[1:3]
out = {"controllers": [], "gyro": [], "accel": []}
sdl = load(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER | SDL_INIT_SENSOR)


pad = open_ps5(sdl, with_sensors(sdl, out["controllers"]))
if pad is None:
    out["error"] = f"no PS5 controller with sensors: {out['controllers']} ({sdl.SDL_GetError().decode()})"
    json.dump(out, open(result, "w")); sys.exit(out["error"])
sdl.SDL_GameControllerSetSensorEnabled(pad, SDL_SENSOR_GYRO, 1)
sdl.SDL_GameControllerSetSensorEnabled(pad, SDL_SENSOR_ACCEL, 1)
open(go_file, "w").close()
data = (ctypes.c_float * 3)()
end = time.monotonic() + 1.5
while time.monotonic() < end:
    sdl.SDL_GameControllerUpdate()
    for kind, key in ((SDL_SENSOR_GYRO, "gyro"), (SDL_SENSOR_ACCEL, "accel")):
        if sdl.SDL_GameControllerGetSensorData(pad, kind, data, 3) == 0:
            out[key].append([round(v, 5) for v in data])
    time.sleep(0.01)
# Rumble as a game asks for it (low 0xFFFF, high 0x8000 for 300 ms): SDL writes it to the
# hidraw node as an output report, which the pad reads.
out["rumble_rc"] = sdl.SDL_GameControllerRumble(pad, 0xFFFF, 0x8000, 300)
end = time.monotonic() + 0.2
while time.monotonic() < end:
    sdl.SDL_GameControllerUpdate(); time.sleep(0.01)
sdl.SDL_GameControllerClose(ctypes.c_void_p(pad))
sdl.SDL_Quit()
json.dump(out, open(result, "w"))
print(f"SDL read {len(out['gyro'])} gyro samples from {out['controllers'][-1]}")
