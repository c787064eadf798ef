"""A game's rumble, inside the local-pads guest: the kernel's own force-feedback path, the way
a game that uses evdev does it. Finds the host's virtual DualSense (its gamepad node, the one
that takes FF_RUMBLE), uploads one FF_RUMBLE effect (strong 0xFFFF, weak 0x8000, 400 ms) with
EVIOCSFF and plays it by writing an EV_FF event. hid-playstation turns it into an output
report to the host (UHID), which should play it on the owned pad that pad is the twin of
(docs/LOCAL-PADS.md "Rumble"). Writes one JSON file: the node and what the kernel answered."""
import fcntl, glob, json, os, struct, sys, time

EV_FF, FF_RUMBLE = 0x15, 0x50
EVIOCSFF = (1 << 30) | (48 << 16) | (0x45 << 8) | 0x80


def virtual_pad_node():
    for d in sorted(glob.glob("/sys/class/input/event*")):
        try:
            name = open(d + "/device/name").read().strip()
            ff = open(d + "/device/capabilities/ff").read().split()
        except OSError:
            continue
        bits = 0
        for word in ff:   # longs, the highest first: FF_RUMBLE (80) is in the second
            bits = (bits << 64) | int(word, 16)
        if name == "Remotion virtual DualSense" and bits & (1 << FF_RUMBLE):
            return "/dev/input/" + os.path.basename(d)
    return None


def main(result):
    out = {}
    node = None
    end = time.monotonic() + 20
    while node is None and time.monotonic() < end:
        node = virtual_pad_node()
        time.sleep(0.1)
    out["node"] = node
    if node is None:
        out["error"] = "no Remotion virtual DualSense with FF_RUMBLE"
    else:
        fd = os.open(node, os.O_RDWR)
        # struct ff_effect (64-bit): type, id (-1: new), direction, trigger (2 x u16),
        # replay (length ms, delay), 2 bytes of padding, then the union: strong, weak.
        effect = bytearray(struct.pack("<HhHHHHHxx", FF_RUMBLE, -1, 0, 0, 0, 400, 0) + struct.pack("<HH", 0xFFFF, 0x8000)
                           + bytes(28))
        fcntl.ioctl(fd, EVIOCSFF, effect, True)
        out["effect_id"] = struct.unpack_from("<h", effect, 2)[0]
        os.write(fd, struct.pack("<qqHHi", 0, 0, EV_FF, out["effect_id"], 1))
        time.sleep(1.0)
        os.close(fd)
    json.dump(out, open(result, "w"))
    print(f"the game rumbled the virtual pad: {out}")


main(sys.argv[1])
