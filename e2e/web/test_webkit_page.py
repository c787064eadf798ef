#!/usr/bin/env python3
"""The phone page in WebKit, end to end (scripts/webkit-test.sh): the real page in WebKitGTK's
MiniBrowser (Debian's WebKitWebDriver, selenium 4.51) on an X display of its own, paired with
a real `remotion host --inject xtest` that moves the pointer of another Xvfb (the desk); as
witnesses the desk's own event stream (xinput test-xi2 --root), a keyboard client (xev: the
keysym each key press means) and XQueryPointer (xdotool). Prints "N passed, N failed".

What WebKitGTK lacks and what stands in for it is in e2e/web/webkit_harness.py: the sensor
events and iOS's requestPermission() are provided by this test (WebKit has no sensor
emulation like Chromium's CDP, and this WebKitGTK has no DeviceMotionEvent or
DeviceOrientationEvent at all); there is no RTCPeerConnection, so only the WebSocket path is
exercised — the data-channel path in WebKit is not tested here.

Arguments: --url PAIRING_URL --xi2-log FILE --xev-log FILE --phone-display :N --browser-home DIR
--cert PEM (the host's server certificate). Environment: DISPLAY (the desk), ARTIFACTS."""
import argparse, os, sys, time

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import page_harness   # noqa: E402
from page_harness import (BUTTON_PRESS, BUTTON_RELEASE, KEY_PRESS, KEY_RELEASE, KEYCODE, KeyLog, XLog, check,  # noqa: E402
                          expected, gamepad_mode, js, layout_checks, near, set_mode, state, typed, wait, xy)
