"""Debian's libSDL2 through ctypes (no headers or python bindings in the guest), shared by the
gamepad guest's SDL witnesses: `load` sets the signatures they use, asks for enhanced
reports (sensors, rumble) as games that use gyro do, and starts SDL; `open_ps5` waits for a
PS5 controller that `accept` takes and opens it."""
import ctypes, sys, time

SDL_INIT_JOYSTICK, SDL_INIT_GAMECONTROLLER, SDL_INIT_SENSOR = 0x200, 0x2000, 0x8000
SDL_SENSOR_ACCEL, SDL_SENSOR_GYRO, SDL_CONTROLLER_TYPE_PS5 = 1, 2, 7


def load(flags):
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
    sdl.SDL_GameControllerSetLED.argtypes = [ctypes.c_void_p, ctypes.c_uint8, ctypes.c_uint8, ctypes.c_uint8]
    sdl.SDL_GameControllerRumble.argtypes = [ctypes.c_void_p, ctypes.c_uint16, ctypes.c_uint16, ctypes.c_uint32]
    sdl.SDL_GameControllerClose.argtypes = [ctypes.c_void_p]
    sdl.SDL_GameControllerGetNumTouchpads.argtypes = [ctypes.c_void_p]
    sdl.SDL_GameControllerGetNumTouchpadFingers.argtypes = [ctypes.c_void_p, ctypes.c_int]
    sdl.SDL_GameControllerGetTouchpadFinger.argtypes = [
        ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_uint8),
        ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_float)]
    # Enhanced reports (sensors) over Bluetooth, as games that use gyro ask for them.
    sdl.SDL_SetHint(b"SDL_JOYSTICK_HIDAPI_PS5_RUMBLE", b"1")
    if sdl.SDL_Init(flags) != 0:
        sys.exit(f"SDL_Init: {sdl.SDL_GetError().decode()}")
    return sdl


def game_feedback(sdl, pad, update):
    """What a game does for rumble and light: lights `pad` #ff0040 and rumbles it (low 0xFFFF,
    high 0x8000, 400 ms), then keeps calling `update` for 1.2 s, since SDL sends the rumble's
    end from its update loop at 400 ms. The calls' results."""
    done = {"led_rc": sdl.SDL_GameControllerSetLED(pad, 0xFF, 0x00, 0x40),
            "rumble_rc": sdl.SDL_GameControllerRumble(pad, 0xFFFF, 0x8000, 400)}
    end = time.monotonic() + 1.2
    while time.monotonic() < end:
        update()
        time.sleep(0.01)
    return done


def with_sensors(sdl, controllers):
    """An `accept` for open_ps5: records each game controller SDL offers in `controllers` (name,
    type, serial, whether it has a gyro and an accelerometer) and takes one that has both."""
    def accept(gc):
        serial = sdl.SDL_GameControllerGetSerial(gc)
        info = {"name": sdl.SDL_GameControllerName(gc).decode(), "type": sdl.SDL_GameControllerGetType(gc),
                "serial": serial.decode() if serial else None,
                "gyro": bool(sdl.SDL_GameControllerHasSensor(gc, SDL_SENSOR_GYRO)),
                "accel": bool(sdl.SDL_GameControllerHasSensor(gc, SDL_SENSOR_ACCEL))}
        controllers.append(info)
        return info["gyro"] and info["accel"]
    return accept


def open_ps5(sdl, accept=lambda gc: True, seconds=20):
    """The first PS5 controller `accept` takes (it sees every game controller opened), opened;
    None after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        sdl.SDL_GameControllerUpdate()
        for i in range(sdl.SDL_NumJoysticks()):
            if not sdl.SDL_IsGameController(i): continue
            gc = sdl.SDL_GameControllerOpen(i)
            if gc and accept(gc) and sdl.SDL_GameControllerGetType(gc) == SDL_CONTROLLER_TYPE_PS5:
                return gc
        time.sleep(0.05)
    return None
