#!/usr/bin/env python3
"""A phone pairs from the dashboard alone, no terminal. `remotion host` (web
controller and dashboard on loopback, inside a namespace with only lo: scripts/dashboard-consent-test.sh),
the real dashboard in one headless Chromium and the real phone page in others (selenium 4.51,
CDP-emulated sensors and touch). Chromium clicks Pair a phone, the phone opens the link and
asks, the dashboard shows the waiting phone with the code the phone shows, Chromium clicks
Accept (once the card's buttons settled) and the phone pairs and connects; a second phone's
card ignores a click the moment it appears, then is denied; a third, answered through
`remotion devices`, leaves the dashboard by itself; the typing switch reaches the device
file; clicking Revoke ends the phone's session. Prints "N passed, N failed".

Arguments: --bin REMOTION --data-dir DIR --dashboard-url URL (with #token=) --profiles DIR"""
import argparse, json, os, re, subprocess, sys, time, urllib.error, urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

import page_harness as h
from page_harness import check, wait, state

ARTIFACTS = os.environ.get("ARTIFACTS", "artifacts")


def desktop(profile):
    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1200", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--user-data-dir=" + profile):
        opts.add_argument(a)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


def text(d, selector):
    found = d.find_elements(By.CSS_SELECTOR, selector)
    return found[0].text.strip() if found else ""


def find_in(dash, selector, field, value):
    """The element under `selector` whose `field` reads `value` (None while there is none).
    The card polls the host each second and removes what is gone: an element removed between
    the scan and the read is stale, so the scan starts again (a fresh scan no longer has it)."""
    for _ in range(5):
        try:
            for e in dash.find_elements(By.CSS_SELECTOR, selector):
                if e.find_element(By.CSS_SELECTOR, field).text.strip() == value:
                    return e
            return None
        except StaleElementReferenceException:
            continue
    return None


def card(dash, code):
    """The dashboard's card of the waiting phone whose code is `code` (None while not shown)."""
    return find_in(dash, "#waiting-phones .waiting", ".code", code)


def settled(c):
    """Waits until the card's buttons take clicks (a second after it appeared)."""
    return wait(lambda: all(b.is_enabled() for b in c.find_elements(By.CSS_SELECTOR, "button")), 3)


def phone_row(dash, name):
    return find_in(dash, "#paired-phones li", ".name", name)


def stored(data_dir):
    path = os.path.join(data_dir, "web-controllers.json")
    return json.load(open(path)) if os.path.exists(path) else []


def new_link(dash):
    """Chromium clicks Pair a phone; the link the card shows."""
    before = text(dash, "#pair-url")
    dash.find_element(By.ID, "pair-phone").click()
    return wait(lambda: (lambda u: u if u.startswith("https://") and u != before else None)(text(dash, "#pair-url")), 5)


def ask(phone, url, name):
    """The phone opens the link and asks to pair; the code it shows."""
    phone.get("about:blank")
    phone.get(url)
    wait(lambda: state(phone).get("screen") == "pair", 8)
    field = phone.find_element(By.ID, "pair-name")
    field.clear()
    field.send_keys(name)
    phone.find_element(By.ID, "pair-go").click()
    return wait(lambda: text(phone, "#pair-code") if phone.find_element(By.ID, "pair-wait").is_displayed() else None, 8)


