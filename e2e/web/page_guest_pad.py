#!/usr/bin/env python3
"""The phone page outside, the pad inside (scripts/page-guest-test.sh): headless Chromium
(selenium, CDP touch and sensor emulation: e2e/web/page_harness.py) opens the page of a
`remotion host --gamepad dualsense` that runs in the QEMU guest, through the port QEMU forwards
to 127.0.0.1, pairs (a person inside accepts), enters the Gamepad mode and starts motion.
Then, in sequence, it holds the left and then the right stick at known places, pulls L2 and
then R2 to known depths and lets them go one at a time, holds Cross and the d-pad's up, turns the emulated gyroscope at a known
rate, puts one and then two fingers on the touchpad and lifts them one at a time, and taps it
— each followed by a return to rest. Last, a game inside rumbles the pad and lights it: the
page must vibrate, stop, and paint the light. Every step changes one value at once (one touch
event, one sensor reading), so no state between two can be taken for a step's. Each step is announced to the SDL witness inside (RESULTS/steps/N.json, written once
the page has set what the step sets) and waited for (N.seen.json: what SDL read, settled).
What it set (in the page's own units) and its own checks go to RESULTS/page.json; the pad's
values are checked by scripts/lib/page_guest_check.py. Its one bound is the witness's answer
to each step; the SDL readings are not judged here.

    page_guest_pad.py --url URL --results DIR --profile DIR"""
import argparse, copy, json, os, sys, time

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from page_harness import browser, cdp, js, set_mode, state, tap, touch, wait   # noqa: E402

REST = {"lx": 0.0, "ly": 0.0, "rx": 0.0, "ry": 0.0, "l2": 0.0, "r2": 0.0, "buttons": [],
        "gyro": [0.0, 0.0, 0.0], "accel": [0.0, 0.0, 9.80665], "touch": [[0], [0]]}
GYRO = [0.6, -0.9, 1.2]          # the emulated gyroscope's turn, rad/s about the device's x, y, z


