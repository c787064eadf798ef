#!/usr/bin/env python3
"""The XTest keymap borrowed for typing is given back, stdlib only.

Run by scripts/xtest-keymap-test.sh inside its own network namespace with a private Xvfb
(DISPLAY set). Starts `remotion host --inject xtest` (XDG_STATE_HOME in --work), pairs a
WebSocket client framed like the page and types characters that have no key, so the host
borrows a spare keycode. The X server is the witness (XGetKeyboardMapping by ctypes). Checks:
  1. while borrowed, the keycode is recorded in $XDG_STATE_HOME/remotion/xtest-keymap-* (0600);
  2. about 1 s after the text the host gives it back by itself (still running);
  3. SIGKILL right after a text leaves the keycode altered; the next start gives it back
     and removes the record;
  4. a keycode someone else remapped after we borrowed it (MappingNotify) is left alone;
  5. SIGHUP stops the host cleanly (exit 0) and gives the keycode back.
Prints 'N passed, N failed'.
"""
import argparse, base64, ctypes, glob, json, os, re, signal, socket, struct, subprocess, sys, time

import raw_page_client

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from host_process import wait as wait_for  # noqa: E402  (the suite's one bounded wait)

p = argparse.ArgumentParser()
p.add_argument("--bin", required=True)
p.add_argument("--work", required=True)
a = p.parse_args()
check = raw_page_client.CHECKS.check


x11 = ctypes.CDLL("libX11.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XGetKeyboardMapping.restype = ctypes.POINTER(ctypes.c_ulong)
x11.XGetKeyboardMapping.argtypes = [ctypes.c_void_p, ctypes.c_ubyte, ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
x11.XDisplayKeycodes.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]
x11.XChangeKeyboardMapping.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_ulong), ctypes.c_int]
x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
x11.XFree.argtypes = [ctypes.c_void_p]
dpy = x11.XOpenDisplay(None)
if not dpy:
    print("cannot open the X display"); print("0 passed, 1 failed"); sys.exit(1)
X_F13 = 0xffca


def keymap():
    """keycode → tuple of keysyms, read from the X server now (a fresh connection's view)."""
    x11.XSync(dpy, 0)
    lo, hi, per = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    x11.XDisplayKeycodes(dpy, ctypes.byref(lo), ctypes.byref(hi))
    m = x11.XGetKeyboardMapping(dpy, lo.value, hi.value - lo.value + 1, ctypes.byref(per))
    out = {c: tuple(m[(c - lo.value) * per.value + i] for i in range(per.value)) for c in range(lo.value, hi.value + 1)}
    x11.XFree(m)
    return out


def remap(code, syms):
    arr = (ctypes.c_ulong * max(1, len(syms)))(*(syms or [0]))
    x11.XChangeKeyboardMapping(dpy, code, max(1, len(syms)), arr, 1)
    x11.XSync(dpy, 0)




env = dict(os.environ, XDG_STATE_HOME=os.path.join(a.work, "state"), XDG_CONFIG_HOME=os.path.join(a.work, "config"))
record_glob = os.path.join(a.work, "state", "remotion", "xtest-keymap-*")
hosts = []


def start_host(n):
    ready = os.path.join(a.work, f"ready{n}.json")
    h = subprocess.Popen([a.bin, "host", "--bind", "127.0.0.1", "--port", "0", "--inject", "xtest", "--no-discovery",
                          "--no-dashboard", "--web-port", "0", "--data-dir", os.path.join(a.work, "data"),
                          "--pair-at-start", "--ready-file", ready], stdout=subprocess.DEVNULL,
                         stderr=open(os.path.join(a.work, f"host{n}.err"), "w"), env=env)
    hosts.append(h)
    # The ready file is the host's readiness signal (written once every listener is up).
    if not wait_for(lambda: os.path.exists(ready) and os.path.getsize(ready) > 0 or h.poll() is not None, 30) or h.poll() is not None:
        check(f"host {n} becomes ready", False, open(os.path.join(a.work, f"host{n}.err")).read()[-500:])
        finish()
    return h, json.load(open(ready))


def finish():
    for h in hosts:
        if h.poll() is None:
            h.kill()
            h.wait()
    raw_page_client.CHECKS.finish()


tls = raw_page_client.host_tls()     # the host's own CA; this test checks the keymap, not the chain
device = None


