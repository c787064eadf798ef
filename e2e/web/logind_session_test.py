#!/usr/bin/env python3
"""A fast user switch stops injection (issue 25 item 10), stdlib only.

FAKE LOGIND, and why: systemd-logind cannot run here (no systemd as PID 1), so logind is
python-dbusmock's logind template (/usr/bin/python3 -m dbusmock --template logind) on a
private system bus of this test's own (dbus-daemon with scripts/lib/private-dbus.sh's
config, never the machine's /run/dbus). The host talks to it exactly as to the real one
(GetSession, the session's Active property, its PropertiesChanged signal); flipping Active
is what logind does when another user's session takes the seat.

Run by scripts/logind-session-test.sh inside its own network namespace with a private Xvfb.
The X server is the witness of the pointer buttons (XQueryPointer through libX11 by ctypes).
Checks: a held left button is released when Active turns false; input (a press) and text
are dropped while inactive; when Active turns true again input is injected again.
Prints 'N passed, N failed'.
"""
import argparse, base64, ctypes, json, os, re, socket, ssl, struct, subprocess, sys, time

import raw_page_client

p = argparse.ArgumentParser()
p.add_argument("--bin", required=True)
p.add_argument("--work", required=True)
a = p.parse_args()
passed = failed = 0
children = []


def check(name, ok, detail=""):
    global passed, failed
    passed, failed = (passed + 1, failed) if ok else (passed, failed + 1)
    print(f"{'ok  ' if ok else 'FAIL'} {name} {detail if not ok else ''}")


def finish():
    for c in reversed(children):
        if c.poll() is None:
            c.terminate()
            try:
                c.wait(5)
            except subprocess.TimeoutExpired:
                c.kill()
                c.wait()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def wait_for(pred, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.05)
    return pred()


# ── X: the left button as the server sees it ─────────────────────────────────────────
x11 = ctypes.CDLL("libX11.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XDefaultRootWindow.restype = ctypes.c_ulong
x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x11.XQueryPointer.argtypes = [ctypes.c_void_p, ctypes.c_ulong] + [ctypes.c_void_p] * 2 + [ctypes.c_void_p] * 4 + [ctypes.c_void_p]
dpy = x11.XOpenDisplay(None)
root = x11.XDefaultRootWindow(dpy)


def left_down():
    r, c = ctypes.c_ulong(), ctypes.c_ulong()
    i = [ctypes.c_int() for _ in range(4)]
    mask = ctypes.c_uint()
    x11.XQueryPointer(dpy, root, ctypes.byref(r), ctypes.byref(c), *[ctypes.byref(v) for v in i], ctypes.byref(mask))
    return bool(mask.value & (1 << 8))


# ── a private system bus and the fake logind ──────────────────────────────────────────
conf = subprocess.run(["bash", "-c", f'. scripts/lib/private-dbus.sh; write_private_dbus_conf "{a.work}"'], check=True)
r, w = os.pipe()
bus = subprocess.Popen(["dbus-daemon", "--config-file", os.path.join(a.work, "dbus.conf"), "--nofork",
                        "--print-address", str(w)], pass_fds=(w,), stderr=subprocess.DEVNULL)
children.append(bus)
os.close(w)
address = os.read(r, 4096).decode().strip()   # printed once the bus listens
env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address, XDG_SESSION_ID="c1",
           XDG_CONFIG_HOME=os.path.join(a.work, "config"), XDG_STATE_HOME=os.path.join(a.work, "state"))
mock = subprocess.Popen(["/usr/bin/python3", "-m", "dbusmock", "--system", "--template", "logind"], env=env,
                        stdout=subprocess.DEVNULL, stderr=open(os.path.join(a.work, "dbusmock.err"), "w"))
children.append(mock)


def gdbus(*args):
    return subprocess.run(["gdbus", "call", "--system", "--dest", "org.freedesktop.login1", *args],
                          env=env, capture_output=True, text=True, timeout=10)


# `gdbus wait` returns once the name has an owner: the mock's readiness.
subprocess.run(["gdbus", "wait", "--system", "--timeout", "20", "org.freedesktop.login1"], env=env, check=True)
added = gdbus("--object-path", "/org/freedesktop/login1", "--method", "org.freedesktop.DBus.Mock.AddSession",
              "c1", "seat0", str(os.getuid()), "tester", "true")
check("the fake logind has session c1, active", added.returncode == 0, added.stderr)
session = "/org/freedesktop/login1/session/c1"


def set_active(active):
    v = "true" if active else "false"
    res = gdbus("--object-path", session, "--method", "org.freedesktop.DBus.Mock.UpdateProperties",
                "org.freedesktop.login1.Session", "{'Active': <%s>}" % v)
    return res.returncode == 0