import webkit_harness as wk   # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    for a in ("--url", "--xi2-log", "--xev-log", "--phone-display", "--browser-home", "--cert"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    artifacts = os.environ.get("ARTIFACTS", ".")
    base = args.url.split("#")[0].rstrip("/")
    log, keys = XLog(args.xi2_log), KeyLog(args.xev_log)

    def mark():
        log.mark()
        keys.mark()

    # ── the certificate: refused without the allowance for the host's own certificate ──────
    d = wk.browser(args.phone_display, os.path.join(args.browser_home, "untrusting"))
    try:
        try:
            d.get(base + "/")
            at = js(d, "[location.href, !!window.remotionTest]")
        except WebDriverException as e:
            at = ["(%s)" % str(e).splitlines()[0], False]
        check("WebKit without the allowance refuses the page (the host's CA is not trusted): still at %s" % at[0],
              not at[0].startswith(base) and not at[1], at)
    finally:
        d.quit()

    d = wk.browser(args.phone_display, args.browser_home, cert=args.cert)
    try:
        wk.resize(d, 390, 844)
        # ── what this WebKit has ──────────────────────────────────────────────────────────────
        d.get(args.url)
        wait(lambda: state(d).get("screen") == "pair")
        have = js(d, "[typeof DeviceOrientationEvent, typeof DeviceMotionEvent, typeof RTCPeerConnection, navigator.userAgent]")
        check("WebKitGTK here has no DeviceOrientationEvent, DeviceMotionEvent or RTCPeerConnection "
              "(so the test provides the sensors, and only the WebSocket path runs): %s" % have[3],
              have[:3] == ["undefined"] * 3, have)

        # ── pairing through the QR URL ─────────────────────────────────────────────────────────
        page_harness.check_ca_fingerprint(d, os.path.join(os.path.dirname(args.cert), "web-ca.pem"))
        name = d.find_element(By.ID, "pair-name")
        name.clear()
        name.send_keys("WebKit phone")
        wk.tap(d, "#pair-go")
        st = wait(lambda: state(d).get("status") == "connected" and state(d).get("labels") and state(d), 8)
        check("paired, connected, the host's button map arrived", st and st.get("screen") == "controller", state(d))
        check("the transport is the WebSocket, and the header says so",
              st and st.get("transport") == "websocket" and d.find_element(By.ID, "transport").text == "WebSocket",
              (state(d).get("transport"), d.find_element(By.ID, "transport").text))
        d.get(base + "/")
        check("after a reload the phone reconnects with its stored credential",
              wait(lambda: state(d).get("status") == "connected", 8), state(d))
        # WebKit grants a screen wake lock only while a tap is handled or just was (transient
        # activation, WebKit PR 13104), unlike Chromium: the page's requests on the connection's
        # updates (each pong) are refused until the first tap, then one succeeds.
        wake = lambda: d.find_element(By.ID, "d-wake").get_attribute("textContent")
        refused = wait(lambda: wake() == "no (NotAllowedError)", 2)
        time.sleep(0.6)   # more than one pong: asked again, still refused without a tap
        check("connected, no tap yet: WebKit refuses the screen wake lock (%s)" % wake(),
              refused and not state(d).get("wakeLock") and wake() == "no (NotAllowedError)", (state(d).get("wakeLock"), wake()))
        wk.tap(d, 'nav [data-page-mode="pointer"]')
        check("the first tap takes it (the page asks again within the tap's activation)",
              wait(lambda: state(d).get("wakeLock"), 2), (state(d).get("wakeLock"), wake()))

        # ── the layout rule at the six sizes (the window is the viewport), Start motion shown ──
        def sized(d, w, h):
            check("WebKit's window gives the page a %d×%d viewport" % (w, h), wk.resize(d, w, h), js(d, "[innerWidth, innerHeight]"))
        layout_checks(d, artifacts, resize=sized, shots="webkit")

        # ── Start motion: no sensor API, then iOS's permission surface ─────────────────────────
        set_mode(d, "pointer")
        hint = d.find_element(By.ID, "start-hint").text
        wk.tap(d, "#start")
        # 10 s: an eventual state, not a speed (beside a second CPU load WebKitGTK took over 2 s
        # to answer the iOS permission flow once; a broken page never gets there).
        gone = wait(lambda: state(d).get("sensors") == "unsupported", 10)
        check("without a sensor API: the page says so and Start → unsupported, with a notice (%r)" % hint,
              gone and "no motion sensor" in d.find_element(By.ID, "notice").text and "no motion sensors" in hint,
              (state(d).get("sensors"), hint, d.find_element(By.ID, "notice").text))
        wk.install_sensors(d, "denied")
        wk.tap(d, "#start")
        check("iOS answers 'denied' → the page says motion access was denied",
              wait(lambda: state(d).get("sensors") == "denied", 10) and "denied" in d.find_element(By.ID, "notice").text,
              (state(d).get("sensors"), d.find_element(By.ID, "notice").text))
        js(d, "(() => { window.__sensors.answer = 'granted'; window.__sensors.asked.length = 0; return true; })()")
        wk.tap(d, "#start")
        check("Start motion → requestPermission() asked for both events while the tap was handled, sensors on",
              wait(lambda: state(d).get("sensors") == "on", 10) and js(d, "window.__sensors.asked") == [True, True],
              (state(d).get("sensors"), js(d, "window.__sensors.asked")))
        check("the first sample is the centre", wait(lambda: near(xy(), expected(0, 0)), 3), xy())
        for yaw, pitch in ((10, 0), (10, 5), (-15, -4), (0, 0)):
            wk.orient(d, yaw, pitch, 0)
            want = expected(yaw, pitch)
            got = wait(lambda: near(xy(), want) and xy(), 3)
            check("pointer mode: yaw %d°, pitch %d° → the X pointer at %s" % (yaw, pitch, want), got, xy())
        # The harness fires its events at 60 Hz: one frame each, not none and not two (~120).
        # Looked at until it reaches 50/s, for 3 s at most; then 30-90 holds. Was "50 within 3 s,
        # at most 70": the first reading of 50 or more was 51-60 in 3 runs on 2 loaded cores, and
        # a reading of 36/s was seen under load (WebKit's timers behind the harness fall behind).
        rate = wait(lambda: state(d).get("motionRate", 0) >= 50 and state(d).get("motionRate"), 3) \
            or state(d).get("motionRate", 0)
        check("about 60 motion frames/s go out (%s; 30-90)" % rate, 30 <= rate <= 90, state(d).get("motionRate"))

        # ── pointer: clicks, scroll strip ──────────────────────────────────────────────────────
        mark()
        wk.tap(d, '[data-pane=pointer] [data-button="A"]')
        wk.tap(d, '[data-pane=pointer] [data-button="B"]')
        check("Left click → exactly one Button1 press and release",
              wait(lambda: log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1) == (1, 1), 2), log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1))
        check("Right click → exactly one Button3 press and release",
              wait(lambda: log.pair(BUTTON_PRESS, BUTTON_RELEASE, 3) == (1, 1), 2), log.pair(BUTTON_PRESS, BUTTON_RELEASE, 3))
        mark()
        wk.gesture(d, "[data-scroll-strip]", 0, 96)     # natural (default): fingers down → wheel up
        wait(lambda: log.count(BUTTON_PRESS, 4) >= 4, 2)
        time.sleep(0.2)
        check("scroll strip, natural: a 96 px drag down → 4 wheel-up steps (button 4), none down",
              log.count(BUTTON_PRESS, 4) == 4 and log.count(BUTTON_RELEASE, 4) == 4 and log.count(BUTTON_PRESS, 5) == 0,
              (log.count(BUTTON_PRESS, 4), log.count(BUTTON_PRESS, 5), js(d, "remotionTest.sent")))

        # ── presenter: next, previous, blank, the laser ───────────────────────────────────────
        set_mode(d, "presenter")
        mark()
        for b in ("D", "C", "J"):
            wk.tap(d, '[data-pane=presenter] [data-button="%s"]' % b)
        for what, key in (("Next → the Right key", "Right"), ("Previous → the Left key", "Left"), ("Blank → the b key", "b")):
            check("presenter: " + what + " (exactly one press and release)",
                  wait(lambda: keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE[key]) == (1, 1), 2), keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE[key]))
        before, sent = xy(), js(d, "remotionTest.sent.motion")
        wk.press(d, "#laser")
        check("holding Laser: the laser is on and motion flows",
              wait(lambda: state(d).get("laser") and js(d, "remotionTest.sent.motion") >= sent + 10, 2),
              (state(d), js(d, "remotionTest.sent.motion")))
        wk.orient(d, -12, 6, 0)
        time.sleep(0.3)
        check("… while the real pointer stays put (XQueryPointer)", xy() == before, (before, xy()))
        wk.lift(d)
        off = wait(lambda: not state(d).get("laser"), 2)
        sent = js(d, "remotionTest.sent.motion")
        time.sleep(0.3)
        check("releasing Laser: off, and no motion sent after it", off and js(d, "remotionTest.sent.motion") == sent,
              (state(d).get("laser"), sent, js(d, "remotionTest.sent.motion")))
        wk.orient(d, 0, 0, 0)

        # ── touchpad: move, tap, two-finger tap and scroll, drag, keys, text ─────────────────
        set_mode(d, "touchpad")
        before = xy()
        wk.gesture(d, "#touch-surface", 120, 0, steps=12)
        after = wait(lambda: xy()[0] > before[0] + 100 and xy(), 2)
        check("touchpad: a 120 px slide right moves the pointer right by more than 120 px",
              after and after[0] - before[0] >= 120 and abs(after[1] - before[1]) <= 3, (before, xy()))
        mark()
        wk.tap(d, "#touch-surface", 0.05)
        check("touchpad: a tap → exactly one Button1 click",
              wait(lambda: log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1) == (1, 1), 2), log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1))
        mark()
        wk.two_fingers(d, "#touch-surface", steps=0)
        check("touchpad: a two-finger tap (synthetic touch PointerEvents) → exactly one Button3 click, no Button1",
              wait(lambda: log.pair(BUTTON_PRESS, BUTTON_RELEASE, 3) == (1, 1), 2) and log.count(BUTTON_PRESS, 1) == 0,
              log.since())
        mark()
        wk.two_fingers(d, "#touch-surface", 0, 96)   # natural: fingers down → wheel up
        wait(lambda: log.count(BUTTON_PRESS, 4) >= 4, 2)
        time.sleep(0.2)
        check("touchpad: two fingers (synthetic) 96 px down (natural scrolling) → 4 wheel-up steps, no clicks",
              log.count(BUTTON_PRESS, 4) == 4 and log.count(BUTTON_PRESS, 1) == 0 and log.count(BUTTON_PRESS, 3) == 0,
              (log.count(BUTTON_PRESS, 4), log.count(BUTTON_PRESS, 5), log.count(BUTTON_PRESS, 1), log.count(BUTTON_PRESS, 3)))
        mark()
        start = xy()
        wk.gesture(d, "#touch-surface", 0, 64, steps=8, hold=0.6)
        check("touchpad: hold still → Button1 down, moving drags, lifting → exactly one release",
              wait(lambda: log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1) == (1, 1), 2) and xy()[1] > start[1] + 40,
              (log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1), start, xy()))
        mark()
        wk.tap(d, '[data-key="Return"]', 0.05)
        wk.tap(d, '[data-key="BackSpace"]', 0.05)
        check("touchpad keys: ⏎ → one Return, ⌫ → one BackSpace",
              wait(lambda: keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE["Return"]) == (1, 1)
                   and keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE["BackSpace"]) == (1, 1), 2),
              (keys.pair(KEY_PRESS, KEY_RELEASE, 36), keys.pair(KEY_PRESS, KEY_RELEASE, 22)))
        field = d.find_element(By.ID, "type-field")
        at = len(open(args.xev_log, errors="replace").read())
        field.send_keys("Hi é ß ")   # WebKit's key events through WebKitWebDriver
        # WebKitWebDriver cannot type a character outside the BMP (it sends two keys with no
        # text); a phone keyboard's emoji or a committed IME word arrives as insertText, which
        # execCommand drives through WebKit's own editing path.
        js(d, "document.execCommand('insertText', false, arguments[0])", "😀か")
        want = "Hi é ß 😀か"
        got = wait(lambda: typed(args.xev_log, at) == want and want, 3)
        check("typed text arrives as those characters under XTest: %r" % want, got, typed(args.xev_log, at))
        at = len(open(args.xev_log, errors="replace").read())
        field.send_keys(Keys.ENTER)
        check("Enter in the text field → the Return key", wait(lambda: typed(args.xev_log, at) == "<Return>", 2),
              typed(args.xev_log, at))

        # ── gamepad: a labelled key, an arrow and a click ─────────────────────────────────────
        check("gamepad: the host's answer (no virtual pads here) landed before the taps", gamepad_mode(d))
        mark()
        for b in ("G", "C", "A"):
            wk.tap(d, '[data-pane=gamepad] [data-button="%s"]' % b)
        check("gamepad: G (labelled I) → exactly one i key press and release",
              wait(lambda: keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE["i"]) == (1, 1), 2), keys.pair(KEY_PRESS, KEY_RELEASE, 31))
        check("gamepad: C → exactly one Left key press and release",
              wait(lambda: keys.pair(KEY_PRESS, KEY_RELEASE, KEYCODE["Left"]) == (1, 1), 2), keys.pair(KEY_PRESS, KEY_RELEASE, 113))
        check("gamepad: A → exactly one Button1 click",
              wait(lambda: log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1) == (1, 1), 2), log.pair(BUTTON_PRESS, BUTTON_RELEASE, 1))
        wk.orient(d, 8, -3, 0)
        check("gamepad aims too: yaw 8°, pitch −3° → %s" % (expected(8, -3),),
              wait(lambda: near(xy(), expected(8, -3)), 3), xy())

        # ── a drag held when the page closes is released, exactly once ───────────────────────
        set_mode(d, "touchpad")
        mark()
        wk.press(d, "#touch-surface")
        closing, d = d, None
        page_harness.check_drag_released_on_close(closing, log, "browser")
    finally:
        if d:
            d.quit()
    return page_harness.finish()


if __name__ == "__main__":
    sys.exit(main())