def main():
    ap = argparse.ArgumentParser()
    for a in ("--url", "--results", "--profile"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    steps_dir = os.path.join(args.results, "steps")
    report = {"url": args.url.split("#")[0], "checks": [], "steps": []}

    def check(name, ok, detail=""):
        report["checks"].append({"name": name, "ok": bool(ok), "detail": "" if ok else str(detail)})
        print(("PASS " if ok else "FAIL ") + name + ("" if ok else "  -- " + str(detail)), flush=True)
        return ok

    def save():
        tmp = os.path.join(args.results, "page.json.tmp")
        json.dump(report, open(tmp, "w"), indent=1)
        os.replace(tmp, os.path.join(args.results, "page.json"))

    def step(name, sets, geometry=None, witness=None):
        """Announces step N (what the page now sends) and waits for what SDL read, settled.
        `witness`: what the SDL witness does differently ("transient": buttons only seen down
        in passing; "do": "rumble", a game's action), sent with the step and recorded."""
        k = len(report["steps"])
        report["steps"].append({"name": name, "set": copy.deepcopy(sets), "geometry": geometry, "witness": witness or {}})
        save()
        tmp = os.path.join(steps_dir, f"{k}.tmp")
        json.dump({"name": name, **(witness or {})}, open(tmp, "w"))
        os.replace(tmp, os.path.join(steps_dir, f"{k}.json"))
        seen = os.path.join(steps_dir, f"{k}.seen.json")
        # The witness settles within 30 s or says it timed out; 60 s covers a stalled guest.
        got = wait(lambda: os.path.exists(seen), 60, 0.05)
        report["steps"][-1]["answered"] = bool(got)
        print(f"step {k} {name}: {json.load(open(seen))['reading'] if got else 'no answer from the witness'}", flush=True)
        return got

    def rect(selector):
        r = d.execute_script("const e = document.querySelector(arguments[0]); if (!e) return null;"
                             "const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height];", selector)
        if r is None:
            raise RuntimeError("no element " + selector)
        return r

    def stick(side, fx, fy):
        """A thumb down at the stick zone's centre, then one move to (fx, fy) of the page's reach
        (mode-gamepad.js) — a known place inside the circle —; the step read, then let go."""
        left, top, w, h = rect(f'[data-pane=gamepad] [data-stick="{side}"]')
        reach = max(24, min(60, min(w, h) * 0.3))
        x0, y0 = round(left + w / 2), round(top + h / 2)
        dx, dy = round(fx * reach), round(fy * reach)
        keys = ("lx", "ly") if side == "left" else ("rx", "ry")
        touch(d, "touchStart", [{"x": x0, "y": y0, "id": 1}])
        time.sleep(0.05)
        touch(d, "touchMove", [{"x": x0 + dx, "y": y0 + dy, "id": 1}])
        now.update({keys[0]: dx / reach, keys[1]: dy / reach})
        ok = step(f"{side} stick", now, {"reach": reach, "dx": dx, "dy": dy})
        touch(d, "touchEnd", [])
        now.update({keys[0]: 0.0, keys[1]: 0.0})
        return ok and step(f"{side} stick released", now)

    def button(letter, name):
        """The page's button `letter` held (a finger at its centre), the step read, then let go."""
        left, top, w, h = rect(f'[data-pane=gamepad] [data-button="{letter}"]')
        touch(d, "touchStart", [{"x": round(left + w / 2), "y": round(top + h / 2), "id": 1}])
        now["buttons"] = [letter]
        ok = step(f"{name} held", now)
        touch(d, "touchEnd", [])
        now["buttons"] = []
        return ok and step(f"{name} released", now)

    d = None
    try:
        d = browser(args.profile)
        d.get(args.url)
        wait(lambda: state(d).get("screen") == "pair", 20)
        d.find_element(By.ID, "pair-go").click()
        # Pairing waits for the person inside (consent.py polls every 0.1 s) and the emulated guest.
        st = wait(lambda: state(d).get("status") == "connected" and state(d), 60)
        if not check("the page through 127.0.0.1's forwarded port pairs and connects (Host and Origin accepted)", st, state(d)):
            return
        check("it streams over the WebSocket (only the web port is forwarded)", st.get("transport") == "websocket",
              st.get("transport"))
        set_mode(d, "gamepad")
        pad = wait(lambda: (state(d).get("pad") or {}).get("on") and state(d).get("pad"), 30)
        if not check("the Gamepad mode's pad: the host makes one (on, available)", pad == {"on": True, "available": True},
                     state(d).get("pad")):
            return
        if js(d, "!document.getElementById('start').hidden"):
            d.find_element(By.ID, "start").click()
        if not check("motion on (emulated sensors)", wait(lambda: state(d).get("sensors") == "on", 10), state(d).get("sensors")):
            return
        ready = os.path.join(args.results, "sdl.ready")
        if not check("SDL inside opened the pad (its gyro and accelerometer on)", wait(lambda: os.path.exists(ready), 180),
                     "no sdl.ready in the results share"):
            return
        now = copy.deepcopy(REST)
        if not step("rest", now):
            return

        # The sticks: the left up and to the right, the right down and to the left.
        if not (stick("left", 0.6, -0.3) and stick("right", -0.4, 0.5)):
            return

        # L2 and R2: a finger on each at a known depth (0.1 at the top … 1 at the bottom,
        # triggerFromDepth), put down and lifted one at a time: each step changes one value, so
        # there is no state between two to be read as settled.
        pts, geo = [], {}
        for i, (which, frac) in enumerate((("l2", 0.2), ("r2", 0.5))):
            left, top, w, h = rect(f'[data-pane=gamepad] [data-trigger="{which}"]')
            y = round(top + frac * h)
            pts.append({"x": round(left + w / 2), "y": y, "id": i + 1})
            geo[which] = {"top": top, "height": h, "y": y, "value": 0.1 + 0.9 * max(0.0, min(1.0, (y - top) / h))}
        touch(d, "touchStart", pts[:1])
        now["l2"] = geo["l2"]["value"]
        ok = step("L2 pulled", now, geo["l2"])
        if ok:
            touch(d, "touchStart", pts)
            now["r2"] = geo["r2"]["value"]
            ok = step("R2 pulled too", now, geo["r2"])
        if ok:
            touch(d, "touchEnd", pts[1:])      # CDP's touchEnd lifts the points it names
            now["r2"] = 0.0
            ok = step("R2 let go", now)
        touch(d, "touchEnd", [])
        now.update(l2=0.0, r2=0.0)
        if not (ok and step("L2 let go", now)):
            return

        # Cross (the page's A) and the d-pad's up (its E), each held, then let go.
        if not (button("A", "Cross") and button("E", "d-pad up")):
            return

        # The gyro: the emulated gyroscope turns at GYRO rad/s (the page reads it as
        # devicemotion's rotationRate), then stops.
        cdp(d, "Emulation.setSensorOverrideReadings", {"type": "gyroscope", "reading": {"xyz": dict(zip("xyz", GYRO))}})
        now["gyro"] = list(GYRO)
        ok = step("gyro turning", now)
        cdp(d, "Emulation.setSensorOverrideReadings", {"type": "gyroscope", "reading": {"xyz": {"x": 0, "y": 0, "z": 0}}})
        now["gyro"] = [0.0, 0.0, 0.0]
        if not (ok and step("gyro still", now)):
            return

        # The touchpad (between Create and Options): a finger down at a quarter across and half
        # down, a second at three quarters across and a quarter down, then the first lifted —
        # the second keeps its slot, as on a DualSense — and then the second; each held while SDL
        # reads it. Then a quick tap, which is the touchpad's click (60 ms down: a transient step).
        left, top, w, h = rect('[data-pane=gamepad] [data-touchpad]')
        points = []
        for i, (fx, fy) in enumerate(((0.25, 0.5), (0.75, 0.25))):
            x, y = round(left + fx * w), round(top + fy * h)
            points.append(({"x": x, "y": y, "id": 10 + i}, [1, (x - left) / w, (y - top) / h]))
        touch(d, "touchStart", [points[0][0]])
        now["touch"] = [points[0][1], [0]]
        ok = step("touchpad: one finger", now, {"rect": [left, top, w, h]})
        if ok:
            touch(d, "touchStart", [p for p, _ in points])
            now["touch"] = [points[0][1], points[1][1]]
            ok = step("touchpad: two fingers", now)
        if ok:
            touch(d, "touchEnd", [points[0][0]])     # the first lifts; the second stays in slot 1
            now["touch"] = [[0], points[1][1]]
            ok = step("touchpad: the first finger lifted", now)
        touch(d, "touchEnd", [])
        now["touch"] = [[0], [0]]
        if not (ok and step("touchpad: both lifted", now)):
            return
        tap(d, '[data-pane=gamepad] [data-touchpad]', 0.05)
        if not step("touchpad: a quick tap clicks it", now, witness={"transient": ["touchpad"]}):
            return

        # A game's rumble and light, back to the phone: SDL inside rumbles the pad (low 0xFFFF,
        # high 0x8000, 400 ms) and lights it #ff0040; the page vibrates (a pattern that fills the
        # next second, feedback.js; SDL may halve the motors, so its duty is not judged), stops
        # when the game's 400 ms are over, and paints the light's dot.
        js(d, "(() => { window.__buzz = []; navigator.vibrate = (p) => { window.__buzz.push(p); return true; }; return true; })()")
        if step("a game's rumble and light", now, witness={"do": "rumble"}):
            buzz = wait(lambda: (lambda b: b if 0 in b[1:] else None)(js(d, "window.__buzz")), 10)
            check("the game's rumble reaches the phone: it vibrates (a pattern for the next second) and stops when the "
                  "game's rumble ends", buzz and isinstance(buzz[0], list) and sum(buzz[0]) == 1000 and buzz[-1] == 0,
                  js(d, "window.__buzz"))
            light = wait(lambda: js(d, "(() => { const e = document.getElementById('lightbar');"
                                       " return !e.hidden && e.title; })()"), 5)
            check("the game's light reaches the phone: the bar's dot is #ff0040", light and "#ff0040" in light, light)
        check("the page stayed connected through the steps", state(d).get("status") == "connected", state(d))
    except Exception as e:          # a broken page or browser is a failed check, never a skip
        check("the page's steps ran", False, repr(e))
    finally:
        save()
        open(os.path.join(steps_dir, "done"), "w").close()
        if d:
            d.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
