"""A Nintendo Switch Pro Controller (USB: 057e:2009) over UHID for the local-pads guest,
answering Linux 6.1's hid-nintendo (drivers/hid/hid-nintendo.c) the way the pad does. The
driver's probe (joycon_init, joycon_read_info, joycon_leds_create) waits for each answer:
  USB commands, output report 0x80 CMD: 0x02 handshake, 0x03 3 Mbit/s, 0x02 again, each
    answered by input report 0x81 CMD; 0x04 (no timeout) gets no answer (the driver waits
    100 ms twice and goes on, as with the pad).
  UART subcommands, output report 0x01 (packet number, 8 bytes of rumble, the subcommand at
    10, its data from 11), each answered by input report 0x21 with the ack at 13 and the
    subcommand at 14: SPI flash reads 0x10 (address u32 LE, size; the reply repeats both,
    then the bytes) of the user-calibration magics at 0x8010, 0x801B, 0x8026 (absent: FF FF),
    the sticks' factory calibration at 0x603D and 0x6046 and the IMU's at 0x6020 (24 bytes);
    report mode 0x03 (0x30), rumble 0x48, IMU 0x40, device info 0x02 (type 3: a Pro
    Controller, the MAC at 4-9, which becomes the nodes' uniq), player lights 0x30, home
    light 0x38.
Then input report 0x30 every 15 ms (the driver's figure for the Pro Controller on USB): the
buttons at 3-5 (B is bit 2 of 3: BTN_SOUTH), sticks at 6-11, and three IMU samples from 13,
each accelerometer x/y/z then gyro x/y/z, int16 LE.

The IMU calibration (offsets 0, accelerometer scale 16384, gyro scale 13371) makes the
driver's values 1000 × raw for the gyro (JC_IMU_GYRO_RES_PER_DPS 14247: 14.247 raw per °/s)
and raw for the accelerometer (4096 per g). Its frame: X toward the triggers, Y left, Z up,
so a right turn of a flat pad is negative about Z: raw −1282 is −89.98 °/s on ABS_RZ; lying
flat, ABS_Z reads +1 g.

usage: uhid_switchpro.py OUT_JSONL GO_FILE SECONDS TURN_SPAN PRESS_SPAN (uhid_pad.run)"""
import os, struct, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uhid_pad import Pad, run  # noqa: E402

MAC = bytes([0x98, 0xB6, 0xE9, 0x12, 0x34, 0x56])
YAW_RAW, RAW_PER_DPS = -1282, 14.247
DESCRIPTOR = bytes.fromhex(
    "050115000904a1018530050105091901290a150025017501950a5500650081020509190b290e150025017501"
    "950481027501950281030b01000100a1000b300001000b310001000b320001000b35000100150027ffff0000"
    "751095048102c00b39000100150025073500463b016514750495018102050919 0f2912150025017501950481"
    "027508953481030600ff852109017508953f8103858109027508953f8103850109037508953f9183851009"
    "047508953f9183858009057508953f9183858209067508953f9183c0".replace(" ", ""))


def pair12(a, b):
    """Two 12-bit values as the pad packs them in 3 bytes."""
    return bytes([a & 0xFF, (a >> 8) | ((b & 0xF) << 4), b >> 4])


def flash():
    """The SPI flash the driver reads: no user calibration, factory sticks centred at 2048
    with 1500 either way, and the IMU calibration above."""
    left = pair12(1500, 1500) + pair12(2048, 2048) + pair12(1500, 1500)    # max above, centre, min below
    right = pair12(2048, 2048) + pair12(1500, 1500) + pair12(1500, 1500)   # centre, min below, max above
    imu = struct.pack("<12h", 0, 0, 0, 16384, 16384, 16384, 0, 0, 0, 13371, 13371, 13371)
    return {0x8010: b"\xff\xff", 0x801B: b"\xff\xff", 0x8026: b"\xff\xff", 0x603D: left, 0x6046: right, 0x6020: imu}


class SwitchPro(Pad):
    name = "Nintendo Co., Ltd. Pro Controller"
    phys = "usb-0000:00:14.0-3/input0"
    uniq = "000000000001"
    node_uniq = ":".join(f"{b:02X}" for b in MAC)
    vendor, product, version = 0x057E, 0x2009, 0x0200
    descriptor = DESCRIPTOR
    period = 0.015

    def __init__(self):
        self.flash, self.timer, self.imu, self.mode = flash(), 0, False, None
        self.subcommands = []

    def ready(self, opened):
        # The probe is over once the driver set the player lights and the home light.
        return opened and 0x38 in self.subcommands

    def header(self, kind, pressed=False):
        self.timer = (self.timer + 1) & 0xFF
        r = bytearray(64)
        r[0], r[1], r[2] = kind, self.timer, 0x81          # battery full, powered
        r[3] = 0x04 if pressed else 0                      # B
        r[6:9] = r[9:12] = pair12(2048, 2048)
        return r

    def output(self, data):
        if len(data) >= 2 and data[0] == 0x80:
            if data[1] == 0x04:
                return []
            return [bytes([0x81, data[1]]).ljust(64, b"\0")]
        if len(data) < 11 or data[0] != 0x01:
            return []                                        # rumble only (0x10): nothing to say
        sub, args = data[10], data[11:]
        self.subcommands.append(sub)
        r = self.header(0x21)
        r[13], r[14], reply = 0x80, sub, b""
        if sub == 0x02:
            r[13], reply = 0x82, bytes([0x04, 0x33, 0x03, 0x02]) + MAC + b"\x01\x01"
        elif sub == 0x10:
            address, size = struct.unpack_from("<IB", args)
            r[13], reply = 0x90, bytes(args[:5]) + self.flash.get(address, b"\xff" * size)[:size].ljust(size, b"\xff")
        elif sub == 0x03:
            self.mode = args[0]
        elif sub == 0x40:
            self.imu = args[0] == 1
        r[15:15 + len(reply)] = reply
        return [bytes(r)]

    def dps(self, turning):
        return YAW_RAW / RAW_PER_DPS if turning else 0.0

    def report(self, index, turning, pressed):
        r = self.header(0x30, pressed)
        for sample in range(3):
            struct.pack_into("<6h", r, 13 + 12 * sample, 0, 0, 4096, 0, 0, YAW_RAW if turning else 0)
        return bytes(r)


if __name__ == "__main__":
    sys.exit(run(SwitchPro(), sys.argv[1:]))
