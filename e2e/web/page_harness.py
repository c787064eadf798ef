"""Helpers for the page stages (e2e/web/test_web_controller.py, test_page_modes.py, test_webkit_page.py): results, bounded waits,
the X witnesses (xinput test-xi2 events, xev key presses and the keysyms they mean), XQueryPointer
through xdotool, the layout rule, and the Chromium browser (headless, with CDP touch emulation and
emulated sensors)."""
import os, re, subprocess, sys, time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from host_process import wait  # noqa: E402,F401  (the suite's one bounded wait; tests use it from here)

results = []
WIDTH, HEIGHT, FOV_X, FOV_Y = 1920, 1080, 40.0, 25.0   # Xvfb screen, PointerSettings defaults
BUTTON_PRESS, BUTTON_RELEASE, KEY_PRESS, KEY_RELEASE = 4, 5, 2, 3
# Xvfb's default (evdev) keycodes.
KEYCODE = {"Left": 113, "Right": 114, "b": 56, "h": 43, "i": 31, "Return": 36, "BackSpace": 22}
SIZES = [(390, 844), (844, 390), (320, 568), (568, 320), (768, 1024), (1024, 768)]
MODES = ["pointer", "presenter", "touchpad", "gamepad"]
NODATA = ("<p>No motion data is arriving. This device may have no gyroscope, or the browser blocks motion sensors "
          "for this site (Chrome: ⋮ › Site settings › Motion sensors).</p><p>The buttons still work.</p>")


def check(name, ok, detail=""):
    results.append(bool(ok))
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else "  -- " + str(detail)), flush=True)


def pointer():
    out = subprocess.run(["xdotool", "getmouselocation", "--shell"], capture_output=True, text=True).stdout
    v = dict(line.split("=", 1) for line in out.split() if "=" in line)
    return (int(v["X"]), int(v["Y"]), int(v.get("WINDOW", "0"))) if "X" in v else None


def xy():
    p = pointer()
    return p[:2] if p else None


class XLog:
    """(type, detail) of every event the X server reported on a master device, from a mark on."""
    def __init__(self, path):
        self.path, self.start = path, 0

    def events(self):
        events, current = [], None
        for line in open(self.path, errors="replace"):
            m = re.match(r"EVENT type (\d+) ", line)
            if m:
                current = {"type": int(m.group(1))}
                events.append(current)
                continue
            if current is None:
                continue
            m = re.match(r"\s+device: (\d+) \((\d+)\)", line)
            if m:
                current["master"] = m.group(1) != m.group(2) or m.group(1) in ("2", "3")
            m = re.match(r"\s+detail: (\d+)", line)
            if m:
                current["detail"] = int(m.group(1))
        return [(e["type"], e.get("detail")) for e in events if e.get("master")]

    def mark(self):
        self.start = len(self.events())

    def since(self):
        return self.events()[self.start:]

    def count(self, kind, detail):
        return sum(1 for t, d in self.since() if t == kind and d == detail)

    def pair(self, press, release, detail):
        return (self.count(press, detail), self.count(release, detail))


class KeyLog:
    """Key presses and releases the keyboard client (xev, holding the focus) saw, from a mark on."""
    def __init__(self, path):
        self.path, self.start = path, 0

    def text(self):
        return open(self.path, errors="replace").read()

    def mark(self):
        self.start = len(self.text())

    def count(self, kind, keycode):
        name = "KeyPress event" if kind == KEY_PRESS else "KeyRelease event"
        n = 0
        for block in self.text()[self.start:].split("\n\n"):
            block = block.strip()
            m = re.search(r"keycode (\d+) ", block)
            n += block.startswith(name) and m is not None and int(m.group(1)) == keycode
        return n

    def pair(self, press, release, keycode):
        return (self.count(press, keycode), self.count(release, keycode))


def typed(xev_path, start):
    """The characters the keyboard client saw typed (KeyPress keysyms) from byte offset `start`."""
    text = open(xev_path, errors="replace").read()[start:]
    out = []
    for block in text.split("\n\n"):
        block = block.strip()
        if not block.startswith("KeyPress"):
            continue
        m = re.search(r"keysym 0x([0-9a-f]+), (\S+)\)", block)
        if not m:
            continue
        k = int(m.group(1), 16)
        if k >= 0x1000000:
            out.append(chr(k - 0x1000000))
        elif 0x20 <= k <= 0xff:
            out.append(chr(k))
        elif m.group(2) in ("Return", "BackSpace", "Tab"):
            out.append("<%s>" % m.group(2))
    return "".join(out)


