"""A game's rumble and light, inside the gamepad guest: Debian's libSDL2 (through ctypes)
opens the host's virtual DualSense (its controller is a `remotion client`) as a PS5
controller through HIDAPI, sets its lightbar to #ff0040 and rumbles it (low 0xFFFF, high
0x8000) for 400 ms, as a game does; SDL writes both as output reports to the hidraw node and
stops the rumble itself when the 400 ms are over. The host should forward each to the
client (docs/GAMEPAD.md "Rumble and lightbar"). Writes one JSON file."""
import json, sys
from gamepad_sdl import SDL_INIT_JOYSTICK, SDL_INIT_GAMECONTROLLER, game_feedback, load, open_ps5

result = sys.argv[1]
out = {}
sdl = load(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER)
pad = open_ps5(sdl)
if pad is None:
    out["error"] = f"no PS5 controller ({sdl.SDL_GetError().decode()})"
    json.dump(out, open(result, "w")); sys.exit(out["error"])
out.update(game_feedback(sdl, pad, sdl.SDL_GameControllerUpdate))
sdl.SDL_GameControllerClose(pad)
sdl.SDL_Quit()
json.dump(out, open(result, "w"))
print(f"SDL set the light and rumbled: {out}")
