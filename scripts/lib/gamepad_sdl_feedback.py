"""A game's rumble and light, inside the gamepad guest: Debian's libSDL2 (through ctypes)
opens the host's virtual DualSense (its controller is a `remotion client`) as a PS5
controller through HIDAPI, sets its lightbar to #ff0040 and rumbles it (low 0xFFFF, high
0x8000) for 400 ms, as a game does; SDL writes both as output reports to the hidraw node and
stops the rumble itself when the 400 ms are over. The host should forward each to the
client (docs/GAMEPAD.md "Rumble and lightbar"). Writes one JSON file."""
import ctypes, json, sys, time

result = sys.argv[1]
sdl = ctypes.CDLL("libSDL2-2.0.so.0")
sdl.SDL_GetError.restype = ctypes.c_char_p
sdl.SDL_GameControllerOpen.restype = ctypes.c_void_p
sdl.SDL_GameControllerGetType.argtypes = [ctypes.c_void_p]
sdl.SDL_GameControllerSetLED.argtypes = [ctypes.c_void_p, ctypes.c_uint8, ctypes.c_uint8, ctypes.c_uint8]
sdl.SDL_GameControllerRumble.argtypes = [ctypes.c_void_p, ctypes.c_uint16, ctypes.c_uint16, ctypes.c_uint32]
sdl.SDL_GameControllerClose.argtypes = [ctypes.c_void_p]
SDL_INIT_JOYSTICK, SDL_INIT_GAMECONTROLLER, SDL_CONTROLLER_TYPE_PS5 = 0x200, 0x2000, 7
out = {}
sdl.SDL_SetHint(b"SDL_JOYSTICK_HIDAPI_PS5_RUMBLE", b"1")
if sdl.SDL_Init(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER) != 0:
    sys.exit(f"SDL_Init: {sdl.SDL_GetError().decode()}")
pad = None
deadline = time.monotonic() + 20
while pad is None and time.monotonic() < deadline:
    sdl.SDL_GameControllerUpdate()
    for i in range(sdl.SDL_NumJoysticks()):
        if not sdl.SDL_IsGameController(i): continue
        gc = sdl.SDL_GameControllerOpen(i)
        if gc and sdl.SDL_GameControllerGetType(gc) == SDL_CONTROLLER_TYPE_PS5:
            pad = gc; break
    if pad is None: time.sleep(0.05)
if pad is None:
    out["error"] = f"no PS5 controller ({sdl.SDL_GetError().decode()})"
    json.dump(out, open(result, "w")); sys.exit(out["error"])
out["led_rc"] = sdl.SDL_GameControllerSetLED(pad, 0xFF, 0x00, 0x40)
out["rumble_rc"] = sdl.SDL_GameControllerRumble(pad, 0xFFFF, 0x8000, 400)
end = time.monotonic() + 1.2          # SDL sends the rumble's end at 400 ms from its update loop
while time.monotonic() < end:
    sdl.SDL_GameControllerUpdate(); time.sleep(0.01)
sdl.SDL_GameControllerClose(pad)
sdl.SDL_Quit()
json.dump(out, open(result, "w"))
print(f"SDL set the light and rumbled: {out}")
