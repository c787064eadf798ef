#!/usr/bin/env python3
"""The web controller end to end, with real components: `remotion host` injecting through
XTest into a real Xvfb, the real controller page in headless Chromium (selenium 4.51) with
CDP-emulated phone sensors and touch, and the X server's own event stream (xinput
test-xi2) as the witness. Runs inside a network namespace that has only lo
(scripts/web-controller-test.sh). Prints "N passed, N failed".

Arguments: --url PAIRING_URL --bin REMOTION --data-dir DIR --xi2-log FILE --profile DIR
Environment: DISPLAY (the Xvfb the host injects into)."""
import argparse, base64, json, os, re, subprocess, sys, time, urllib.error, urllib.request

import calibration_check
import consent
# The page's helpers (results, waits, the X witness, Chromium with emulated sensors) are
# page_harness's, shared with the modes and WebKit stages.
from page_harness import (BUTTON_PRESS, BUTTON_RELEASE, KEY_PRESS, KEY_RELEASE, KEYCODE, XLog,  # noqa: E402
                          browser, center_of, check, check_ca_fingerprint, count, expected, finish, js, near, orient, state,
                          tap, touch, wait, x_events, xy)

from selenium.webdriver.common.by import By

LEFT_KEYCODE = KEYCODE["Left"]


def pointer():
    return xy()


def tap_button(d, letter):
    tap(d, '[data-button="%s"]' % letter, hold=0.15)


