"""Runs inside the gamepad guest: finds a virtual DualSense's evdev nodes by the uniq the
probe printed (or, with "-" for the probe's output, the first pad named "Remotion virtual
DualSense" of any uniq: a host's pad), reads their names, uniq (EVIOCGUNIQ), axis info and
values (EVIOCGABS) and key state (EVIOCGKEY), finds its hidraw node, creates the go file
(the probe's readiness; "-" for none), then records every event of the three nodes until
each is gone (ENODEV). With a fourth argument, creates that file once Cross (BTN_SOUTH)
is down. Writes one JSON file. Standard library only (no python3-evdev)."""
import fcntl, json, os, select, struct, sys, time

from guest_probe import created_uniq, ioc

probe_out, go_file, result = sys.argv[1:4]
south_file = sys.argv[4] if len(sys.argv) > 4 else None
PAD = "Remotion virtual DualSense"
BTN_SOUTH = 0x130
deadline = time.monotonic() + 40

def created():
    return "" if probe_out == "-" else created_uniq(probe_out)

uniq = None
while uniq is None:
    if time.monotonic() > deadline: sys.exit("the probe never said created")
    uniq = created(); time.sleep(0.05)

def nodes():
    found = {}
    for name in os.listdir("/sys/class/input"):
        if not name.startswith("event"): continue
        base = f"/sys/class/input/{name}/device"
        try:
            node_uniq, node_name = open(f"{base}/uniq").read().strip(), open(f"{base}/name").read().strip()
            if (node_uniq == uniq) if uniq else (node_name.startswith(PAD) and node_uniq):
                found.setdefault(node_uniq, {})[name] = node_name
        except OSError:
            pass
    return found

found = {}
while True:
    complete = [(u, f) for u, f in nodes().items() if len(f) == 3]
    if complete:
        uniq, found = complete[0]; break
    if time.monotonic() > deadline: sys.exit(f"no complete pad (uniq {uniq!r}): {nodes()}")
    time.sleep(0.05)

info = {"uniq": uniq, "nodes": {}, "hidraw": []}
fds = {}
for event, name in found.items():
    fd = os.open(f"/dev/input/{event}", os.O_RDONLY | os.O_NONBLOCK)
    buf = bytearray(256)
    n = fcntl.ioctl(fd, ioc(2, 0x08, 256), buf)
    node = {"event": event, "name": name, "uniq": bytes(buf[:max(n - 1, 0)]).decode(), "abs": {}, "events": []}
    for code in range(0x00, 0x06):
        absinfo = bytearray(24)
        try:
            fcntl.ioctl(fd, ioc(2, 0x40 + code, 24), absinfo)
        except OSError:
            continue
        value, lo, hi, fuzz, flat, res = struct.unpack("6i", absinfo)
        node["abs"][code] = {"value": value, "min": lo, "max": hi, "resolution": res}
    keys = bytearray(96)
    fcntl.ioctl(fd, ioc(2, 0x18, 96), keys)
    node["south_at_open"] = (keys[BTN_SOUTH // 8] >> (BTN_SOUTH % 8)) & 1
    info["nodes"][name] = node
    fds[fd] = node
for h in sorted(os.listdir("/sys/class/hidraw")):
    try:
        uevent = open(f"/sys/class/hidraw/{h}/device/uevent").read()
    except OSError:
        continue
    if f"HID_UNIQ={uniq}" in uevent:
        info["hidraw"].append({"node": h, "exists": os.path.exists(f"/dev/{h}"), "uevent": uevent.split()})

if go_file != "-": open(go_file, "w").close()
pad = next(n for k, n in info["nodes"].items() if k == PAD or not k.endswith(("Motion Sensors", "Touchpad")))
south = pad["south_at_open"]
start = time.monotonic()
while fds and time.monotonic() < deadline:
    ready, _, _ = select.select(list(fds), [], [], 1.0)
    for fd in ready:
        try:
            data = os.read(fd, 24 * 64)
        except OSError:  # ENODEV: the device is gone
            fds[fd]["gone_after"] = round(time.monotonic() - start, 3)
            os.close(fd); del fds[fd]; continue
        for i in range(0, len(data) - 23, 24):
            sec, usec, typ, code, value = struct.unpack("qqHHi", data[i:i + 24])
            fds[fd]["events"].append([typ, code, value])
            if fds[fd] is pad and typ == 1 and code == BTN_SOUTH: south = value
    if south_file and south == 1 and not os.path.exists(south_file):
        pad["south_signalled_at"] = round(time.monotonic() - start, 3)
        open(south_file, "w").close()
json.dump(info, open(result, "w"))
print(f"recorded {sum(len(n['events']) for n in info['nodes'].values())} events; {len(fds)} nodes still there")
