#!/usr/bin/env python3
"""The web controller's transports under real loss (scripts/web-transport-test.sh runs it in a
namespace of its own). Real components: `remotion host --inject xtest` into Xvfb, the page in
headless Chromium (CDP sensors and touch) on WebRTC data channels, `remotion client` (UDP) as
the reference in the same run, nftables making the loss, the X pointer sampled every 2 ms and
the X server's event stream (xinput test-xi2) as the witnesses. Prints "N passed, N failed".

What it asserts is behaviour, with bounds a working host meets with a wide margin and a broken
one cannot (the measured spread behind each bound is in docs/BENCHMARKS.md, "Figures
that left the tests"): under 5% random loss motion keeps flowing with no gap above STALL_MS;
after a 1 s total outage the pointer moves again within OUTAGE_MS of the network's return;
buttons exactly once under loss; a revoked phone is dropped within REVOKE_S; revoked and forged
credentials inject nothing; with UDP blocked the page falls back to the WebSocket (with its
motion lane) and still works.
The goals themselves (the data channel: p99 gap at 5% loss ≤ 1.5× the UDP controller's, moving again
≤ 100 ms after an outage; the WebSocket's lane: ≤ 2× and ≤ 200 ms; revocation
≤ 1 s) are random variables near their bounds: the stage prints them ("figure" lines, never a
FAIL) and appends them to $REMOTION_FIGURES if set; `scripts/bench-web-transport.sh loss N`
measures them over N runs and says in how many each goal was met."""
import argparse, json, os, subprocess, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from selenium.webdriver.common.by import By  # noqa: E402
import page_harness as wc  # noqa: E402  (browser, touch, X event helpers, shared with the page stages)
from transport_tools import (Gyro, Sampler, clear_rules, gaps, loss_rules, nft, now_ms, pct,  # noqa: E402
                             post_rtc, ws_rules)

check, wait, state, cdp, x_events, count = wc.check, wc.wait, wc.state, wc.cdp, wc.x_events, wc.count


def tap(d, letter, hold=0.15):
    """A touch on the page's button `letter` (the harness's tap takes a selector)."""
    wc.tap(d, '[data-button="%s"]' % letter, hold)

BUTTON_PRESS, BUTTON_RELEASE = wc.BUTTON_PRESS, wc.BUTTON_RELEASE

# The behaviour bounds, against 20 runs on 2 loaded cores (docs/BENCHMARKS.md,
# "Figures that left the tests"). Under 5% loss motion keeps flowing: at least a third of the
# movements the same phase makes without loss (measured: 82-122% of them), and no gap near the
# host's 2.5 s silence limit (the longest was 35-113 ms in 19 of 20 runs and 720 ms once, with
# the UDP reference's own longest at 173 ms in that run: the machine's hiccups and SCTP's
# congestion window both show in a maximum; the lane's longest 35-201 ms). After a 1 s outage
# the first move came 23-94 ms (data channel) and 55-105 ms (lane) after the network's return;
# a transport left to TCP's backed-off retransmission (one WebSocket: 476-603 ms; it cannot
# come back sooner than ~400 ms) or one that never recovers fails OUTAGE_MS, about 3× the
# measured worst. A revocation: dropped 0.12-0.47 s after the CLI was started (a debug binary
# on a loaded machine); REVOKE_S is 6× that.
STALL_MS = 2000       # no gap between pointer movements longer than this under 5% loss
OUTAGE_MS = 300       # the pointer moves again within this of the network's return
REVOKE_S = 3.0        # a revoked phone is dropped within this (the goal: 1 s)
figures = {}          # the goals' figures: printed, appended to $REMOTION_FIGURES, never asserted


def figure(key, value, text):
    """One measured figure against its goal: a line in the log, a value for the benchmark."""
    figures[key] = value
    print("figure %s: %s" % (key, text), flush=True)