def main():
    ap = argparse.ArgumentParser()
    for a in ("--url", "--bin", "--data-dir", "--xi2-log", "--profile", "--dashboard", "--dashboard-token"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    base = args.url.split("#")[0].rstrip("/")
    d = browser(args.profile)
    try:
        # ── pair through the QR code's URL ──────────────────────────────────────────
        d.get(args.url)
        wait(lambda: state(d).get("screen") == "pair")
        check_ca_fingerprint(d, os.path.join(args.data_dir, "web-ca.pem"))
        name = d.find_element(By.ID, "pair-name")
        name.clear()
        name.send_keys("CI phone")
        d.find_element(By.ID, "pair-go").click()
        # The link alone admits no one (docs/SECURITY.md §9): the phone waits, showing the code
        # the computer shows, and nothing is stored until the host's user accepts it.
        code = wait(lambda: d.find_element(By.ID, "pair-code").text.strip() if d.find_element(By.ID, "pair-wait").is_displayed() else None, 8)
        pending = subprocess.run([args.bin, "devices", "--data-dir", args.data_dir], capture_output=True, text=True).stdout
        check("the phone waits for the computer: the page and `remotion devices` show the same code, nothing is stored",
              code and code in pending and "CI phone" in pending and "web controllers (0)" in pending, (code, pending))
        # A decision names the request (CODE-ID, as the list shows it), not the bare code, which
        # a newer request may draw again after this one expired.
        bare = subprocess.run([args.bin, "devices", "--data-dir", args.data_dir, "--accept", code or "-"],
                              capture_output=True, text=True)
        check("remotion devices --accept with the bare code is refused (it names no request)",
              bare.returncode != 0 and "CODE-ID" in bare.stderr, bare.stdout + bare.stderr)
        reference = (re.findall(r"\b(%s-[0-9a-f]{8})\b" % re.escape(code or "-"), pending) or ["-"])[0]
        accepted = subprocess.run([args.bin, "devices", "--data-dir", args.data_dir, "--accept", reference],
                                  capture_output=True, text=True)
        check("remotion devices --accept CODE-ID lets it in", accepted.returncode == 0 and "accepted phone 'CI phone'" in accepted.stdout,
              accepted.stdout + accepted.stderr)
        st = wait(lambda: state(d).get("status") == "connected" and state(d), 8)
        check("paired through the QR URL and connected", st and st.get("screen") == "controller", state(d))
        listed = subprocess.run([args.bin, "devices", "--data-dir", args.data_dir], capture_output=True, text=True).stdout
        check("remotion devices lists the phone by name", "CI phone" in listed, listed)
        stored = open(os.path.join(args.data_dir, "web-controllers.json")).read()
        stored_device = js(d, "localStorage.getItem('remotion.device')")
        credential = json.loads(stored_device)["credential"]
        check("the host stores a hash, never the credential", credential not in stored and "credentialHash" in stored)

        # ── stream a rotation sequence; the X pointer follows (pointer mode) ────────
        d.find_element(By.ID, "start").click()
        check("Start → sensors on", wait(lambda: state(d).get("sensors") == "on", 3), state(d))
        check("the first sample is the centre", wait(lambda: near(pointer(), expected(0, 0)), 3), pointer())
        for yaw, pitch in ((10, 0), (10, 5), (-15, -4), (0, 0)):
            orient(d, yaw, pitch, 0)
            want = expected(yaw, pitch)
            got = wait(lambda: near(pointer(), want) and pointer(), 3)
            check("yaw %d°, pitch %d° → pointer %s" % (yaw, pitch, want), got, pointer())

        # ── the menu's Calibrate: hold still, progress, Done; the host calibrated it ──
        calibration_check.run(d, check, wait, js, args.dashboard, "CI phone")

        # ── buttons: A is a left click, C the Left key, each seen in X exactly once ──
        d.find_element(By.CSS_SELECTOR, 'nav [data-page-mode="gamepad"]').click()   # the mode with all sixteen
        # The mode asks the host for a pad; this host makes none, and its answer shows a notice
        # that reflows the buttons. Tapped before it lands, A's measured centre may have moved.
        answered = wait(lambda: (state(d).get("pad") or {}).get("available") is False
                        and d.find_element(By.ID, "notice").is_displayed(), 5)
        check("the Gamepad mode on a host without pads: the page says games see keys and mouse",
              answered and "makes no virtual gamepads" in d.find_element(By.ID, "notice").text, state(d).get("pad"))
        tap_button(d, "A")
        tap_button(d, "C")
        log = args.xi2_log
        # Wait for the edges to reach X (bounded), then a moment more for any extra one.
        wait(lambda: count(log, BUTTON_RELEASE, 1) >= 1 and count(log, KEY_RELEASE, LEFT_KEYCODE) >= 1, 5)
        time.sleep(0.3)
        check("tap A → one Button1 press and one release in X",
              count(log, BUTTON_PRESS, 1) == 1 and count(log, BUTTON_RELEASE, 1) == 1,
              (count(log, BUTTON_PRESS, 1), count(log, BUTTON_RELEASE, 1)))
        check("tap C → one Left key press and one release in X",
              count(log, KEY_PRESS, LEFT_KEYCODE) == 1 and count(log, KEY_RELEASE, LEFT_KEYCODE) == 1,
              (count(log, KEY_PRESS, LEFT_KEYCODE), count(log, KEY_RELEASE, LEFT_KEYCODE)))

        # ── close the tab while A is held: released within the timeout ───────────────
        touch(d, "touchStart", [dict(center_of(d, '[data-button="A"]'), id=1)])
        check("A held → Button1 down in X", wait(lambda: count(log, BUTTON_PRESS, 1) == 2, 2))
        closed_at = time.monotonic()
        d.quit()
        d = None
        released = wait(lambda: count(log, BUTTON_RELEASE, 1) == 2, 4)
        took = time.monotonic() - closed_at
        check("tab closed while A held → Button1 released within 2.5 s (%.2f s)" % took, released and took <= 2.5,
              (count(log, BUTTON_RELEASE, 1), took))

        # ── its calibration is kept under the page's device id ─────
        device = json.loads(stored_device).get("id", "")
        calibration_check.check_remembered(check, wait, args.data_dir, device, args.dashboard, "CI phone")

        # ── the same phone comes back (credential in localStorage), then is revoked ──
        d = browser(args.profile)
        d.get(base + "/")
        check("the paired phone reconnects by itself", wait(lambda: state(d).get("status") == "connected", 8), state(d))
        d.find_element(By.ID, "start").click()
        wait(lambda: state(d).get("sensors") == "on", 3)
        calibration_check.check_restored(check, wait, args.dashboard, "CI phone")
        out = subprocess.run([args.bin, "devices", "--data-dir", args.data_dir, "--revoke", "CI phone"],
                             capture_output=True, text=True)
        # From the moment the revocation is on disk (the command has returned): starting a
        # debug binary on a loaded machine is not the host's reaction time.
        revoked_at = time.monotonic()
        check("remotion devices --revoke names the web controller", "revoked web controller 'CI phone'" in out.stdout,
              out.stdout + out.stderr)
        gone = wait(lambda: state(d).get("status") not in ("connected", "connecting") and state(d), 3)
        took = time.monotonic() - revoked_at
        check("a revoked phone is dropped within 1 s (%.2f s) and told why" % took,
              gone and took <= 1.0 and "revoked" in json.dumps(gone), gone)
        before = x_events(log)
        orient(d, 20, 10, 0)
        tap_button(d, "A")
        time.sleep(1.0)
        check("a revoked phone injects nothing", x_events(log) == before, x_events(log)[len(before):])

        # ── a forged credential is refused and injects nothing ──────────────────────
        js(d, "(() => { const s = JSON.parse(localStorage.getItem('remotion.device') || '{}');"
              " s.id = s.id || '0011223344556677'; s.credential = 'A'.repeat(43);"
              " localStorage.setItem('remotion.device', JSON.stringify(s)); return true; })()")
        d.get(base + "/")
        refused = wait(lambda: state(d).get("status") == "refused" and state(d), 5)
        check("a forged credential is refused", refused, state(d))
        before = x_events(log)
        tap_button(d, "A")
        orient(d, -20, 0, 0)
        time.sleep(1.0)
        check("a forged credential injects nothing", x_events(log) == before, x_events(log)[len(before):])
        d.save_screenshot(os.path.join(os.environ.get("ARTIFACTS", "."), "web-controller-refused.png"))

        # ── remotion pair --web opens a new window on the running host ──────────────
        out = subprocess.run([args.bin, "pair", "--web", "--data-dir", args.data_dir], capture_output=True, text=True)
        fresh = (re.findall(r"pair a phone: (\S+)", out.stdout) or [""])[0]
        check("remotion pair --web prints a new pairing URL", fresh.startswith(base) and fresh != args.url, out.stdout + out.stderr)
        d.get("about:blank")   # a new document: same-page fragment changes do not reload
        d.get(fresh)
        wait(lambda: state(d).get("screen") == "pair")
        stored_before = open(os.path.join(args.data_dir, "web-controllers.json")).read().count('"id"')
        d.find_element(By.ID, "pair-go").click()
        # Someone else scanned it: the person at the computer says no, and nothing is stored.
        code = wait(lambda: d.find_element(By.ID, "pair-code").text.strip() if d.find_element(By.ID, "pair-wait").is_displayed() else None, 8)
        pending = subprocess.run([args.bin, "devices", "--data-dir", args.data_dir], capture_output=True, text=True).stdout
        reference = (re.findall(r"\b(%s-[0-9a-f]{8})\b" % re.escape(code or "-"), pending) or ["-"])[0]
        denied = subprocess.run([args.bin, "devices", "--data-dir", args.data_dir, "--deny", reference], capture_output=True, text=True)
        err = wait(lambda: d.find_element(By.ID, "pair-error").text, 5)
        stored_after = open(os.path.join(args.data_dir, "web-controllers.json")).read().count('"id"')
        check("remotion devices --deny CODE refuses the waiting phone: the page says so, nothing is stored",
              denied.returncode == 0 and err and "said no" in err and stored_after == stored_before,
              (denied.stdout, err, stored_before, stored_after))
        d.get("about:blank")
        d.get(fresh)
        wait(lambda: state(d).get("screen") == "pair")
        d.find_element(By.ID, "pair-go").click()
        err = wait(lambda: d.find_element(By.ID, "pair-error").text, 5)
        check("the same link cannot pair twice", err and "used" in err, err)
        out = subprocess.run([args.bin, "pair", "--web", "--data-dir", args.data_dir], capture_output=True, text=True)
        fresh = (re.findall(r"pair a phone: (\S+)", out.stdout) or [""])[0]
        consent.accept_all(args.data_dir, seconds=60)      # the person at the computer, from here on
        d.get("about:blank")
        d.get(fresh)
        wait(lambda: state(d).get("screen") == "pair")
        d.find_element(By.ID, "pair-go").click()
        check("a phone pairs through a link from remotion pair --web, accepted on the computer, and connects",
              wait(lambda: state(d).get("status") == "connected", 10), state(d))

        # ── the dashboard's "Pair a phone": a fresh link and its QR code ─────────────
        dash = "http://127.0.0.1:%s" % args.dashboard
        token = args.dashboard_token

        def post(origin, token=token):
            req = urllib.request.Request(dash + "/api/web-pairing", data=b"{}", method="POST",
                                         headers={"Content-Type": "application/json", "Origin": origin,
                                                  "X-Remotion-Token": token})
            try:
                with urllib.request.urlopen(req, timeout=5) as r:
                    return r.status, json.load(r)
            except urllib.error.HTTPError as e:
                return e.code, {}
        status, body = post(dash)
        png = os.path.join(args.profile, "..", "dashboard-qr.png")
        if status == 200 and body.get("qr", "").startswith("data:image/png;base64,"):
            open(png, "wb").write(base64.b64decode(body["qr"].split(",", 1)[1]))
        decoded = subprocess.run(["zbarimg", "--raw", "-q", png], capture_output=True, text=True).stdout.strip() if os.path.exists(png) else ""
        check("the dashboard's Pair a phone answers a new link whose QR code decodes to it",
              status == 200 and body.get("url", "").startswith(base) and decoded == body.get("url"), (status, body.get("url"), decoded))
        check("another web page cannot open a pairing window through the dashboard",
              post("https://evil.example")[0] == 403)
        check("a local program without the dashboard's token cannot open one (docs/SECURITY.md §5.3)",
              post(dash, token="")[0] == 403)
    finally:
        if d:
            d.quit()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