# ── the host and a WebSocket client framed like the page ─────────────────────────────
ready = os.path.join(a.work, "ready.json")
host = subprocess.Popen([a.bin, "host", "--bind", "127.0.0.1", "--port", "0", "--inject", "xtest", "--no-discovery",
                         "--no-dashboard", "--web-port", "0", "--timeout", "30", "--data-dir", os.path.join(a.work, "data"),
                         "--pair-at-start", "--ready-file", ready], stdout=subprocess.DEVNULL,
                        stderr=open(os.path.join(a.work, "host.err"), "w"), env=env)
children.append(host)
if not wait_for(lambda: (os.path.exists(ready) and os.path.getsize(ready) > 0) or host.poll() is not None, 30) \
        or host.poll() is not None:
    check("the host becomes ready", False)
    finish()
# The page's pairing, the host's user accepting it (e2e/web/raw_page_client.py).
addr, port, device = raw_page_client.pair(json.load(open(ready))["pairingURL"], "logind-test", os.path.join(a.work, "data"))
authority = f"{addr}:{port}"
tls = ssl.create_default_context()
tls.check_hostname = False
tls.verify_mode = ssl.CERT_NONE     # the host's own CA; this test checks injection, not the chain
ws = tls.wrap_socket(socket.create_connection((addr, port), timeout=10))
key = base64.b64encode(os.urandom(16)).decode()
ws.sendall(f"GET /ws HTTP/1.1\r\nHost: {authority}\r\nOrigin: https://{authority}\r\nUpgrade: websocket\r\n"
           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
head = b""
while b"\r\n\r\n" not in head:
    head += ws.recv(1)
buffered = b""


def send(obj, opcode=0x1):
    payload, mask = json.dumps(obj).encode(), os.urandom(4)
    n = len(payload)
    header = bytes([0x80 | opcode]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n))
    ws.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def frame():
    """The next text frame from the host (unmasked), as a dict when it is JSON."""
    global buffered
    while True:
        while len(buffered) < 2:
            buffered += ws.recv(65536)
        op, n, at = buffered[0] & 0x0F, buffered[1] & 0x7F, 2
        if n == 126:
            while len(buffered) < 4:
                buffered += ws.recv(65536)
            n, at = struct.unpack(">H", buffered[2:4])[0], 4
        while len(buffered) < at + n:
            buffered += ws.recv(65536)
        payload, buffered = buffered[at:at + n], buffered[at + n:]
        if op == 0x1:
            try:
                return json.loads(payload)
            except ValueError:
                return {}
        if op == 0x9:
            send_raw_pong(payload)


def send_raw_pong(payload):
    mask = os.urandom(4)
    ws.sendall(bytes([0x8A, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def probe():
    """The host's answer to text with nothing to type (a control character): its reason says
    whether it injects. Processed in order after everything sent before it."""
    send({"type": "text", "text": "\u0001"})
    while True:
        f = frame()
        if f.get("type") == "untyped":
            return f.get("message", "")


send({"type": "hello", "v": 1, "id": device["id"], "credential": device["credential"]})
while frame().get("type") not in ("welcome", "refused"):
    pass
ws.settimeout(10)
inactive_reason = "not the active one"

try:
    # A held left button, as the X server sees it.
    send({"type": "click", "button": "left", "down": True})
    check("the phone holds the left button (X sees it down)", wait_for(left_down, 5))

    # Another user's session takes the seat.
    t0 = time.monotonic()
    check("the fake logind turns session c1 inactive", set_active(False))
    released = wait_for(lambda: not left_down(), 6)
    print(f"     released {time.monotonic() - t0:.2f} s after the flip (PropertiesChanged; the 5 s poll is the backstop)")
    check("the host releases the held button (within the 5 s backstop at most)", released)
    reason = wait_for(lambda: inactive_reason in (r := probe()) and r, 6)
    check("text is refused while inactive, saying why", bool(reason), reason)

    # Input while inactive is dropped: a press, then the probe (in order after it).
    send({"type": "click", "button": "left", "down": True})
    reason = probe()
    check("a press while inactive is dropped (X sees the button up)", not left_down() and inactive_reason in reason,
          (left_down(), reason))

    # The host's session is active again.
    send({"type": "click", "button": "left", "down": False})
    check("the fake logind turns session c1 active again", set_active(True))
    reason = wait_for(lambda: inactive_reason not in (r := probe()) and r, 6)
    check("the host injects again once active (text no longer refused for the session)", bool(reason), reason)
    send({"type": "click", "button": "left", "down": True})
    check("a press after resuming reaches X", wait_for(left_down, 5))
    send({"type": "click", "button": "left", "down": False})
    check("... and its release too", wait_for(lambda: not left_down(), 5))
except (OSError, socket.timeout) as e:
    check("the WebSocket session stays up", False, repr(e))
finally:
    finish()
