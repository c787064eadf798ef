"""A game's light, inside the local-pads guest: the kernel's own LED path, where a game's colour
ends up (SDL and hidapi write hidraw; the kernel's LED class device is what hid-playstation
turns into the same output report). Finds the host's virtual DualSense (its input device's
name) and its lightbar, the multicolor LED `<input>:rgb:indicator` under its HID device, writes
the colour to `multi_intensity` and 255 (its max_brightness) to `brightness`, so the driver's
intensity x brightness / max_brightness is the colour exactly. hid-playstation sends it to the
host (UHID), which should write it to the owned pad's own LED (docs/LOCAL-PADS.md "Light").
Also records the modes of the owned pad's LED attributes, set by Remotion's udev rule
(the opt-in packaging/60-remotion-pad-light.rules, installed in the guest's /run/udev/rules.d). Writes one
JSON file: the LEDs, the colour, what the kernel answered."""
import glob, json, os, sys, time

COLOUR = [255, 64, 16]


def lightbars():
    """The lightbar LED directory of every DualSense, by its gamepad's input name."""
    found = {}
    for d in sorted(glob.glob("/sys/class/input/input*")):
        try:
            name = open(d + "/name").read().strip()
        except OSError:
            continue
        hid = os.path.realpath(d + "/device")
        for led in glob.glob(hid + "/leds/*:rgb:indicator"):
            found.setdefault(name, led)
    return found


def mode(path):
    try:
        return "%o" % (os.stat(path).st_mode & 0o777)
    except OSError as error:
        return str(error)


def main(result):
    out = {"colour": COLOUR}
    leds = {}
    end = time.monotonic() + 20
    while not ("Remotion virtual DualSense" in leds and "DualSense Wireless Controller" in leds) and time.monotonic() < end:
        leds = lightbars()
        time.sleep(0.1)
    out["leds"] = leds
    owned = leds.get("DualSense Wireless Controller")
    if owned:
        players = sorted(glob.glob(os.path.dirname(owned) + "/*:player-1"))
        out["owned_modes"] = {
            "multi_intensity": mode(owned + "/multi_intensity"), "brightness": mode(owned + "/brightness"),
            "trigger": mode(owned + "/trigger"), "player_brightness": mode(players[0] + "/brightness") if players else None}
        out["owned_before"] = open(owned + "/multi_intensity").read().strip()
    virtual = leds.get("Remotion virtual DualSense")
    if virtual is None:
        out["error"] = "no Remotion virtual DualSense with an rgb:indicator LED"
    else:
        out["max_brightness"] = int(open(virtual + "/max_brightness").read())
        out["multi_index"] = open(virtual + "/multi_index").read().strip()
        with open(virtual + "/multi_intensity", "w") as f:
            f.write(" ".join(map(str, COLOUR)))
        with open(virtual + "/brightness", "w") as f:
            f.write(str(out["max_brightness"]))
        out["virtual_after"] = open(virtual + "/multi_intensity").read().strip()
        time.sleep(1.0)
        if owned:
            out["owned_after"] = open(owned + "/multi_intensity").read().strip()
    json.dump(out, open(result, "w"))
    print(f"the game set the virtual pad's light: {out}")


main(sys.argv[1])
