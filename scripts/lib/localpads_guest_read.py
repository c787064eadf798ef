"""Runs inside the local-pads guest: the witness of what the pad sent. Finds the Motion
Sensors node and the hidraw node of the DualSense that `remotion gamepad-probe` made (by the
uniq the probe printed), reads the node's EVIOCGABS, waits until the host under test has the
pad (its status, GET /api/snapshot: the node read with its gamepad node, the pad's controller
with its virtual DualSense) and udev has settled what that made, so the turn is measured on a
guest that has finished setting the pad up, then creates the probe's go file and records every input report on hidraw (the Bluetooth 0x31
report: gyro at bytes 17–22, the sensor clock in thirds of a µs at 29–32) and every frame a
second reader of the evdev node gets (none while the host grabs it), until the node is gone
(ENODEV). Writes one JSON file. Standard library only (no python3-evdev).

usage: localpads_guest_read.py PROBE_OUT DASHBOARD_PORT GO_FILE RESULT_JSON"""
import fcntl, json, os, select, struct, subprocess, sys, time, urllib.request

probe_out, dashboard_port, go_file, result = sys.argv[1:5]
deadline = time.monotonic() + 120
EV_SYN, EV_ABS, EV_MSC, MSC_TIMESTAMP = 0, 3, 4, 5


def ioc(direction, nr, size):
    return (direction << 30) | (size << 16) | (ord("E") << 8) | nr


def created():
    try:
        for line in open(probe_out):
            obj = json.loads(line)
            if obj.get("event") == "created":
                return obj["uniq"]
    except (OSError, ValueError):
        pass
    return None


def wait(what, probe):
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            sys.exit(f"timed out waiting for {what}")
        time.sleep(0.05)


uniq = wait("the probe's created line", created)


def motion_node():
    for name in sorted(os.listdir("/sys/class/input")):
        base = f"/sys/class/input/{name}/device"
        try:
            if name.startswith("event") and open(f"{base}/uniq").read().strip() == uniq \
                    and open(f"{base}/name").read().strip().endswith("Motion Sensors"):
                return f"/dev/input/{name}"
        except OSError:
            pass
    return None


node = wait("the pad's Motion Sensors node", motion_node)


def hidraw_node():
    for name in sorted(os.listdir("/sys/class/hidraw")):
        try:
            if f"HID_UNIQ={uniq}" in open(f"/sys/class/hidraw/{name}/device/uevent").read().split():
                return f"/dev/{name}"
        except OSError:
            pass
    return None


hidraw = wait("the pad's hidraw node", hidraw_node)
hid = os.open(hidraw, os.O_RDONLY | os.O_NONBLOCK)
fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
axes = {}
for code in range(6):
    info = bytearray(24)
    fcntl.ioctl(fd, ioc(2, 0x40 + code, 24), info)
    axes[code] = dict(zip(("value", "min", "max", "fuzz", "flat", "resolution"), struct.unpack("6i", info)))


def host_has_the_pad():
    try:
        status = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{dashboard_port}/api/snapshot",
                                                   timeout=60).read())
    except (OSError, ValueError):
        return False
    reading = (status.get("localPads") or {}).get("reading") or []
    controllers = status.get("controllers") or []
    ready = any(p.get("motionNode") == node and p.get("gamepadNode") for p in reading) and \
        any(c.get("address") == f"local pad {node}" and c.get("pad") is True for c in controllers)
    if not ready:
        time.sleep(0.45)   # a status is not free for a starved host: about two asks a second
    return ready


def virtual_motion_node():
    for name in sorted(os.listdir("/sys/class/input")):
        try:
            if name.startswith("event") and open(f"/sys/class/input/{name}/device/name").read().strip() \
                    == "Remotion virtual DualSense Motion Sensors":
                return name
        except OSError:
            pass
    return None


wait(f"the host to read {node} and give its controller a virtual DualSense", host_has_the_pad)
wait("the kernel to make the virtual DualSense's Motion Sensors node", virtual_motion_node)
subprocess.run(["udevadm", "settle", "-t", "30"], check=False)
open(go_file, "w").close()
values = [axes[c]["value"] for c in range(6)]
frames, reports, pending, gone = [], [], None, None
while gone is None and time.monotonic() < deadline:
    ready, _, _ = select.select([fd, hid], [], [], 0.5)
    if hid in ready:
        try:
            report = os.read(hid, 128)
            if len(report) >= 33 and report[0] == 0x31:
                gx, gy, gz = struct.unpack_from("<3h", report, 17)
                reports.append([struct.unpack_from("<I", report, 29)[0], gx, gy, gz])
        except OSError:
            pass
    if fd not in ready:
        continue
    try:
        data = os.read(fd, 24 * 64)
    except BlockingIOError:
        continue
    except OSError as error:
        gone = error.strerror
        break
    for at in range(0, len(data) - len(data) % 24, 24):
        _, _, kind, code, value = struct.unpack("qqHHi", data[at:at + 24])
        if kind == EV_ABS and code < 6:
            values[code] = value
        elif kind == EV_MSC and code == MSC_TIMESTAMP:
            pending = value & 0xFFFFFFFF
        elif kind == EV_SYN and code == 0:
            frames.append([pending] + values[3:6])
            pending = None
json.dump({"node": node, "hidraw": hidraw, "uniq": uniq, "axes": axes, "frames": frames, "reports": reports,
           "gone": gone}, open(result, "w"))
