#!/usr/bin/env python3
"""The web controller's transports under real loss (scripts/web-transport-test.sh runs it in a
namespace of its own). Real components: `remotion host --inject xtest` into Xvfb, the page in
headless Chromium (CDP sensors and touch) on WebRTC data channels, `remotion client` (UDP) as
the reference in the same run, nftables making the loss, the X pointer sampled every 2 ms and
the X server's event stream (xinput test-xi2) as the witnesses. Prints "N passed, N failed".

Thresholds (issue 20): at 5% random loss the p99 gap between pointer movements is at most
1.5x the UDP controller's; after a 1 s total outage the pointer moves again within 100 ms of
the network returning; buttons exactly once under loss; revoked and forged credentials inject
nothing; with UDP blocked the page falls back to the WebSocket and still works.
Issue 26 item 6, the WebSocket with its motion lane (UDP blocked, loss on the page's TCP port):
at 5% loss the p99 gap is at most 2x the UDP controller's in this run; after a 1 s outage the
pointer moves within 200 ms of the network's return."""
import argparse, json, os, subprocess, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from selenium.webdriver.common.by import By  # noqa: E402
import test_web_controller as wc  # noqa: E402  (browser, touch, X event helpers)
from transport_tools import (Gyro, Sampler, clear_rules, gaps, loss_rules, nft, now_ms, pct,  # noqa: E402
                             post_rtc, ws_rules)

check, wait, state, cdp, tap, x_events, count = wc.check, wc.wait, wc.state, wc.cdp, wc.tap, wc.x_events, wc.count
BUTTON_PRESS, BUTTON_RELEASE = wc.BUTTON_PRESS, wc.BUTTON_RELEASE


def ws_loss_gaps(gyro, sampler, web_port, seconds=8):
    """Gaps between pointer movements while the page turns, 5% loss on the page's TCP port."""
    ws_rules(web_port, 5)
    gyro.run(0.5)
    t0 = now_ms()
    gyro.run(seconds)
    g = gaps(sampler.between(t0, now_ms()))
    ws_rules(web_port, 0)
    return g


def ws_outage_first(gyro, sampler, web_port):
    """A 1 s outage of the page's TCP port while the page turns: ms from the network's return
    to the first pointer movement, and that moment on the test's clock."""
    stop = threading.Event()
    def keep_turning():
        while not stop.is_set():
            gyro.run(0.25)
    turner = threading.Thread(target=keep_turning, daemon=True)
    turner.start()
    time.sleep(1)
    ws_rules(web_port, 100)
    time.sleep(1.0)
    back = now_ms()
    ws_rules(web_port, 0)
    time.sleep(1.0)
    stop.set()
    turner.join()
    after = sampler.between(back, now_ms())
    return (after[0] - back if after else float("inf")), back