def x_events(log_path):
    """(type, detail) of every event the X server reported on a master device."""
    return XLog(log_path).events()


def count(log_path, kind, detail):
    return sum(1 for t, d in x_events(log_path) if t == kind and d == detail)


def cdp(d, cmd, args=None):
    return d.execute_cdp_cmd(cmd, args or {})


def orient(d, alpha, beta, gamma):
    cdp(d, "DeviceOrientation.setDeviceOrientationOverride", {"alpha": alpha % 360, "beta": beta, "gamma": gamma})


def metrics(d, w, h):
    portrait = h >= w
    cdp(d, "Emulation.setDeviceMetricsOverride", {
        "width": w, "height": h, "deviceScaleFactor": 2, "mobile": True,
        "screenOrientation": {"type": "portraitPrimary" if portrait else "landscapePrimary", "angle": 0 if portrait else 90}})


def browser(profile):
    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,1100", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--ignore-certificate-errors",
              "--user-data-dir=" + profile):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    for t in ("accelerometer", "gyroscope"):
        cdp(d, "Emulation.setSensorOverrideEnabled", {"enabled": True, "type": t})
    cdp(d, "Emulation.setSensorOverrideReadings", {"type": "accelerometer", "reading": {"xyz": {"x": 0, "y": 0, "z": 9.80665}}})
    cdp(d, "Emulation.setSensorOverrideReadings", {"type": "gyroscope", "reading": {"xyz": {"x": 0, "y": 0, "z": 0}}})
    orient(d, 0, 0, 0)
    cdp(d, "Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    metrics(d, 390, 844)
    return d


def js(d, expr, *args):
    return d.execute_script("return " + expr, *args)


def state(d):
    return js(d, "window.remotionTest ? remotionTest.state() : {}") or {}


def center_of(d, selector):
    r = d.execute_script("const e = [...document.querySelectorAll(arguments[0])].find((x) => x.getClientRects().length);"
                         "if (!e) return null; const r = e.getBoundingClientRect();"
                         "return [r.left + r.width / 2, r.top + r.height / 2];", selector)
    if r is None:
        raise RuntimeError("no visible element " + selector)
    return {"x": r[0], "y": r[1]}


def touch(d, kind, points):
    cdp(d, "Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def tap(d, selector, hold=0.12):
    p = dict(center_of(d, selector), id=1)
    touch(d, "touchStart", [p])
    time.sleep(hold)
    touch(d, "touchEnd", [])


def click(d, selector):
    """A mouse click (selenium) on the first visible element: for controls that act on click."""
    el = next(e for e in d.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed())
    el.click()


def set_mode(d, mode):
    click(d, 'nav [data-page-mode="%s"]' % mode)
    return wait(lambda: state(d).get("pageMode") == mode, 2)


def gamepad_mode(d):
    """The Gamepad mode on a host without pads: the host's answer shows a notice that reflows the
    pane (and hides it 8 s later); waited for and put away with its own close button, so a tap
    lands where it was measured (a loaded run once tapped G before the notice moved it). Each
    answer shows the notice anew (Notices.flash), however recently the last one did."""
    set_mode(d, "gamepad")
    shown = wait(lambda: js(d, "(() => { const n = document.getElementById('notice');"
                               " return !n.hidden && n.textContent.includes('makes no virtual gamepads'); })()"), 5)
    js(d, "(() => { document.querySelector('#notice .notice-close').click(); return true; })()")
    return shown and wait(lambda: js(d, "document.getElementById('notice').hidden"), 2)


def check_ca_fingerprint(d, ca_pem_path):
    """The pairing screen shows the CA's SHA-256 read from the server (not the link's fp=),
    colon-separated as a phone's certificate screens show it (docs/SECURITY.md §9)."""
    import hashlib, ssl
    ca_der = ssl.PEM_cert_to_DER_cert(open(ca_pem_path).read())
    want = ":".join("%02X" % b for b in hashlib.sha256(ca_der).digest())
    wait(lambda: ":" in d.find_element(By.ID, "pair-fp").text)
    shown = d.find_element(By.ID, "pair-fp").text.replace("\n", ":")
    check("the page shows the CA's SHA-256 from the server", shown == want, (shown, want))


def check_drag_released_on_close(d, log, what):
    """A touchpad drag held (Button1 down, already pressed by the caller) when the page closes:
    `d.quit()`, then Button1 is released exactly once within 2.5 s."""
    check("touchpad drag started (Button1 down)", wait(lambda: log.count(BUTTON_PRESS, 1) == 1, 2), log.since())
    closed = time.monotonic()
    d.quit()
    released = wait(lambda: log.count(BUTTON_RELEASE, 1) == 1, 4)
    took = time.monotonic() - closed
    check("%s closed during a drag → Button1 released once within 2.5 s (%.2f s)" % (what, took),
          released and took <= 2.5 and log.count(BUTTON_RELEASE, 1) == 1, log.since())


def finish():
    """Prints the tally; the exit status: 0 when every check passed."""
    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


def expected(yaw_deg, pitch_deg):
    x = WIDTH / 2 - yaw_deg / FOV_X * WIDTH
    y = HEIGHT / 2 - pitch_deg / FOV_Y * HEIGHT
    return (round(min(max(x, 2), WIDTH - 3)), round(min(max(y, 2), HEIGHT - 3)))


def near(p, q, tol=3):
    return p is not None and abs(p[0] - q[0]) <= tol and abs(p[1] - q[1]) <= tol


LAYOUT_JS = """
const vw = innerWidth, vh = innerHeight, bad = [];
let smallest = Infinity;
const controls = [...document.querySelectorAll('button, input, [data-scroll-strip], #touch-surface, [data-touchpad]')]
  .filter((e) => e.getClientRects().length && !e.closest('#menu') && !e.closest('#notice'));
for (const e of controls) {
  const r = e.getBoundingClientRect();
  if (Math.min(r.width, r.height) < smallest) { smallest = Math.min(r.width, r.height); window.__smallest = e.id || e.dataset.button || e.dataset.key || e.className; }
  if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5 || r.width < 1 || r.height < 1)
    bad.push((e.id || e.dataset.button || e.dataset.key || e.dataset.pageMode || e.className) + ' ' +
             [r.left, r.top, r.right, r.bottom].map(Math.round).join(','));
}
const s = document.scrollingElement;
return {count: controls.length, bad, smallest: Math.round(smallest), which: window.__smallest, vw, vh,
        scrolls: s.scrollHeight > s.clientHeight + 0.5 || s.scrollWidth > s.clientWidth + 0.5,
        sh: s.scrollHeight, ch: s.clientHeight};
"""


def layout_checks(d, artifacts, resize=None, shots="mode"):
    """The layout rule at the six SIZES in the four modes, with and without a notice. `resize(d, w, h)`
    gives the page a w×h viewport (Chromium: CDP device metrics, the default; WebKit: the window)."""
    resize = resize or metrics
    for w, h in SIZES:
        resize(d, w, h)
        for notice in (False, True):
            js(d, "(() => { const n = document.getElementById('notice'); n.hidden = !arguments[0];"
                  " if (arguments[0]) n.innerHTML = arguments[1]; return true; })()", notice, NODATA)
            worst, problems, scrolls, smallest = 0, [], [], 10 ** 6
            for mode in MODES:
                set_mode(d, mode)
                r = d.execute_script(LAYOUT_JS)
                worst = max(worst, len(r["bad"]))
                problems += ["%s: %s" % (mode, b) for b in r["bad"]]
                if r["scrolls"]:
                    scrolls.append("%s %s/%s" % (mode, r["sh"], r["ch"]))
                if r["count"] < 8:
                    problems.append("%s: only %d controls visible" % (mode, r["count"]))
                if r["smallest"] < smallest:
                    smallest, which = r["smallest"], "%s %s" % (mode, r["which"])
                if (w, h) in ((320, 568), (568, 320), (390, 844), (844, 390)):
                    # After a rendering update (WebKitGTK's driver otherwise may shoot the frame before).
                    d.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")
                    d.save_screenshot(os.path.join(artifacts, "%s-%s-%dx%d%s.png" % (shots, mode, w, h, "-notice" if notice else "")))
            # Targets: at least 34 px on phones of 390×844 and up without a notice, and never
            # under 28 px even on a 320×568 phone with a notice and the Start button shown.
            floor = 28 if notice or min(w, h) < 390 else 34
            check("%d×%d%s: every control of the four modes inside the viewport, no scrolling (smallest target %d px ≥ %d)"
                  % (w, h, " with a notice" if notice else "", smallest, floor),
                  not problems and not scrolls and smallest >= floor, (problems[:4], scrolls, smallest, which))
    js(d, "(() => { document.getElementById('notice').hidden = true; return true; })()")
    resize(d, 390, 844)
