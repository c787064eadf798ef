"""A game's rumble and light, inside the gamepad guest: Debian's libSDL2 (through ctypes)
opens the host's virtual DualSense (its controller is a `remotion client`) as a PS5
controller through HIDAPI, sets its lightbar to #ff0040 and rumbles it (low 0xFFFF, high
0x8000) for 400 ms, as a game does; SDL writes both as output reports to the hidraw node and
stops the rumble itself when the 400 ms are over. The host should forward each to the
client (docs/GAMEPAD.md "Rumble and lightbar"). Writes one JSON file."""
import json, sys, time
from gamepad_sdl import SDL_INIT_JOYSTICK, SDL_INIT_GAMECONTROLLER, load, open_ps5

result = sys.argv[1]
out = {}
sdl = load(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER)
pad = open_ps5(sdl)
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
