#!/usr/bin/env python3
"""A fast user switch stops injection, stdlib only.

FAKE LOGIND, and why: systemd-logind cannot run here (no systemd as PID 1), so logind is
python-dbusmock's logind template (/usr/bin/python3 -m dbusmock --template logind) on a
private system bus of this test's own (dbus-daemon with scripts/lib/private-dbus.sh's
config, never the machine's /run/dbus). The host talks to it exactly as to the real one
(GetSession, the session's Active property, its PropertiesChanged signal); flipping Active
is what logind does when another user's session takes the seat.

Run by scripts/logind-session-test.sh inside its own network namespace with a private Xvfb.
The X server is the witness of the pointer buttons (XQueryPointer through libX11 by ctypes).
Checks, host 1 (started with XDG_SESSION_ID=c1, as from a login shell): a held left button
is released when Active turns false; input (a press) and text are dropped while inactive;
when Active turns true again input is injected again; when session c1 is removed it fails
closed (the held button released, input refused). Host 2 (started WITHOUT XDG_SESSION_ID,
as under `systemd --user`; the fake logind has no GetSessionByPID, like logind for a
process in user@UID.service): it finds its session through GetUser and the User's Display
(c2), is suspended when c2 turns inactive, fails closed when c2 is removed, and resumes when
the Display names an active session (c3) again. Prints 'N passed, N failed'.
"""
import argparse, ctypes, json, os, signal, socket, struct, subprocess, sys, time

import raw_page_client

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from host_process import interrupt, wait as wait_for  # noqa: E402  (the suite's one bounded wait; a stop)

p = argparse.ArgumentParser()
p.add_argument("--bin", required=True)
p.add_argument("--work", required=True)
a = p.parse_args()
children = []
check = raw_page_client.CHECKS.check


def finish():
    for c in reversed(children):
        if c.poll() is None:
            c.terminate()
            try:
                c.wait(5)
            except subprocess.TimeoutExpired:
                c.kill()
                c.wait()
    raw_page_client.CHECKS.finish()




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
uid = os.getuid()
user = f"/org/freedesktop/login1/user/{uid}"
manager = "/org/freedesktop/login1"
# The template's GetUser adds a uint32 to a string (a TypeError); this one answers as logind.
fixed = gdbus("--object-path", manager, "--method", "org.freedesktop.DBus.Mock.AddMethod", "org.freedesktop.login1.Manager",
              "GetUser", "u", "o", 'ret = "/org/freedesktop/login1/user/%d" % args[0]')
check("the fake logind answers GetUser", fixed.returncode == 0, fixed.stderr)


session_path = "/org/freedesktop/login1/session/{}".format


def add_session(sid, active=True):
    res = gdbus("--object-path", manager, "--method", "org.freedesktop.DBus.Mock.AddSession",
                sid, "seat0", str(uid), "tester", "true" if active else "false")
    return res.returncode == 0


def set_active(sid, active):
    v = "true" if active else "false"
    res = gdbus("--object-path", session_path(sid), "--method", "org.freedesktop.DBus.Mock.UpdateProperties",
                "org.freedesktop.login1.Session", "{'Active': <%s>}" % v)
    return res.returncode == 0


def set_display(sid):
    """The User's Display, as logind sets it; '' for none. Properties.Set: the mock's
    UpdateProperties cannot wrap a struct. It emits PropertiesChanged either way."""
    value = f"<('{sid}', objectpath '{session_path(sid) if sid else '/'}')>"
    res = gdbus("--object-path", user, "--method", "org.freedesktop.DBus.Properties.Set",
                "org.freedesktop.login1.User", "Display", value)
    return res.returncode == 0


def remove_session(sid):
    """The session object goes and the Manager says SessionRemoved, as logind does."""
    gone = gdbus("--object-path", manager, "--method", "org.freedesktop.DBus.Mock.RemoveObject", session_path(sid))
    said = gdbus("--object-path", manager, "--method", "org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.login1.Manager",
                 "SessionRemoved", "so", f"[<'{sid}'>, <objectpath '{session_path(sid)}'>]")
    return gone.returncode == 0 and said.returncode == 0


