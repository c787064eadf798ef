"""Runs inside the local-pads guest: the witness of what the pad sent. Finds the Motion
Sensors (or hid-nintendo's IMU) node and the hidraw node of the pad that `remotion
gamepad-probe` or a UHID emulator (uhid_ds4.py, uhid_switchpro.py) made (by the uniq it
printed), reads the node's EVIOCGABS, waits until the host under test has the
pad (its process holds the motion node and the gamepad node open, /proc/PID/fd), the kernel
has made a virtual DualSense and udev has settled what that made, so the turn is measured on a
guest that has finished setting the pad up, then creates the probe's go file and records every input report on hidraw (the DualSense's Bluetooth 0x31
report: gyro at bytes 17–22, the sensor clock in thirds of a µs at 29–32) and every frame a
second reader of the evdev node gets (none while the host grabs it), until the node is gone
(ENODEV). Writes one JSON file. Standard library only (no python3-evdev).

usage: localpads_guest_read.py PROBE_OUT HOST_PID GO_FILE RESULT_JSON"""
import fcntl, json, os, select, struct, subprocess, sys, time

from guest_probe import created_uniq, ioc

probe_out, host_pid, go_file, result = sys.argv[1:5]
deadline = time.monotonic() + 120
EV_SYN, EV_ABS, EV_MSC, MSC_TIMESTAMP = 0, 3, 4, 5


def created():
    return created_uniq(probe_out)


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
                    and open(f"{base}/name").read().strip().endswith(("Motion Sensors", " IMU", " (IMU)")):
                return f"/dev/input/{name}"
        except OSError:
            pass
    return None


node = wait("the pad's Motion Sensors node", motion_node)


def hidraw_node():
    """The hidraw node of the same HID device (hid-nintendo leaves the HID uniq alone)."""
    parent = os.path.realpath(f"/sys/class/input/{os.path.basename(node)}/device/device")
    for name in sorted(os.listdir("/sys/class/hidraw")):
        if os.path.realpath(f"/sys/class/hidraw/{name}/device") == parent:
            return f"/dev/{name}"
    return None


hidraw = wait("the pad's hidraw node", hidraw_node)
hid = os.open(hidraw, os.O_RDONLY | os.O_NONBLOCK)
fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
axes = {}
for code in range(6):
    info = bytearray(24)
    fcntl.ioctl(fd, ioc(2, 0x40 + code, 24), info)
    axes[code] = dict(zip(("value", "min", "max", "fuzz", "flat", "resolution"), struct.unpack("6i", info)))


def host_fds():
    """What the host's process holds open (the kernel's word, /proc/PID/fd)."""
    try:
        return {os.path.realpath(f"/proc/{host_pid}/fd/{f}") for f in os.listdir(f"/proc/{host_pid}/fd")}
    except OSError:
        return set()


def sibling_nodes():
    """The pad's other event nodes (its gamepad node, a touchpad): the same HID parent."""
    parent = os.path.realpath(f"/sys/class/input/{os.path.basename(node)}/device/device")
    found = []
    for name in sorted(os.listdir("/sys/class/input")):
        path = f"/dev/input/{name}"
        if name.startswith("event") and path != node and \
                os.path.realpath(f"/sys/class/input/{name}/device/device") == parent:
            found.append(path)
    return found


def host_has_the_pad():
    """The host reads the pad: its process holds the pad's motion node and its gamepad node
    open. Asked of the kernel, not of the host: a debug host in a starved TCG guest once took
    more than 100 s to answer its status while it read the pad all along."""
    fds = host_fds()
    ready = node in fds and any(s in fds for s in sibling_nodes())
    if not ready:
        time.sleep(0.1)
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