def ws_numbers(d, gyro, sampler, base, udp_loss, numbers, log):
    """The WebSocket fallback with its motion lane (docs/WEB-CONTROLLER.md, "The motion lane"):
    at 5% loss the p99 gap between pointer movements is at most 2x the UDP controller's in this
    run; after a 1 s outage the pointer moves within 200 ms of the network's return (issue 26
    item 6). Then the same with one WebSocket, for comparison."""
    web_port = base.rsplit(":", 1)[1]
    lane = wait(lambda: (state(d).get("lane") or {}).get("ready") and state(d)["lane"], 5)
    check("the WebSocket's motion lane joins its session", lane, state(d))
    session = state(d).get("session")
    # 14 s (~800 movements): at 8 s the p99 was the 4th-worst of ~410 gaps, and one burst of
    # random loss on a loaded machine swung it past 2× (73 ms, 2.16×, in 2 of 4 runs beside builds).
    ws_loss = ws_loss_gaps(gyro, sampler, web_port, seconds=14)
    numbers["ws_loss"] = (pct(ws_loss, 50), pct(ws_loss, 99), ws_loss[-1] if ws_loss else None,
                          sum(g > 100 for g in ws_loss))   # p50, p99, max, gaps over 100 ms
    ratio = pct(ws_loss, 99) / pct(udp_loss, 99)
    numbers["ws_lane"] = {k: v for k, v in (state(d).get("lane") or {}).items() if k != "recent"}
    check("5%% loss: p99 gap %.1f ms on the WebSocket with its lane ≤ 2 × UDP's %.1f ms (%.2f×; %d movements)"
          % (pct(ws_loss, 99), pct(udp_loss, 99), ratio, len(ws_loss)), len(ws_loss) > 400 and ratio <= 2.0, numbers)
    wait(lambda: (state(d).get("lane") or {}).get("ready"), 5)
    first, back = ws_outage_first(gyro, sampler, web_port)
    numbers["ws_outage_first_ms"] = first
    # The lane's recent events on the test's clock, relative to the network's return.
    offset = now_ms() - d.execute_script("return performance.now()")
    numbers["ws_outage_lane"] = [(round(t + offset - back), what) for t, what in (state(d).get("lane") or {}).get("recent", [])]
    check("1 s outage: the pointer moves %.1f ms after the network returns on the WebSocket with its lane (≤ 200 ms)" % first,
          first <= 200, (numbers["ws_outage_lane"], state(d)))
    check("… the same session throughout (the lane never replaced it)", state(d).get("session") == session
          and state(d).get("status") == "connected", (session, state(d)))

    # Buttons stay on the primary, in order: exactly once under loss while motion takes both sockets.
    presses, releases = count(log, BUTTON_PRESS, 1), count(log, BUTTON_RELEASE, 1)
    ws_rules(web_port, 5)
    sent = state(d)["lane"]
    for _ in range(10):              # (the sensors keep firing: motion frames flow meanwhile)
        tap(d, "A", hold=0.08)
        time.sleep(0.05)
    time.sleep(1.0)
    after = state(d)["lane"]
    ws_rules(web_port, 0)
    got = (count(log, BUTTON_PRESS, 1) - presses, count(log, BUTTON_RELEASE, 1) - releases)
    check("10 taps of A under 5% loss while motion rides both sockets → exactly 10 presses and 10 releases",
          got == (10, 10) and after["onLane"] > sent["onLane"] and after["onPrimary"] > sent["onPrimary"], (got, sent, after))

    # The same without the lane (the page's "remotion.lanes" = "off"): the figures it improves on.
    wc.js(d, "localStorage.setItem('remotion.lanes', 'off')")
    d.get(base + "/")
    st = wait(lambda: state(d).get("status") == "connected" and state(d).get("transport") == "websocket" and state(d), 20)
    next(el for el in d.find_elements(By.CSS_SELECTOR, '[data-mode="fps"]') if el.is_displayed()).click()
    wait(lambda: state(d).get("mode") == "fps", 3)
    d.find_element(By.ID, "start").click()
    wait(lambda: state(d).get("sensors") == "on", 3)
    one_loss = ws_loss_gaps(gyro, sampler, web_port)
    numbers["ws_one_socket_loss"] = (pct(one_loss, 50), pct(one_loss, 99), one_loss[-1] if one_loss else None,
                                     sum(g > 100 for g in one_loss))
    numbers["ws_one_socket_outage_first_ms"], _ = ws_outage_first(gyro, sampler, web_port)
    wc.js(d, "localStorage.removeItem('remotion.lanes')")
    check("without the lane (one WebSocket, for comparison): p99 gap %.1f ms at 5%% loss (%.2f× UDP's; %d movements), "
          "first movement %.0f ms after the outage" % (pct(one_loss, 99), pct(one_loss, 99) / pct(udp_loss, 99), len(one_loss),
                                                        numbers["ws_one_socket_outage_first_ms"]),
          st and state(d).get("lane") is None and len(one_loss) > 100, (st, numbers))