# ── a host and a WebSocket client framed like the page ───────────────────────────────
def proc_state(pid):
    """(state letter, parent pid) of a process from /proc/PID/stat, or None once it is gone."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return fields[0], int(fields[1])
    except (OSError, IndexError, ValueError):
        return None


class Host:
    def __init__(self, name, host_env):
        self.name = name
        work = os.path.join(a.work, name)
        os.makedirs(work)
        self.err = os.path.join(work, "host.err")
        ready = os.path.join(work, "ready.json")
        self.proc = subprocess.Popen([a.bin, "host", "--bind", "127.0.0.1", "--port", "0", "--inject", "xtest",
                                      "--no-discovery", "--no-dashboard", "--web-port", "0", "--timeout", "30",
                                      "--data-dir", os.path.join(work, "data"), "--pair-at-start", "--ready-file", ready],
                                     stdout=subprocess.DEVNULL, stderr=open(self.err, "w"), env=host_env)
        children.append(self.proc)
        if not wait_for(lambda: (os.path.exists(ready) and os.path.getsize(ready) > 0) or self.proc.poll() is not None, 30) \
                or self.proc.poll() is not None:
            check(f"{name} becomes ready", False)
            finish()
        # The page's pairing, the host's user accepting it (e2e/web/raw_page_client.py).
        addr, port, self.device = raw_page_client.pair(json.load(open(ready))["pairingURL"], "logind-test",
                                                       os.path.join(work, "data"))
        self.ws = raw_page_client.PageSocket(addr, port)   # the page's WebSocket, framed as protocol.js frames
        self.ws.welcomed(self.device)

    def said(self, text):
        return text in open(self.err).read()

    def send(self, obj):
        self.ws.send_json(obj)

    def frame(self):
        return self.ws.frame()

    def probe(self):
        """The host's answer to text with nothing to type (a control character): its reason
        says whether it injects. Processed in order after everything sent before it."""
        self.send({"type": "text", "text": "\u0001"})
        while True:
            f = self.frame()
            if f.get("type") == "untyped":
                return f.get("message", "")

    def click(self, down):  # the left button
        self.send({"type": "click", "button": "left", "down": down})

    def monitors(self):
        """The pids of the host's `gdbus monitor` children (its logind watch)."""
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            state = proc_state(pid)
            try:
                cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
            except OSError:
                continue
            if state and state[1] == self.proc.pid and b"gdbus" in cmd and b"monitor" in cmd:
                found.append(int(pid))
        return found

    def ends_with_its_watch(self, how, end):
        """Ends the host (`end`), then checks that its logind watch's child went with it."""
        watching = self.monitors()
        check(f"{self.name}: its logind watch runs one `gdbus monitor`", len(watching) == 1, f"{watching}")
        end()
        # A zombie waiting for its new parent to reap it is gone too.
        left = lambda: [p for p in watching if (proc_state(p) or ("Z",))[0] != "Z"]
        check(f"{self.name} {how}: no `gdbus monitor` of it is left", wait_for(lambda: not left(), 3), f"{left()}")

    def kill(self):
        self.proc.kill()
        self.proc.wait()

    def stop(self):
        interrupt(self.proc, 10, signal.SIGTERM)


inactive_reason = "not the active one"

def suspended(host):
    return wait_for(lambda: inactive_reason in (r := host.probe()) and r, 7)


def resumed(host):
    return wait_for(lambda: inactive_reason not in (r := host.probe()) and r, 7)


def fails_closed_with_button_held(host, what, change):
    """A held button (X sees it down), then `change`: released and input refused."""
    host.click(True)
    check(f"{host.name}: the phone holds the left button (X sees it down)", wait_for(left_down, 5))
    t0 = time.monotonic()
    check(f"{host.name}: the fake logind {what}", change())
    released = wait_for(lambda: not left_down(), 7)
    print(f"     released {time.monotonic() - t0:.2f} s after it (a signal; the 5 s poll is the backstop)")
    check(f"{host.name}: the held button is released (within the 5 s backstop at most)", released)
    reason = suspended(host)
    check(f"{host.name}: text is refused, saying why", bool(reason), reason)
    host.click(True)
    reason = host.probe()
    check(f"{host.name}: a press is dropped (X sees the button up)", not left_down() and inactive_reason in reason,
          (left_down(), reason))
    host.click(False)


def injects_again(host):
    reason = resumed(host)
    check(f"{host.name}: injects again (text no longer refused for the session)", bool(reason), reason)
    host.click(True)
    check(f"{host.name}: a press reaches X", wait_for(left_down, 5))
    host.click(False)
    check(f"{host.name}: ... and its release too", wait_for(lambda: not left_down(), 5))


try:
    # Host 1: its session from XDG_SESSION_ID.
    check("the fake logind has session c1, active", add_session("c1"))
    one = Host("host1", env)
    fails_closed_with_button_held(one, "turns session c1 inactive", lambda: set_active("c1", False))
    check("the fake logind turns session c1 active again", set_active("c1", True))
    injects_again(one)
    # Fail closed: the session followed is removed (the user logged out of it).
    fails_closed_with_button_held(one, "removes session c1", lambda: remove_session("c1"))
    # A stopped host's child inherits its ignored SIGTERM: the watch must not rely on it.
    one.ends_with_its_watch("stopped (SIGTERM)", one.stop)

    # Host 2: no XDG_SESSION_ID (a systemd --user service); the user's Display names c2.
    check("the fake logind has session c2, active, the user's Display", add_session("c2") and set_display("c2"))
    two = Host("host2", {k: v for k, v in env.items() if k != "XDG_SESSION_ID"})
    check("host2: follows the user's graphical session (Display), not 'not followed'",
          wait_for(lambda: two.said("following the user's graphical session"), 5) and not two.said("not followed"),
          open(two.err).read()[-400:])
    injects_again(two)
    fails_closed_with_button_held(two, "turns session c2 inactive", lambda: set_active("c2", False))
    check("the fake logind turns session c2 active again", set_active("c2", True))
    injects_again(two)
    # Fail closed: c2 removed while the Display still names it (not yet updated).
    fails_closed_with_button_held(two, "removes session c2", lambda: remove_session("c2"))
    # An active session at the user's Display again: resumed.
    check("the fake logind has session c3, active, the user's Display", add_session("c3") and set_display("c3"))
    injects_again(two)
    # A host that is killed cannot stop its child: the kernel does (setpriv --pdeathsig).
    two.ends_with_its_watch("killed (SIGKILL)", two.kill)
except (OSError, socket.timeout) as e:
    check("the WebSocket session stays up", False, repr(e))
finally:
    finish()
