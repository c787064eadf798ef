"""What the guest's pad emulators share (uhid_ds4.py, uhid_switchpro.py): a device made over
/dev/uhid (linux/uhid.h's events, written and read whole), the loop that answers the kernel
driver's requests while the pad streams its input reports on its own clock, and the scripted
motion. Standard library only; runs as root inside the local-pads guest.

A pad module gives a `Pad` subclass: its identity and report descriptor, `get_report` (a
feature report the driver asks for), `output` (an output report the driver sent),
`report(index, turning, pressed)` (one input report), `period` (seconds per report) and
`dps(report)` (the yaw rate that report carries, °/s, as the driver converts it)."""
import json, os, select, struct, sys, time

UHID_DESTROY, UHID_START, UHID_STOP, UHID_OPEN, UHID_CLOSE, UHID_OUTPUT = 1, 2, 3, 4, 5, 6
UHID_GET_REPORT, UHID_GET_REPORT_REPLY, UHID_CREATE2, UHID_INPUT2 = 9, 10, 11, 12
UHID_SET_REPORT, UHID_SET_REPORT_REPLY = 13, 14
EVENT_SIZE = 4 + 4372          # struct uhid_event: the type, then its largest member (create2)
BUS_USB = 0x03


class Pad:
    name = phys = uniq = ""   # uniq: UHID's (a USB serial); node_uniq: what the driver gives the nodes
    node_uniq = ""
    vendor = product = version = 0
    descriptor = b""
    period = 0.01

    def get_report(self, rnum):
        """The feature report `rnum` (its id first), or None: the request fails (EIO)."""
        return None

    def output(self, data):
        """An output report from the driver; returns the input reports that answer it."""
        return []

    def ready(self, opened):
        """Whether the driver's probe is over and the pad streams (by default: once opened)."""
        return opened

    def report(self, index, turning, pressed):
        raise NotImplementedError


class Device:
    """One UHID device: created on open, destroyed by `close` (or by the fd's closing)."""

    def __init__(self, pad, log):
        self.pad, self.log = pad, log
        self.fd = os.open("/dev/uhid", os.O_RDWR | os.O_CLOEXEC)
        self.opened = False
        body = struct.pack("<128s64s64sHHIIII", pad.name.encode(), pad.phys.encode(), pad.uniq.encode(),
                           len(pad.descriptor), BUS_USB, pad.vendor, pad.product, pad.version, 0)
        self.write(UHID_CREATE2, body + pad.descriptor)

    def write(self, kind, body):
        os.write(self.fd, (struct.pack("<I", kind) + body).ljust(EVENT_SIZE, b"\0"))

    def input(self, data):
        self.write(UHID_INPUT2, struct.pack("<H", len(data)) + bytes(data))

    def serve(self, timeout):
        """Answers every event the kernel has for the pad, waiting at most `timeout` s."""
        while True:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
            if not ready:
                return
            timeout = 0
            event = os.read(self.fd, EVENT_SIZE)
            kind = struct.unpack_from("<I", event)[0]
            if kind == UHID_OPEN:
                self.opened = True
            elif kind == UHID_CLOSE:
                self.opened = False
            elif kind == UHID_GET_REPORT:
                rid, rnum, rtype = struct.unpack_from("<IBB", event, 4)
                data = self.pad.get_report(rnum)
                self.log({"event": "get_report", "report": rnum, "answered": data is not None})
                reply = bytes(data or b"")
                self.write(UHID_GET_REPORT_REPLY, struct.pack("<IHH", rid, 0 if data else 5, len(reply)) + reply)
            elif kind == UHID_SET_REPORT:
                rid = struct.unpack_from("<I", event, 4)[0]
                self.write(UHID_SET_REPORT_REPLY, struct.pack("<IH", rid, 0))
            elif kind == UHID_OUTPUT:
                size = struct.unpack_from("<H", event, 4 + 4096)[0]
                for answer in self.pad.output(event[4:4 + size]):
                    self.input(answer)

    def close(self):
        self.write(UHID_DESTROY, b"")
        os.close(self.fd)


def parse_span(text):
    a, b = (float(x) for x in text.split("-"))
    return a, b


def run(pad, argv):
    """usage: MODULE OUT_JSONL GO_FILE SECONDS TURN_SPAN PRESS_SPAN
    Makes the pad, answers its driver's probe, writes {"event":"created","uniq":…} once the
    driver opened it, streams still reports until GO_FILE exists, then SECONDS of reports on
    the pad's own clock: turning over TURN_SPAN (s from the start, e.g. 0.25-1.75), the button
    held over PRESS_SPAN; then still reports for 0.3 s, destroys the device and writes a
    summary line (every report's index, the yaw it carried, the button and when it was written,
    in s from the turn's start: the kernel's event time, which hid-nintendo's reports are timed by)."""
    out_path, go_file, seconds = argv[0], argv[1], float(argv[2])
    turn, press = parse_span(argv[3]), parse_span(argv[4])
    out = open(out_path, "w", buffering=1)
    log = lambda obj: out.write(json.dumps(obj) + "\n")
    device = Device(pad, log)
    deadline = time.monotonic() + 60
    while not pad.ready(device.opened) and time.monotonic() < deadline:
        device.serve(0.05)
    log({"event": "created", "uniq": pad.node_uniq, "ready": pad.ready(device.opened)})
    index, sent = 0, []
    # Still reports while the host gets ready (a real pad never stops sending).
    next_at = time.monotonic()
    while not os.path.exists(go_file) and time.monotonic() < deadline:
        device.input(pad.report(index, False, False))
        index += 1
        next_at += pad.period
        device.serve(next_at - time.monotonic())
    first = index
    total = int(round((seconds + 0.3) / pad.period))
    # The turn starts on time, not on the still reports' schedule: a starved moment before the
    # go (the host and the reader starting on the one emulated CPU) left that schedule behind,
    # and the turn's first reports went out in a burst to catch up, which a pad on its own
    # clock never does (seen on an idle machine: 2.8 s of turn written in 1.5 s).
    start = max(next_at, time.monotonic())
    for i in range(total):
        at = i * pad.period
        turning, pressed = turn[0] <= at < turn[1], press[0] <= at < press[1] and at < seconds
        if at >= seconds:
            turning = False
        written = time.monotonic()
        device.input(pad.report(index, turning, pressed))
        sent.append([index - first, pad.dps(turning), int(pressed), round(written - start, 6)])
        index += 1
        device.serve(start + (i + 1) * pad.period - time.monotonic())
    late = time.monotonic() - (start + total * pad.period)
    device.close()
    log({"event": "done", "period": pad.period, "reports": sent, "late_s": round(late, 3),
         "go_seen": os.path.exists(go_file)})
    out.close()
    return 0


if __name__ == "__main__":
    sys.exit("use uhid_ds4.py or uhid_switchpro.py")
