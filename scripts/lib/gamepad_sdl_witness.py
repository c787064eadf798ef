"""A witness that games use, inside the gamepad guest: Debian's libSDL2 (loaded through
ctypes; no headers or python bindings needed) opens the probe's virtual DualSense as a PS5
controller through HIDAPI (hidraw), enables its gyro and accelerometer, tells the probe to
go, records what SDL reads (rad/s, m/s²), then asks SDL for rumble. Writes one JSON file."""
import ctypes, json, sys, time

go_file, result = sys.argv[1:3]
sdl = ctypes.CDLL("libSDL2-2.0.so.0")
sdl.SDL_GetError.restype = ctypes.c_char_p
sdl.SDL_GameControllerOpen.restype = ctypes.c_void_p
sdl.SDL_GameControllerName.restype = ctypes.c_char_p
sdl.SDL_GameControllerName.argtypes = [ctypes.c_void_p]
sdl.SDL_GameControllerGetType.argtypes = [ctypes.c_void_p]
sdl.SDL_GameControllerHasSensor.argtypes = [ctypes.c_void_p, ctypes.c_int]
sdl.SDL_GameControllerSetSensorEnabled.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
sdl.SDL_GameControllerGetSensorData.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float), ctypes.c_int]
sdl.SDL_GameControllerGetSerial.restype = ctypes.c_char_p
sdl.SDL_GameControllerGetSerial.argtypes = [ctypes.c_void_p]
SDL_INIT_JOYSTICK, SDL_INIT_GAMECONTROLLER, SDL_INIT_SENSOR = 0x200, 0x2000, 0x8000
SDL_SENSOR_ACCEL, SDL_SENSOR_GYRO, SDL_CONTROLLER_TYPE_PS5 = 1, 2, 7
out = {"controllers": [], "gyro": [], "accel": []}

# Enhanced reports (sensors) over Bluetooth, as games that use gyro ask for them.
sdl.SDL_SetHint(b"SDL_JOYSTICK_HIDAPI_PS5_RUMBLE", b"1")
if sdl.SDL_Init(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER | SDL_INIT_SENSOR) != 0:
    sys.exit(f"SDL_Init: {sdl.SDL_GetError().decode()}")
pad = None
deadline = time.monotonic() + 20
while pad is None and time.monotonic() < deadline:
    sdl.SDL_GameControllerUpdate()
    for i in range(sdl.SDL_NumJoysticks()):
        if not sdl.SDL_IsGameController(i): continue
        gc = sdl.SDL_GameControllerOpen(i)
        if not gc: continue
        kind = sdl.SDL_GameControllerGetType(gc)
        serial = sdl.SDL_GameControllerGetSerial(gc)
        info = {"name": sdl.SDL_GameControllerName(gc).decode(), "type": kind,
                "serial": serial.decode() if serial else None,
                "gyro": bool(sdl.SDL_GameControllerHasSensor(gc, SDL_SENSOR_GYRO)),
                "accel": bool(sdl.SDL_GameControllerHasSensor(gc, SDL_SENSOR_ACCEL))}
        out["controllers"].append(info)
        if kind == SDL_CONTROLLER_TYPE_PS5 and info["gyro"] and info["accel"]:
            pad = gc; break
    if pad is None: time.sleep(0.05)
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
sdl.SDL_GameControllerRumble.argtypes = [ctypes.c_void_p, ctypes.c_uint16, ctypes.c_uint16, ctypes.c_uint32]
out["rumble_rc"] = sdl.SDL_GameControllerRumble(pad, 0xFFFF, 0x8000, 300)
end = time.monotonic() + 0.2
while time.monotonic() < end:
    sdl.SDL_GameControllerUpdate(); time.sleep(0.01)
sdl.SDL_GameControllerClose(ctypes.c_void_p(pad))
sdl.SDL_Quit()
json.dump(out, open(result, "w"))
print(f"SDL read {len(out['gyro'])} gyro samples from {out['controllers'][-1]}")
