"""What the guests' evdev readers (gamepad_guest_read.py, localpads_guest_read.py) share: an
evdev ioctl's number and the uniq of the pad that a probe or a UHID emulator says it created.
Standard library only: it runs inside the QEMU guests."""
import json


def ioc(direction, nr, size):
    """_IOC(direction, 'E', nr, size): the number of an evdev ioctl."""
    return (direction << 30) | (size << 16) | (ord("E") << 8) | nr


def created_uniq(probe_out):
    """The uniq in the first {"event": "created"} line of the probe's output; None until one is
    there (the file missing or its last line half written)."""
    try:
        for line in open(probe_out):
            obj = json.loads(line)
            if obj.get("event") == "created":
                return obj["uniq"]
    except (OSError, ValueError):
        pass
    return None