def flowing(g):
    """Motion kept flowing: the movements seen, and the longest gap (ms)."""
    return len(g), (g[-1] if g else float("inf"))


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
    run; after a 1 s outage the pointer moves within 200 ms of the network's return. Then the same with one WebSocket, for comparison."""
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
    n, longest = flowing(ws_loss)
    check("5%% loss on the WebSocket with its lane: motion keeps flowing (%d movements in 14 s, > 280: a third of "
          "60 Hz), no gap above %d ms (longest %.1f ms)" % (n, STALL_MS, longest), n > 280 and longest <= STALL_MS, numbers)
    figure("lane_p99_ratio", ratio, "5%% loss: p99 gap %.1f ms on the WebSocket with its lane, %.2f× UDP's %.1f ms "
           "(goal ≤ 2×)" % (pct(ws_loss, 99), ratio, pct(udp_loss, 99)))
    figures.update(lane_p99_ms=pct(ws_loss, 99), lane_max_ms=longest, lane_over_100=sum(g > 100 for g in ws_loss))
    wait(lambda: (state(d).get("lane") or {}).get("ready"), 5)
    first, back = ws_outage_first(gyro, sampler, web_port)
    numbers["ws_outage_first_ms"] = first
    # The lane's recent events on the test's clock, relative to the network's return.
    offset = now_ms() - d.execute_script("return performance.now()")
    numbers["ws_outage_lane"] = [(round(t + offset - back), what) for t, what in (state(d).get("lane") or {}).get("recent", [])]
    check("1 s outage: the pointer moves again on the WebSocket with its lane, %.1f ms after the network returns "
          "(≤ %d ms)" % (first, OUTAGE_MS), first <= OUTAGE_MS, (numbers["ws_outage_lane"], state(d)))
    figure("lane_outage_first_ms", first, "the lane's first move %.1f ms after a 1 s outage (goal ≤ 200 ms)" % first)
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
    figures.update(one_socket_p99_ms=pct(one_loss, 99), one_socket_max_ms=one_loss[-1] if one_loss else None,
                   one_socket_outage_first_ms=numbers["ws_one_socket_outage_first_ms"])
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
        before = wc.xy()
        step = -10 if before[0] > 960 else 10            # towards the middle of the screen
        c = wc.center_of(d, "#touch-surface")
        wc.touch(d, "touchStart", [{"x": c["x"] - 6 * step, "y": c["y"], "id": 1}])
        for k in range(1, 13):
            time.sleep(0.02)
            wc.touch(d, "touchMove", [{"x": c["x"] - 6 * step + step * k, "y": c["y"], "id": 1}])
        wc.touch(d, "touchEnd", [])
        moved = wait(lambda: (wc.xy()[0] - before[0]) * step > 100 * abs(step), 3)
        check("a touchpad slide over the data channel moves the pointer", moved, (before, wc.xy()))
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
        n, longest = flowing(web_loss)
        check("5%% loss on the data channel: motion keeps flowing (%d movements in 6 s, ≥ ⅓ of the %d without loss), "
              "no gap above %d ms (longest %.1f ms)" % (n, len(web_clean), STALL_MS, longest),
              n >= len(web_clean) / 3 and longest <= STALL_MS, numbers)
        figure("dc_p99_ratio", ratio, "5%% loss: p99 gap %.1f ms on the data channel, %.2f× UDP's %.1f ms (goal ≤ 1.5×)"
               % (pct(web_loss, 99), ratio, pct(udp_loss, 99)))
        figures.update(udp_p99_ms=pct(udp_loss, 99), udp_max_ms=udp_loss[-1], dc_p99_ms=pct(web_loss, 99), dc_max_ms=longest,
                       dc_over_100=sum(g > 100 for g in web_loss))

        # ── a 1 s total outage: moving again within OUTAGE_MS of the network's return
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
        check("1 s outage: the pointer moves again on the data channel, %.1f ms after the network returns (≤ %d ms)"
              % (first, OUTAGE_MS), first <= OUTAGE_MS, (after[:3], session_before, state(d)))
        figure("dc_outage_first_ms", first, "the data channel's first move %.1f ms after a 1 s outage (goal ≤ 100 ms)" % first)

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
        figures["fallback_s"] = time.monotonic() - blocked
        check("UDP blocked → the page switches to the WebSocket by itself (%.1f s)" % figures["fallback_s"],
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

        # ── revoked: dropped within REVOKE_S, injects nothing ────────────────────────────
        d.get(base + "/")   # back on the data channels (a new page tries them first)
        wait(lambda: state(d).get("status") == "connected", 10)
        check("reconnects on the data channels", state(d).get("transport") == "webrtc", state(d))
        d.find_element(By.ID, "start").click()
        wait(lambda: state(d).get("sensors") == "on", 3)
        revoked_at = time.monotonic()
        subprocess.run([args.bin, "devices", "--data-dir", args.data_dir, "--revoke", device["id"]], capture_output=True)
        gone = wait(lambda: state(d).get("status") not in ("connected", "connecting") and state(d), REVOKE_S + 2)
        took = time.monotonic() - revoked_at
        check("a revoked phone on the data channels is dropped within %.0f s (%.2f s) and told why" % (REVOKE_S, took),
              gone and took <= REVOKE_S and "revoked" in json.dumps(gone), gone)
        figure("dc_revoke_s", took, "dropped %.2f s after `remotion devices --revoke` was started (goal ≤ 1 s)" % took)
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
    if os.environ.get("REMOTION_FIGURES"):
        with open(os.environ["REMOTION_FIGURES"], "a") as f:
            f.write(json.dumps(dict(figures, checks_passed=sum(wc.results), checks=len(wc.results))) + "\n")
    passed = sum(wc.results)
    print("%d passed, %d failed" % (passed, len(wc.results) - passed))
    return 0 if passed == len(wc.results) else 1


if __name__ == "__main__":
    sys.exit(main())