def main():
    ap = argparse.ArgumentParser()
    for a in ("--url", "--udp", "--rtc-ports", "--bin", "--data-dir", "--xi2-log", "--profile", "--sampler", "--host-err"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    base = args.url.split("#")[0].rstrip("/")
    log = args.xi2_log
    sampler = Sampler(args.sampler)
    d = wc.browser(args.profile)
    gyro = Gyro(d)
    numbers = {}
    try:
        # ── the UDP reference first: clean, then 5% loss ────────────────────────────
        def udp_phase(percent, seconds=6):
            loss_rules(args.udp.split(":")[1], percent)
            client = subprocess.Popen([args.bin, "client", "--host", args.udp, "--insecure", "--source", "synthetic:circle",
                                       "--rate", "60", "--duration", str(seconds + 2)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(1)
            t0 = now_ms()
            time.sleep(seconds)
            g = gaps(sampler.between(t0, now_ms()))
            client.wait(10)
            clear_rules()
            return g
        udp_clean = udp_phase(0)
        udp_loss = udp_phase(5)
        check("the UDP controller moves the pointer (reference: %d movements)" % len(udp_loss), len(udp_loss) > 100, len(udp_loss))

        # ── pair; the page opens data channels ─────────────────────────────────────
        d.get(args.url)
        wait(lambda: state(d).get("screen") == "pair")
        d.find_element(By.ID, "pair-go").click()
        st = wait(lambda: state(d).get("status") == "connected" and state(d), 10)
        check("paired and connected over the data channels", st and st.get("transport") == "webrtc", state(d))
        indicator = d.find_element(By.ID, "transport").text
        check("the page shows its transport", indicator == "data channel", indicator)
        # The page's other messages ride the data channel's control channel too: the host's
        # button labels arrive, and a touchpad slide moves the pointer.
        check("the host's button labels arrive over the data channel", wait(lambda: state(d).get("labels"), 3), state(d))
        next(el for el in d.find_elements(By.CSS_SELECTOR, 'nav [data-page-mode="touchpad"]') if el.is_displayed()).click()
        wait(lambda: state(d).get("pageMode") == "touchpad", 2)
        before = wc.pointer()
        step = -10 if before[0] > 960 else 10            # towards the middle of the screen
        c = wc.center_of(d, "#touch-surface")
        wc.touch(d, "touchStart", [{"x": c["x"] - 6 * step, "y": c["y"], "id": 1}])
        for k in range(1, 13):
            time.sleep(0.02)
            wc.touch(d, "touchMove", [{"x": c["x"] - 6 * step + step * k, "y": c["y"], "id": 1}])
        wc.touch(d, "touchEnd", [])
        moved = wait(lambda: (wc.pointer()[0] - before[0]) * step > 100 * abs(step), 3)
        check("a touchpad slide over the data channel moves the pointer", moved, (before, wc.pointer()))
        next(el for el in d.find_elements(By.CSS_SELECTOR, 'nav [data-page-mode="pointer"]') if el.is_displayed()).click()
        wait(lambda: state(d).get("pageMode") == "pointer", 2)
        # The motion-mode switch of the layout on screen (Pointer mode's, by default).
        next(el for el in d.find_elements(By.CSS_SELECTOR, '[data-mode="fps"]') if el.is_displayed()).click()
        wait(lambda: state(d).get("mode") == "fps", 3)
        d.find_element(By.ID, "start").click()
        check("Start → sensors on", wait(lambda: state(d).get("sensors") == "on", 3), state(d))

        def web_phase(percent, seconds=6):
            loss_rules(args.rtc_ports, percent)
            gyro.run(0.5)
            t0 = now_ms()
            gyro.run(seconds)
            g = gaps(sampler.between(t0, now_ms()))
            clear_rules()
            return g
        web_clean = web_phase(0)
        check("motion arrives over the data channel (%d pointer movements in 6 s)" % len(web_clean),
              len(web_clean) > 150 and state(d).get("transport") == "webrtc", (len(web_clean), state(d)))
        web_loss = web_phase(5)
        numbers.update(udp_clean=(pct(udp_clean, 50), pct(udp_clean, 99)), udp_loss=(pct(udp_loss, 50), pct(udp_loss, 99), udp_loss[-1]),
                       web_clean=(pct(web_clean, 50), pct(web_clean, 99)), web_loss=(pct(web_loss, 50), pct(web_loss, 99), web_loss[-1]))
        ratio = pct(web_loss, 99) / pct(udp_loss, 99)
        check("5%% loss: p99 gap %.1f ms on the data channel ≤ 1.5 × UDP's %.1f ms (%.2f×)"
              % (pct(web_loss, 99), pct(udp_loss, 99), ratio), ratio <= 1.5, numbers)

        # ── a 1 s total outage: moving again within 100 ms of the network's return ─
        stop = threading.Event()
        def keep_turning():
            while not stop.is_set():
                gyro.run(0.25)   # alternates direction on each call
        # one driver thread only: the main thread sleeps while this one drives the page
        session_before = state(d)
        turner = threading.Thread(target=keep_turning, daemon=True)
        turner.start()
        time.sleep(1)
        loss_rules(args.rtc_ports, 100)
        time.sleep(1.0)
        back = now_ms()
        clear_rules()
        time.sleep(1.0)
        stop.set()
        turner.join()
        after = [t for t in sampler.between(back, now_ms())]
        first = after[0] - back if after else float("inf")
        numbers["outage_first_ms"] = first
        check("1 s outage: the pointer moves %.1f ms after the network returns (≤ 100 ms)" % first, first <= 100,
              (after[:3], session_before, state(d)))

        # ── buttons exactly once under 5% loss ─────────────────────────────────────
        gyro.stop()
        presses, releases = count(log, BUTTON_PRESS, 1), count(log, BUTTON_RELEASE, 1)
        loss_rules(args.rtc_ports, 5)
        for _ in range(10):
            tap(d, "A", hold=0.08)
            time.sleep(0.05)
        time.sleep(1.0)
        clear_rules()
        got = (count(log, BUTTON_PRESS, 1) - presses, count(log, BUTTON_RELEASE, 1) - releases)
        check("10 taps of A under 5% loss → exactly 10 presses and 10 releases in X", got == (10, 10), got)

        # ── the signalling route: forged credential, foreign Origin, wrong Host ────
        device = json.loads(wc.js(d, "localStorage.getItem('remotion.device')"))
        offer = d.execute_async_script("""
            const done = arguments[0], pc = new RTCPeerConnection();
            pc.createDataChannel('control');
            pc.createOffer().then(o => { done(o.sdp); pc.close(); });""")
        forged = {"id": device["id"], "credential": "A" * 43, "sdp": offer}
        check("a forged credential cannot signal (403)", post_rtc(base, forged)[0] == 403)
        check("another origin cannot signal (403)", post_rtc(base, dict(device, sdp=offer), origin="https://evil.example")[0] == 403)
        check("an unknown Host cannot signal (421)", post_rtc(base, dict(device, sdp=offer), host="evil.example")[0] == 421)
        check("a malformed offer is refused (400)", post_rtc(base, dict(device, sdp="v=0\r\nm=audio 9 RTP/AVP 0\r\n"))[0] == 400)

        # ── UDP blocked: the page falls back to the WebSocket, without a reload ─────
        nft("add", "rule", "inet", "wt", "input", "meta", "l4proto", "udp", "drop")
        blocked = time.monotonic()
        st = wait(lambda: state(d).get("status") == "connected" and state(d).get("transport") == "websocket" and state(d), 20)
        check("UDP blocked → the page switches to the WebSocket by itself (%.1f s)" % (time.monotonic() - blocked),
              st, state(d))
        check("… and says so", d.find_element(By.ID, "transport").text == "WebSocket", d.find_element(By.ID, "transport").text)
        # The motion-mode switch of the layout on screen (Pointer mode's, by default).
        next(el for el in d.find_elements(By.CSS_SELECTOR, '[data-mode="fps"]') if el.is_displayed()).click()   # a new session starts in pointer mode
        wait(lambda: state(d).get("mode") == "fps", 3)
        t0 = now_ms()
        gyro.run(2)
        moved = len(sampler.between(t0, now_ms()))
        gyro.stop()
        presses = count(log, BUTTON_PRESS, 1)
        tap(d, "A")
        time.sleep(0.5)
        check("… and still works: the pointer moves (%d) and A clicks once" % moved,
              moved > 30 and count(log, BUTTON_PRESS, 1) == presses + 1, (moved, count(log, BUTTON_PRESS, 1) - presses))
        ws_numbers(d, gyro, sampler, base, udp_loss, numbers, args.xi2_log)
        clear_rules()

        # ── revoked: dropped within 1 s, injects nothing ────────────────────────────
        d.get(base + "/")   # back on the data channels (a new page tries them first)
        wait(lambda: state(d).get("status") == "connected", 10)
        check("reconnects on the data channels", state(d).get("transport") == "webrtc", state(d))
        d.find_element(By.ID, "start").click()
        wait(lambda: state(d).get("sensors") == "on", 3)
        revoked_at = time.monotonic()
        subprocess.run([args.bin, "devices", "--data-dir", args.data_dir, "--revoke", device["id"]], capture_output=True)
        gone = wait(lambda: state(d).get("status") not in ("connected", "connecting") and state(d), 3)
        took = time.monotonic() - revoked_at
        check("a revoked phone on the data channels is dropped within 1 s (%.2f s) and told why" % took,
              gone and took <= 1.0 and "revoked" in json.dumps(gone), gone)
        before = x_events(log)
        t0 = now_ms()
        gyro.run(1)
        tap(d, "A")
        time.sleep(0.5)
        check("a revoked phone injects nothing", x_events(log) == before and not sampler.between(t0, now_ms()),
              (x_events(log)[len(before):], len(sampler.between(t0, now_ms()))))
        d.get(base + "/")
        st = wait(lambda: state(d).get("status") == "refused" and state(d), 8)
        check("a revoked phone cannot signal again (refused)", st, state(d))
    finally:
        clear_rules()
        d.quit()
        sampler.stop()
    print("gaps between pointer movements, ms (p50/p99[/max]): " + json.dumps(numbers))
    passed = sum(wc.results)
    print("%d passed, %d failed" % (passed, len(wc.results) - passed))
    return 0 if passed == len(wc.results) else 1


if __name__ == "__main__":
    sys.exit(main())