def main():
    ap = argparse.ArgumentParser()
    for a in ("--bin", "--data-dir", "--dashboard-url", "--profiles"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    base = args.dashboard_url.split("#")[0].rstrip("/")
    dash = phone = other = None
    try:
        dash = desktop(os.path.join(args.profiles, "dashboard"))
        dash.get(args.dashboard_url)
        check("the dashboard opens with its token and lists no paired phone",
              wait(lambda: dash.find_element(By.ID, "paired-phones").get_attribute("data-count") == "0", 5))

        # ── Pair a phone → the phone asks → the dashboard shows it → Accept ─────────
        url = new_link(dash)
        check("Chromium clicks Pair a phone: the card shows a link", url, text(dash, "#pair-url"))
        phone = h.browser(os.path.join(args.profiles, "phone"))
        code = ask(phone, url or "about:blank", "Dash phone")
        shown = wait(lambda: card(dash, code or "-"), 5)
        check("the dashboard shows the waiting phone: its name, address and the code the phone shows",
              shown is not None and shown.find_element(By.CSS_SELECTOR, ".name").text == "Dash phone"
              and shown.find_element(By.CSS_SELECTOR, ".address").text == "127.0.0.1"
              and 0 < int(shown.find_element(By.CSS_SELECTOR, ".seconds-left").text or 0) <= 120,
              shown.text if shown else text(dash, "#waiting-phones"))
        check("nothing is stored while the phone waits", not stored(args.data_dir), stored(args.data_dir))
        request = shown.get_attribute("data-request") if shown else ""
        refused = post(base, "/api/web-pairing/answer", {"request": request, "accept": True}, token="")
        check("an answer without the dashboard's token is refused (403) and the phone still waits",
              refused == 403 and card(dash, code) is not None and state(phone).get("status") != "connected", refused)
        dash.save_screenshot(os.path.join(ARTIFACTS, "dashboard-consent.png"))
        settled(shown)
        shown.find_element(By.CSS_SELECTOR, "button.accept").click()
        check("Chromium clicks Accept: the phone pairs and connects",
              wait(lambda: state(phone).get("status") == "connected", 10), state(phone))
        check("the waiting card goes and the phone is listed as paired",
              wait(lambda: card(dash, code) is None and phone_row(dash, "Dash phone") is not None, 3),
              (text(dash, "#waiting-phones"), text(dash, "#paired-phones")))
        listed = subprocess.run([args.bin, "devices", "--data-dir", args.data_dir], capture_output=True, text=True).stdout
        check("remotion devices lists it too", "Dash phone" in listed, listed)
        check("the dashboard says what happened", "accepted phone 'Dash phone'" in text(dash, "#devices-status"),
              text(dash, "#devices-status"))

        # ── a second phone: Deny ─────────────────────────────────────────────────────
        other = h.browser(os.path.join(args.profiles, "other"))
        code2 = ask(other, new_link(dash) or "about:blank", "Stranger")
        c2 = wait(lambda: card(dash, code2 or "-"), 5)
        # Clicked the moment the card appears (a card that slid under the pointer): nothing.
        early = c2 and not c2.find_element(By.CSS_SELECTOR, "button.deny").is_enabled()
        if c2:
            dash.execute_script("arguments[0].click()", c2.find_element(By.CSS_SELECTOR, "button.deny"))
        time.sleep(0.3)
        check("a click within a second of the card appearing answers nothing: the phone still waits",
              early and card(dash, code2 or "-") is not None and not text(other, "#pair-error"),
              (early, text(other, "#pair-error")))
        if c2:
            settled(c2)
            c2.find_element(By.CSS_SELECTOR, "button.deny").click()
        err = wait(lambda: text(other, "#pair-error"), 6)
        check("Chromium clicks Deny: the phone is told no and nothing is stored",
              c2 is not None and "said no" in err and [d["name"] for d in stored(args.data_dir)] == ["Dash phone"],
              (err, stored(args.data_dir)))
        check("the denied card goes", wait(lambda: card(dash, code2 or "-") is None, 3))

        # ── a third, answered on the terminal side: the dashboard sees it answered ──
        code3 = ask(other, new_link(dash) or "about:blank", "Third")
        c3 = wait(lambda: card(dash, code3 or "-"), 5)
        reference = c3.get_attribute("data-request") if c3 else "-"
        out = subprocess.run([args.bin, "devices", "--data-dir", args.data_dir, "--deny", reference], capture_output=True, text=True)
        check("answered by remotion devices --deny CODE-ID, the card leaves the dashboard by itself",
              c3 is not None and out.returncode == 0 and wait(lambda: card(dash, code3 or "-") is None, 3), out.stdout + out.stderr)
        late = post(base, "/api/web-pairing/answer", {"request": reference, "accept": True})
        check("a late Accept of that answered request is refused (404), nothing stored",
              late == 404 and [d["name"] for d in stored(args.data_dir)] == ["Dash phone"], late)

        # ── the typing switch ────────────────────────────────────────────────────────
        row = phone_row(dash, "Dash phone")
        box = row.find_element(By.CSS_SELECTOR, "input.typing")
        was = box.is_selected()
        box.click()
        check("Chromium unticks 'may type': the device file says so",
              was and wait(lambda: stored(args.data_dir)[0].get("typing") is False, 3), stored(args.data_dir))
        phone_row(dash, "Dash phone").find_element(By.CSS_SELECTOR, "input.typing").click()
        check("and ticks it again", wait(lambda: stored(args.data_dir)[0].get("typing") is True, 3), stored(args.data_dir))
        dash.save_screenshot(os.path.join(ARTIFACTS, "dashboard-consent-paired.png"))

        # ── Revoke: the phone's session ends ────────────────────────────────────────
        check("the phone is still connected", state(phone).get("status") == "connected", state(phone))
        phone_row(dash, "Dash phone").find_element(By.CSS_SELECTOR, "button.revoke").click()
        clicked = time.monotonic()
        gone = wait(lambda: state(phone).get("status") not in ("connected", "connecting") and state(phone), 4)
        took = time.monotonic() - clicked
        check("Chromium clicks Revoke: the phone's session ends within 1.5 s (%.2f s) and it is told why" % took,
              gone and took <= 1.5 and "revoked" in json.dumps(gone), gone)
        check("the revoked phone leaves the list and the device file",
              wait(lambda: phone_row(dash, "Dash phone") is None, 3) and not stored(args.data_dir), stored(args.data_dir))
        dash.save_screenshot(os.path.join(ARTIFACTS, "dashboard-consent-after.png"))
    finally:
        for d in (dash, phone, other):
            if d:
                d.quit()
    passed = sum(h.results)
    print("%d passed, %d failed" % (passed, len(h.results) - passed))
    return 0 if passed == len(h.results) else 1


def post(base, path, body, token=None):
    """A write as a local program would send it; the status."""
    if token is None:
        token = TOKEN
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "X-Remotion-Token": token})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


TOKEN = ""

if __name__ == "__main__":
    m = re.search(r"#token=([A-Za-z0-9_-]+)", " ".join(sys.argv))
    TOKEN = m.group(1) if m else ""
    sys.exit(main())
