#!/usr/bin/env python3
"""The phone page's modes end to end, with real components (scripts/web-modes-test.sh):
`remotion host --inject xtest` into a real Xvfb, the real page in headless Chromium
(selenium 4.51) with CDP touch emulation and emulated sensors, and as witnesses the X
server's own event stream (xinput test-xi2 --root), a keyboard client (xev -root: the keysym
each key press means to an application), XQueryPointer (xdotool) and screenshots of the
root window (ImageMagick import). Prints "N passed, N failed".

Checks: the layout rule (every control inside the viewport, the document not scrollable) at
390×844, 844×390, 320×568, 568×320, 768×1024, 1024×768 in each mode, with and without a
notice; the host's map labels the gamepad; each mode's controls reach X exactly as mapped
(clicks, keys, wheel steps, touchpad moves, taps, two-finger taps, drag); text typed as
characters (ASCII, é, ß, 😀, an IME composition); the laser overlay drawn where pointer
mode's formula puts it while the real pointer stays put and clicks pass through it; a drag
released when the tab closes; the host's [[profile]] in force shown when the focus switches it."""
import argparse, json, os, re, subprocess, sys, time

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from page_harness import *   # noqa: E402,F401,F403  (check, wait, XLog, KeyLog, typed, browser, tap, layout_checks, …)
import page_harness          # noqa: E402

