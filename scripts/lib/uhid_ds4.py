"""A DualShock 4 (v2, USB: 054c:09cc) over UHID for the local-pads guest, answering both of
Linux's drivers for it the way the pad does. 6.1's hid-sony (drivers/hid/hid-sony.c: its probe,
sony_input_configured, fails without each of three feature reports) asks 0x81 (7 bytes: the
MAC at 1-6, little-endian; the driver prints it reversed into uniq), 0x02 (37 bytes: the motion
calibration, USB order) and 0xA3 (49 bytes: versions); from 6.2 hid-playstation takes the pad
(dualshock4_create) and asks 0x02 and 0xA3 the same, but the MAC as 0x12 (16 bytes, the MAC at
1-6). Either then sends output report 0x05 (the light bar).

Input report 0x01, 64 bytes, every 4 ms as on USB (250 Hz; an earlier stage sent every 10 ms
after a run beside a loaded machine in which the host dropped 494 events; with the witness
that waits on the kernel, 250 Hz reads exactly even beside two busy loops on both cores):
sticks at 1-4, the hat in the
low nibble of 5 and Square/Cross/Circle/Triangle in its bits 4-7, a u16 clock at 10-11 in
units of 16/3 µs (1875 per 10 ms report, 750 per 4 ms), gyro pitch/yaw/roll at 13-18 and accelerometer x/y/z at
19-24 (int16 LE), battery at 30, touch points at 35 and 39 (bit 7 set: no finger).

The calibration says 16.4 raw per °/s (bias 0, ±8856 at speed 540) and 8192 raw per g
(±8192), so the kernel's ABS_RY = mult_frac(1080·1024, raw, 17712): raw −1476 is exactly
−90 °/s (−92160 at 1024 per °/s). hid-sony's frame is hid-playstation's: ABS_RY is the yaw,
+ turning left, so a right turn is −90; lying flat, ABS_Y reads +1 g.

usage: uhid_ds4.py OUT_JSONL GO_FILE SECONDS TURN_SPAN PRESS_SPAN [REPORTS_PER_S] (uhid_pad.run;
250 by default)"""
import struct, sys, os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uhid_pad import Pad, run  # noqa: E402

MAC = bytes([0x56, 0x34, 0x12, 0x51, 0xAB, 0xA4])      # a4:ab:51:12:34:56, little-endian
YAW_RAW, RAW_PER_DPS = -1476, 16.4


def descriptor():
    """The pad's own report descriptor (507 bytes): input 0x01, output 0x05, its feature reports."""
    d = bytes.fromhex(
        "05010905a101850109300931093209351500 26ff00750895048102"
        "0939150025073500463b0165147504950181426500"
        "0509190129 0e150025017501950e8102 0600ff0920750695011500257f8102"
        "0501093309341500 26ff00750895028102 0600ff092195368102 8505092295 1f9102".replace(" ", ""))
    pages = [(None, [(0x04, 0x23, 0x24), (0x02, 0x24, 0x24), (0x08, 0x25, 0x03), (0x10, 0x26, 0x04), (0x11, 0x27, 0x02)]),
             (0xFF02, [(0x12, 0x21, 0x0F), (0x13, 0x22, 0x16)]),
             (0xFF05, [(0x14, 0x20, 0x10), (0x15, 0x21, 0x2C)]),
             (0xFF80, [(0x80, 0x20, 6), (0x81, 0x21, 6), (0x82, 0x22, 5), (0x83, 0x23, 1), (0x84, 0x24, 4),
                       (0x85, 0x25, 6), (0x86, 0x26, 6), (0x87, 0x27, 0x23), (0x88, 0x28, 0x22), (0x89, 0x29, 2),
                       (0x90, 0x30, 5), (0x91, 0x31, 3), (0x92, 0x32, 3), (0x93, 0x33, 0x0C), (0xA0, 0x40, 6),
                       (0xA1, 0x41, 1), (0xA2, 0x42, 1), (0xA3, 0x43, 0x30), (0xA4, 0x44, 0x0D), (0xA5, 0x45, 0x15),
                       (0xA6, 0x46, 0x15), (0xF0, 0x47, 0x3F), (0xF1, 0x48, 0x3F), (0xF2, 0x49, 0x0F), (0xA7, 0x4A, 1),
                       (0xA8, 0x4B, 1), (0xA9, 0x4C, 8), (0xAA, 0x4E, 1), (0xAB, 0x4F, 0x39), (0xAC, 0x50, 0x39),
                       (0xAD, 0x51, 0x0B), (0xAE, 0x52, 1), (0xAF, 0x53, 2), (0xB0, 0x54, 0x3F), (0xB1, 0x55, 2),
                       (0xB2, 0x56, 2), (0xE0, 0x57, 2), (0xB3, 0x55, 0x3F), (0xB4, 0x55, 0x3F)])]
    for page, reports in pages:
        if page is not None:
            d += bytes([0x06, page & 0xFF, page >> 8])
        for rid, usage, count in reports:
            d += bytes([0x85, rid, 0x09, usage, 0x95, count, 0xB1, 0x02])
    return d + b"\xc0"


class DualShock4(Pad):
    name = "Sony Interactive Entertainment Wireless Controller"
    phys = "usb-0000:00:14.0-2/input0"
    node_uniq = ":".join(f"{b:02x}" for b in reversed(MAC))
    vendor, product, version = 0x054C, 0x09CC, 0x0100
    descriptor = descriptor()
    def __init__(self, rate=250):
        self.period = 1 / rate
        self.ticks = round(self.period * 1e6 * 3 / 16)        # the clock's units per report

    def get_report(self, rnum):
        if rnum == 0x81:                                 # hid-sony (6.1): the MAC
            return bytes([0x81]) + MAC
        if rnum == 0x12:                                 # hid-playstation (6.2 on): the pairing info, MAC at 1-6
            return (bytes([0x12]) + MAC).ljust(16, b"\0")
        if rnum == 0x02:
            gyro = [0, 0, 0, 8856, -8856, 8856, -8856, 8856, -8856, 540, 540]   # biases, ±pitch/yaw/roll, speed
            accel = [8192, -8192] * 3
            return (bytes([0x02]) + struct.pack("<17h", *(gyro + accel))).ljust(37, b"\0")
        if rnum == 0xA3:
            data = bytearray(49)
            data[0] = 0xA3
            struct.pack_into("<H", data, 35, 0x0100)     # hardware version
            struct.pack_into("<H", data, 41, 0x8001)     # firmware version
            return bytes(data)
        return None

    def dps(self, turning):
        return YAW_RAW / RAW_PER_DPS if turning else 0.0

    def report(self, index, turning, pressed):
        r = bytearray(64)
        r[0] = 0x01
        r[1:5] = b"\x80\x80\x80\x80"
        r[5] = 0x08 | (0x20 if pressed else 0)           # hat released, Cross
        r[7] = (index << 2) & 0xFC                       # the report counter
        struct.pack_into("<H", r, 10, (index * self.ticks) & 0xFFFF)
        struct.pack_into("<6h", r, 13, 0, YAW_RAW if turning else 0, 0, 0, 8192, 0)
        r[30] = 0x1B                                     # cable in, full
        r[35] = r[39] = 0x80                             # no finger on the touchpad
        return bytes(r)


if __name__ == "__main__":
    sys.exit(run(DualShock4(*(int(a) for a in sys.argv[6:7])), sys.argv[1:6]))