def connect(ready):
    """Pairs once (POST /api/pair with the ready file's link), then opens a WebSocket session."""
    global device
    m = re.match(r"https://([^/]+):(\d+)/#pair=([^&]+)", ready["pairingURL"])
    addr, port, secret = m.group(1), int(m.group(2)), m.group(3)
    authority = f"{addr}:{port}"
    if device is None:
        # The page's pairing, the host's user accepting it (e2e/web/raw_page_client.py).
        _, _, device = raw_page_client.pair(ready["pairingURL"], "keymap-test", os.path.join(a.work, "data"))
    ws = tls.wrap_socket(socket.create_connection((addr, port), timeout=10))
    key = base64.b64encode(os.urandom(16)).decode()
    ws.sendall(f"GET /ws HTTP/1.1\r\nHost: {authority}\r\nOrigin: https://{authority}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += ws.recv(1)

    def send(obj):
        payload, mask = json.dumps(obj).encode(), os.urandom(4)
        n = len(payload)
        header = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n))
        ws.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    send({"type": "hello", "v": 1, "id": device["id"], "credential": device["credential"]})
    got = b""
    while b"welcome" not in got and b"refused" not in got:
        got += ws.recv(4096)
    return ws, send


def borrowed(before, ch):
    """The keycode that now carries the keysym of character `ch` and did not before."""
    sym = 0x01000000 + ord(ch)
    for code, syms in keymap().items():
        if sym in syms and sym not in before.get(code, ()):
            return code
    return None


try:
    original = keymap()
    h1, r1 = start_host(1)
    ws, send = connect(r1)

    # 1 + 2: borrowed, recorded, given back by itself about 1 s later.
    send({"type": "text", "text": "ŋ"})
    code = wait_for(lambda: borrowed(original, "ŋ"), 5)
    check("typing borrows a spare keycode for ŋ", code is not None)
    records = glob.glob(record_glob)
    check("the borrowed keycode is recorded, 0600", len(records) == 1 and code is not None
          and f"{code} " in open(records[0]).read() and os.stat(records[0]).st_mode & 0o777 == 0o600, records)
    back = wait_for(lambda: keymap().get(code) == original.get(code) and not glob.glob(record_glob), 4)
    check("about 1 s after the text the host gives the keycode back and removes the record", back,
          (keymap().get(code), original.get(code)))

    # 3: SIGKILL right after a text; the next start gives the keycode back.
    send({"type": "text", "text": "ŧ"})
    code = wait_for(lambda: borrowed(original, "ŧ"), 5)
    h1.send_signal(signal.SIGKILL)
    h1.wait()
    check("after SIGKILL the borrowed keycode stays altered (what the record is for)",
          code is not None and 0x01000000 + ord("ŧ") in keymap().get(code, ()), keymap().get(code))
    h2, r2 = start_host(2)
    check("the next start gives the keycode back to its original mapping",
          code is not None and keymap().get(code) == original.get(code), (keymap().get(code), original.get(code)))
    check("... and removes the record", not glob.glob(record_glob), glob.glob(record_glob))

    # 4: someone else remaps the borrowed keycode (MappingNotify): not ours to restore any more.
    ws, send = connect(r2)
    send({"type": "text", "text": "ħ"})
    code = wait_for(lambda: borrowed(original, "ħ"), 5)
    remap(code, [X_F13])
    time.sleep(0.3)      # let a host read the MappingNotify before it dies (not needed for the check below)
    h2.send_signal(signal.SIGKILL)
    h2.wait()
    h3, r3 = start_host(3)
    check("a keycode someone else remapped since is left alone at the next start",
          keymap().get(code, (0,))[0] == X_F13, keymap().get(code))
    remap(code, [])

    # 5: SIGHUP within the restore delay: a clean stop that gives the keycode back.
    ws, send = connect(r3)
    send({"type": "text", "text": "ŀ"})
    code = wait_for(lambda: borrowed(original, "ŀ"), 5)
    h3.send_signal(signal.SIGHUP)
    rc = h3.wait(timeout=10)
    check("SIGHUP stops the host cleanly (exit 0)", rc == 0, rc)
    check("... and gives the keycode back", code is not None and keymap().get(code) == original.get(code),
          (keymap().get(code), original.get(code)))
    check("the keyboard map is as it was before the test", keymap() == original)
finally:
    finish()