def main():
    ap = argparse.ArgumentParser()
    for a in ("--url", "--xi2-log", "--xev-log", "--profile", "--host-err", "--work"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    artifacts = os.environ.get("ARTIFACTS", ".")
    base = args.url.split("#")[0].rstrip("/")
    log = XLog(args.xi2_log)
    keys = KeyLog(args.xev_log)

    def mark():
        log.mark()
        keys.mark()
    d = browser(args.profile)
    helpers = []
    try:
        # ── pair, connect, the host's map arrives ───────────────────────────────────
        d.get(args.url)
        wait(lambda: state(d).get("screen") == "pair")
        d.find_element(By.ID, "pair-go").click()
        st = wait(lambda: state(d).get("status") == "connected" and state(d).get("labels") and state(d), 8)
        check("paired, connected, and the host sent its button map", st, state(d))
        check("the mode starts as Pointer (nothing remembered yet)", state(d).get("pageMode") == "pointer", state(d))
        set_mode(d, "gamepad")
        gl = js(d, "[...document.querySelectorAll('[data-pane=gamepad] [data-label]')].map((e) => e.dataset.label + '=' + e.textContent)")
        check("the gamepad is labelled from the host's map (G = I key, C = ←, A = Left click)",
              "G=I" in gl and "C=←" in gl and "A=Left click" in gl and "P=H" in gl, gl)
        # The Gamepad mode asks the host for a virtual pad; this host makes none (no /dev/uhid
        # here), so it answers so and the page says it (the menu's "gamepad" line, a notice).
        pad = wait(lambda: state(d).get("pad"), 5)
        check("the Gamepad mode asks for a virtual pad; a host without --gamepad answers none",
              pad == {"on": False, "available": False} and js(d, "document.getElementById('d-pad').textContent") == "none on this computer",
              (pad, js(d, "document.getElementById('d-pad').textContent")))
        # Gyro as a stick, chosen in the menu: the host sets this controller's own and says so.
        js(d, "(() => { const s = document.getElementById('gyro-stick'); s.value = 'right'; s.dispatchEvent(new Event('change')); return true; })()")
        check("the menu's gyro stick (right) is this controller's: the host answers it",
              wait(lambda: state(d).get("gyroStick") == "right", 5), state(d).get("gyroStick"))
        js(d, "(() => { const s = document.getElementById('gyro-stick'); s.value = 'host'; s.dispatchEvent(new Event('change')); return true; })()")
        d.get(base + "/")
        check("the mode is remembered for this host across a reload",
              wait(lambda: state(d).get("status") == "connected" and state(d).get("pageMode") == "gamepad", 8), state(d))

        # ── haptics and the web app manifest ────────────────────────────────────────
        js(d, "(() => { window.__buzz = []; navigator.vibrate = (ms) => { window.__buzz.push(ms); return true; }; return true; })()")
        tap(d, '[data-pane=gamepad] [data-button="A"]', 0.05)
        check("a press asks for a short vibration (navigator.vibrate)", wait(lambda: js(d, "window.__buzz.length") >= 1, 2),
              js(d, "window.__buzz"))
        manifest = js(d, "fetch('app/manifest.webmanifest').then(async (r) => [r.status, r.headers.get('content-type'), await r.json()])")
        check("the web app manifest is served (full screen, an icon)",
              manifest and manifest[0] == 200 and "manifest+json" in manifest[1] and manifest[2].get("display") == "fullscreen"
              and manifest[2]["icons"], manifest)
        icon = js(d, "fetch('app/icon.svg').then((r) => [r.status, r.headers.get('content-type')])")
        check("its icon is served", icon and icon[0] == 200 and "svg" in icon[1], icon)

        # ── the layout rule ─────────────────────────────────────────────────────────
        layout_checks(d, artifacts)

        # ── pointer mode: aim, clicks, scroll strip ─────────────────────────────────
        set_mode(d, "pointer")
        d.find_element(By.ID, "start").click()
        check("Start motion → sensors on", wait(lambda: state(d).get("sensors") == "on", 3), state(d))
        orient(d, 10, 5, 0)
        check("pointer mode aims: yaw 10°, pitch 5° → %s" % (expected(10, 5),), wait(lambda: near(xy(), expected(10, 5)), 3), xy())
        mark()
        tap(d, '[data-pane=pointer] [data-button="A"]')
        tap(d, '[data-pane=pointer] [data-button="B"]')
        check("Left click → exactly one Button1 press and release", wait(lambda: log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1) == (1, 1), 2),
              log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1))
        check("Right click → exactly one Button3 press and release", wait(lambda: log.pair(BUTTON_PRESS, BUTTON_RELEASE, 3) == (1, 1), 2),
              log.pair(BUTTON_PRESS, BUTTON_RELEASE, 3))

        def drag(selector, dx, dy, steps=10, fingers=1):
            c = center_of(d, selector)
            pts = lambda k: [{"x": c["x"] - 20 * f + dx * k / steps, "y": c["y"] - 30 + dy * k / steps, "id": f + 1} for f in range(fingers)]
            touch(d, "touchStart", pts(0))
            for k in range(1, steps + 1):
                time.sleep(0.02)
                touch(d, "touchMove", pts(k))
            touch(d, "touchEnd", [])

        mark()
        drag("[data-scroll-strip]", 0, 96)          # natural (default): fingers down → content down → wheel up
        ups = wait(lambda: log.count(BUTTON_PRESS, 4) >= 4 and log.count(BUTTON_PRESS, 4), 2)
        check("scroll strip, natural: a 96 px drag down → 4 wheel-up steps (button 4), none down",
              log.count(BUTTON_PRESS, 4) == 4 and log.count(BUTTON_RELEASE, 4) == 4 and log.count(BUTTON_PRESS, 5) == 0,
              (log.count(BUTTON_PRESS, 4), log.count(BUTTON_PRESS, 5), js(d, "remotionTest.sent")))
        js(d, "(() => { const c = document.getElementById('natural-scroll'); c.checked = false;"
              " c.dispatchEvent(new Event('change')); return true; })()")
        mark()
        drag("[data-scroll-strip]", 0, 96)
        wait(lambda: log.count(BUTTON_PRESS, 5) >= 4, 2)
        check("scroll strip, normal: a 96 px drag down → 4 wheel-down steps (button 5)",
              log.count(BUTTON_PRESS, 5) == 4 and log.count(BUTTON_PRESS, 4) == 0,
              (log.count(BUTTON_PRESS, 4), log.count(BUTTON_PRESS, 5), js(d, "remotionTest.sent")))

        # ── presenter: next, previous, blank ────────────────────────────────────────
        set_mode(d, "presenter")
        mark()
        tap(d, '[data-pane=presenter] [data-button="D"]')
        tap(d, '[data-pane=presenter] [data-button="C"]')
        tap(d, '[data-pane=presenter] [data-button="J"]')
        for name, key in (("Next → the Right key", "Right"), ("Previous → the Left key", "Left"), ("Blank → the b key", "b")):
            check(name + " (exactly one press and release)",
                  wait(lambda: keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE[key]) == (1, 1), 2), keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE[key]))
        labels = js(d, "[...document.querySelectorAll('[data-pane=presenter] [data-label]')].map((e) => e.textContent)")
        check("the presenter's keys show what the host's map sends (←, →, B)", labels == ["←", "→", "B"], labels)
        click(d, "#timer-toggle")
        t1 = wait(lambda: js(d, "document.getElementById('timer-text').textContent") == "00:01", 2.5)
        check("the timer runs", t1, js(d, "document.getElementById('timer-text').textContent"))

        # ── touchpad: moves, taps, two-finger tap and scroll, drag, keys, text ──────
        set_mode(d, "touchpad")
        before = xy()
        drag("#touch-surface", 120, 0, steps=12)
        after = wait(lambda: xy()[0] > before[0] + 100 and xy(), 2)
        check("touchpad: a 120 px slide right moves the pointer right by more than 120 px (acceleration)",
              after and after[0] - before[0] >= 120 and abs(after[1] - before[1]) <= 3, (before, xy()))
        mark()
        tap(d, "#touch-surface", 0.05)
        check("touchpad: a tap → exactly one Button1 click", wait(lambda: log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1) == (1, 1), 2),
              log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1))
        c = center_of(d, "#touch-surface")
        mark()
        touch(d, "touchStart", [{"x": c["x"] - 30, "y": c["y"], "id": 1}, {"x": c["x"] + 30, "y": c["y"], "id": 2}])
        time.sleep(0.05)
        touch(d, "touchEnd", [])
        check("touchpad: a two-finger tap → exactly one Button3 click, no Button1",
              wait(lambda: log.pair(BUTTON_PRESS, BUTTON_RELEASE, 3) == (1, 1), 2) and log.count(BUTTON_PRESS, 1) == 0,
              log.since())
        mark()
        drag("#touch-surface", 0, -96, fingers=2)    # normal scrolling still set: fingers up → wheel up
        wait(lambda: log.count(BUTTON_PRESS, 4) >= 4, 2)
        check("touchpad: two fingers 96 px up (normal scrolling) → 4 wheel-up steps, no clicks",
              log.count(BUTTON_PRESS, 4) == 4 and log.count(BUTTON_PRESS, 1) == 0 and log.count(BUTTON_PRESS, 3) == 0,
              (log.count(BUTTON_PRESS, 4), log.count(BUTTON_PRESS, 5), log.count(BUTTON_PRESS, 1), log.count(BUTTON_PRESS, 3), js(d, "remotionTest.sent")))
        mark()
        start = xy()
        touch(d, "touchStart", [dict(c, id=1)])
        pressed = wait(lambda: log.count(BUTTON_PRESS, 1) == 1, 2)
        for k in range(1, 9):
            time.sleep(0.02)
            touch(d, "touchMove", [{"x": c["x"], "y": c["y"] + 8 * k, "id": 1}])
        wait(lambda: xy()[1] > start[1] + 40, 2)
        moved_while_down = xy()[1] - start[1]
        touch(d, "touchEnd", [])
        check("touchpad: hold still → Button1 down (drag), moving drags, lifting → one release",
              pressed and moved_while_down > 40 and wait(lambda: log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1) == (1, 1), 2),
              (log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1), moved_while_down))
        mark()
        tap(d, '[data-key="Return"]', 0.05)
        tap(d, '[data-key="BackSpace"]', 0.05)
        check("touchpad keys: ⏎ → one Return, ⌫ → one BackSpace",
              wait(lambda: keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE["Return"]) == (1, 1)
                   and keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE["BackSpace"]) == (1, 1), 2),
              (keys.pair(KEY_PRESS, KEY_RELEASE, 36), keys.pair(KEY_PRESS, KEY_RELEASE, 22)))

        # Text: the phone keyboard's input (CDP Input.insertText), then an IME composition.
        js(d, "(() => { document.getElementById('type-field').focus(); return true; })()")
        at = len(open(args.xev_log, errors="replace").read())
        want = "Hi é ß 😀"
        cdp(d, "Input.insertText", {"text": want})
        got = wait(lambda: typed(args.xev_log, at) == want and want, 3)
        check("typed text arrives as those characters under XTest: %r" % want, got, typed(args.xev_log, at))
        at = len(open(args.xev_log, errors="replace").read())
        cdp(d, "Input.imeSetComposition", {"text": "ka", "selectionStart": 2, "selectionEnd": 2})
        cdp(d, "Input.imeSetComposition", {"text": "か", "selectionStart": 1, "selectionEnd": 1})
        time.sleep(0.3)
        during = typed(args.xev_log, at)
        cdp(d, "Input.insertText", {"text": "か"})
        got = wait(lambda: typed(args.xev_log, at) == "か", 3)
        check("an IME composition types nothing until committed, then the committed text once (か)",
              during == "" and got, (during, typed(args.xev_log, at)))
        at = len(open(args.xev_log, errors="replace").read())
        cdp(d, "Input.dispatchKeyEvent", {"type": "keyDown", "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13})
        cdp(d, "Input.dispatchKeyEvent", {"type": "keyUp", "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13})
        check("Enter in the text field → the Return key", wait(lambda: typed(args.xev_log, at) == "<Return>", 2),
              (typed(args.xev_log, at), js(d, "document.activeElement.id"), js(d, "remotionTest.sent")))

        # ── gamepad: a labelled key and a click ─────────────────────────────────────
        check("gamepad: the host's answer (no virtual pads here) landed before the taps", gamepad_mode(d))
        mark()
        tap(d, '[data-pane=gamepad] [data-button="G"]')
        tap(d, '[data-pane=gamepad] [data-button="A"]')
        check("gamepad: G (labelled I) → exactly one i key press and release",
              wait(lambda: keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE["i"]) == (1, 1), 2), keys.pair(KEY_PRESS, KEY_RELEASE, 31))
        check("gamepad: A → exactly one Button1 click", wait(lambda: log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1) == (1, 1), 2),
              log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1))

        # ── gamepad: the right stick reaches the host (the MOTION frames' analog block): in FPS
        #    mode with flick stick on it (web-desk.sh: a full turn is 400 counts), a push right
        #    turns a quarter: the X pointer moves 100 px right and no further while held ──────
        click(d, '[data-pane=gamepad] [data-mode="fps"]')
        check("gamepad: the host is in FPS mode", wait(lambda: state(d).get("mode") == "fps", 3), state(d).get("mode"))
        subprocess.run(["xdotool", "mousemove", "500", "500"])
        wait(lambda: xy() == (500, 500), 2)
        drag('[data-pane=gamepad] [data-stick="right"]', 90, 0)
        moved = wait(lambda: xy() == (600, 500) and xy(), 3)
        time.sleep(0.3)
        check("gamepad: the right stick pushed right flicks a quarter turn: the pointer 100 px right, and stays",
              moved and xy() == (600, 500), (xy(), js(d, "remotionTest.sent")))
        click(d, '[data-pane=gamepad] [data-mode="pointer"]')
        wait(lambda: state(d).get("mode") == "pointer", 3)

        # ── gamepad: the touchpad. A finger put down at a quarter of its width and slid to three
        #    quarters, then a quick tap: the host's DSU server (the witness: a DSU client of it)
        #    serves the finger where it was, in the DS4's 1920 × 942 pixels, then none; the tap is
        #    the pad's click, P, which the host's default map types as h ─────────────────────
        dsu_port = json.load(open(os.path.join(args.work, "ready.json")))["dsuServe"].rsplit(":", 1)[1]
        dsu_out = os.path.join(args.work, "touch-dsu.out")
        peer = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dsu", "dsu_peer.py")
        witness = subprocess.Popen([sys.executable, peer, "client", "--port", dsu_port, "--duration", "8"],
                                   stdout=open(dsu_out, "w"), stderr=subprocess.DEVNULL)
        helpers.append(witness)
        dsu_lines = lambda: [json.loads(l) for l in open(dsu_out) if l.strip()]
        wait(lambda: any(p.get("event") == "pad" for p in dsu_lines()), 4)
        box = d.execute_script("const r = document.querySelector('[data-pane=gamepad] [data-touchpad]').getBoundingClientRect();"
                               "return [r.left, r.top, r.width, r.height];")
        at = lambda fx, fy: {"x": box[0] + fx * box[2], "y": box[1] + fy * box[3], "id": 1}
        mark()
        touch(d, "touchStart", [at(0.25, 0.5)])
        time.sleep(0.4)
        touch(d, "touchMove", [at(0.75, 0.5)])
        time.sleep(0.4)
        touch(d, "touchEnd", [])
        time.sleep(0.4)
        fingers = lambda: [p["touches"] for p in dsu_lines() if p.get("event") == "pad"]
        near_px = lambda t, x, y: len(t) == 1 and abs(t[0][1] - x) <= 40 and abs(t[0][2] - y) <= 40
        seen = wait(lambda: (any(near_px(t, 480, 470) for t in fingers()) and any(near_px(t, 1439, 470) for t in fingers())
                             and fingers()[-1] == [] and fingers()), 3)
        check("gamepad: a finger on the touchpad is served where it is (a quarter, then three quarters of 1920 × 942), "
              "then lifted", seen, sorted({json.dumps(t) for t in (fingers() or [])})[:6])
        check("gamepad: the slide is no click (no h typed)", keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE["h"]) == (0, 0),
              keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE["h"]))
        tap(d, '[data-pane=gamepad] [data-touchpad]', 0.08)
        check("gamepad: a quick tap on the touchpad is its click, P (the default map types h): one h press and release",
              wait(lambda: keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE["h"]) == (1, 1), 2),
              keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE["h"]))

        # ── presenter laser: the overlay dot, the real pointer still, clicks pass through ──
        set_mode(d, "presenter")
        orient(d, 0, 0, 0)
        d.find_element(By.ID, "start").click() if js(d, "!document.getElementById('start').hidden") else None
        click(d, '[data-pane=presenter] .recenter')          # this direction is the centre
        time.sleep(0.3)
        # A window below where the dot will be, to take the click that passes through.
        dot = expected(-12, 6)
        below = subprocess.Popen(["xev", "-geometry", "300x200+%d+%d" % (dot[0] - 150, dot[1] - 100), "-event", "button",
                                  "-name", "below"], stdout=open(os.path.join(args.work, "below.log"), "w"), stderr=subprocess.STDOUT)
        helpers.append(below)
        below_id = wait(lambda: subprocess.run(["xdotool", "search", "--name", "^below$"], capture_output=True, text=True).stdout.split(), 5)
        check("a window below the dot's place is up", below_id, "xdotool search found no window 'below'")
        xdo_ok = subprocess.run(["xdotool", "mousemove", "40", "40"]).returncode == 0
        still = wait(lambda: xy() == (40, 40) and xy(), 2)
        c = center_of(d, "#laser")
        touch(d, "touchStart", [dict(c, id=1)])
        check("holding Laser → the page says the laser is on", wait(lambda: state(d).get("laser"), 2), state(d))
        sent = js(d, "remotionTest.sent.motion")
        check("motion flows while the laser is held (the centre is taken from the first sample)",
              wait(lambda: js(d, "remotionTest.sent.motion") >= sent + 5, 2), (sent, js(d, "remotionTest.sent.motion")))
        orient(d, -12, 6, 0)
        overlay = wait(lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^remotion-laser$"],
                                              capture_output=True, text=True).stdout.split(), 3)
        check("the overlay window is shown", overlay, "no visible window named remotion-laser")
        geometry = lambda: subprocess.run(["xdotool", "getwindowgeometry", overlay[0]], capture_output=True, text=True).stdout if overlay else ""
        def dot_centre():
            m = re.search(r"Position: (-?\d+),(-?\d+).*?Geometry: (\d+)x(\d+)", geometry(), re.S)
            return (int(m.group(1)) + int(m.group(3)) // 2, int(m.group(2)) + int(m.group(4)) // 2) if m else None
        placed = wait(lambda: near(dot_centre(), dot, 3) and dot_centre(), 3)
        check("the dot is where pointer mode's formula puts yaw −12°, pitch 6°: %s" % (dot,), placed, dot_centre())
        shot = os.path.join(artifacts, "laser-overlay.png")
        subprocess.run(["import", "-window", "root", shot], check=False)
        def pixel(x, y):
            out = subprocess.run(["import", "-window", "root", "-crop", "1x1+%d+%d" % (x, y), "-depth", "8", "txt:-"], capture_output=True, text=True).stdout
            m = re.search(r"\((\d+),(\d+),(\d+)", out.split("\n", 1)[-1])
            return tuple(int(v) for v in m.groups()) if m else None
        at, away = pixel(*dot), pixel(dot[0] + 40, dot[1])
        check("the screenshot shows a red dot there and not 40 px away (%s vs %s)" % (at, away),
              at and at[0] > 200 and at[1] < 90 and at[2] < 90 and away and not (away[0] > 200 and away[1] < 90), (at, away))
        check("the real pointer did not move while the laser was held (XQueryPointer)", still and xy() == (40, 40), xy())
        subprocess.run(["xdotool", "mousemove", str(dot[0]), str(dot[1])])
        at_dot = wait(lambda: xy() == dot, 2)
        subprocess.run(["xdotool", "click", "1"])
        got_click = wait(lambda: "ButtonPress" in open(os.path.join(args.work, "below.log"), errors="replace").read(), 2)
        still_shown = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^remotion-laser$"],
                                     capture_output=True, text=True).stdout.split()
        check("the overlay takes no input: a click at the dot, with the dot shown, reaches the window below",
              xdo_ok and at_dot and got_click and still_shown, (xy(), dot, got_click, still_shown))
        touch(d, "touchEnd", [])
        gone = wait(lambda: not subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^remotion-laser$"],
                                               capture_output=True, text=True).stdout.split(), 2)
        check("releasing Laser hides the dot", gone and not state(d).get("laser"))
        below.terminate()

        # ── the host's [[profile]] in force, on the page ────────────────────────────
        # The desk's config has a profile for phones in the application remotion-pageprofile
        # (FPS mode, scripts/web-modes-test.sh); a window of it gets the focus as a window
        # manager gives it (the root's _NET_ACTIVE_WINDOW, set with xprop), then none has it.
        set_mode(d, "pointer")
        own = state(d).get("mode")
        app = subprocess.Popen(["xmessage", "-name", "remotion-pageprofile", "profile"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        helpers.append(app)
        window = subprocess.run(["timeout", "10", "xdotool", "search", "--sync", "--classname", "^remotion-pageprofile$"],
                                capture_output=True, text=True).stdout.split()
        focus = lambda w: subprocess.run(["xprop", "-root", "-f", "_NET_ACTIVE_WINDOW", "32x", "-set", "_NET_ACTIVE_WINDOW", w])
        note = lambda: js(d, "(() => { const n = document.getElementById('profile-note'); return n.hidden ? null : n.textContent; })()")
        pressed = lambda: js(d, "[...document.querySelectorAll('[data-pane=pointer] .mode-seg [data-mode]')]"
                                ".filter((b) => b.getAttribute('aria-pressed') === 'true').map((b) => b.dataset.mode)")
        check("before: no profile in force, no note, the page's own mode (pointer)",
              window and state(d).get("profile") is None and note() is None and own == "pointer", (window, state(d).get("profile"), note(), own))
        if window:
            focus(window[0])
        shown = wait(lambda: (state(d).get("profile") or {}).get("app") == "remotion-pageprofile", 5)
        check("its window focused: the host tells the page at once — the profile, and the FPS mode it set",
              shown and state(d).get("profile") == {"app": "remotion-pageprofile", "setsMode": True} and state(d).get("mode") == "fps",
              (state(d).get("profile"), state(d).get("mode")))
        check("… the mode bar shows FPS in force and the note names the profile",
              pressed() == ["fps"] and note() == "FPS mode: set by the host's profile for remotion-pageprofile", (pressed(), note()))
        focus("0")
        gone = wait(lambda: state(d).get("status") == "connected" and state(d).get("profile") is None and state(d).get("mode") == own, 5)
        check("no window focused: the note goes and the page's own mode is back", gone and note() is None and pressed() == [own],
              (state(d).get("profile"), state(d).get("mode"), note(), pressed()))
        app.terminate()

        # ── a drag held when the tab closes is released (exactly once) ──────────────
        set_mode(d, "touchpad")
        mark()
        c = center_of(d, "#touch-surface")
        touch(d, "touchStart", [dict(c, id=1)])
        closing, d = d, None
        check_drag_released_on_close(closing, log, "tab")
    finally:
        for p in helpers:
            if p.poll() is None:
                p.terminate()
                p.wait(5)
        if d:
            d.quit()
    return page_harness.finish()


if __name__ == "__main__":
    sys.exit(main())
