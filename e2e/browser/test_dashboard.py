#!/usr/bin/env python3
"""Browser test of the host dashboard in a real headless Chromium (selenium 4.51).

Run by scripts/browser-test.sh inside a network namespace that has only lo, against
`remotion demo --dashboard 0` (a loopback host fed by a replayed trace). Prints one line per
check and 'N passed, N failed'; exits 1 when anything failed."""
import argparse
import json
import os
import sys
import time
import traceback
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--url", required=True, help="the dashboard's address with this start's token (#token=…)")
parser.add_argument("--screenshot", default="artifacts/dashboard.png")
parser.add_argument("--attacker", help="origin serving e2e/browser/attacker/ (e.g. http://127.0.0.2:8000)")
args = parser.parse_args()
BASE = f"http://127.0.0.1:{args.port}"
TOLERANCE = 0.1  # radians: the page may lag the API by one or two snapshots

checks = []


def check(fn):
    checks.append(fn)
    return fn


def api(path):
    with urllib.request.urlopen(BASE + path, timeout=5) as r:
        return json.load(r)


def wait_for(predicate, what, seconds=15):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


def cube_angles():
    cube = driver.find_element(By.CSS_SELECTOR, ".controller .cube")
    return [float(cube.get_attribute("data-" + axis)) for axis in ("roll", "pitch", "yaw")]


def api_angles():
    controllers = api("/api/snapshot")["controllers"]
    assert controllers, "the API shows no controller"
    return controllers[0]["attitude"]


@check
def without_the_token_the_page_cannot_go_live():
    # A local program or user without the token (docs/SECURITY.md §5.3): the page loads, its
    # WebSocket is refused, and it says how to open the dashboard.
    driver.get(BASE + "/")
    wait_for(lambda: driver.find_element(By.ID, "link").get_attribute("data-state") == "no-token",
             "the page to say it needs `remotion dashboard`")


@check
def page_loads():
    driver.get(args.url)
    assert driver.title == "Remotion host", driver.title
    wait_for(lambda: driver.find_element(By.ID, "link").get_attribute("data-state") == "open",
             "the WebSocket to open")
    assert driver.find_element(By.ID, "host-name").text == "Remotion demo"


@check
def shows_the_connected_demo_controller():
    card = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, ".controller[data-state=connected]"),
                    "a connected controller card")[0]
    session = api("/api/snapshot")["controllers"][0]["session"]
    assert card.get_attribute("data-session") == session, (card.get_attribute("data-session"), session)
    assert driver.find_element(By.ID, "controller-count").text == "1"
    # The rate is measured over the last second: give a just-connected card that second.
    def rate_shown():
        rate = card.find_element(By.CSS_SELECTOR, ".rate").text
        return rate.endswith("/s") and float(rate[:-2]) > 50
    wait_for(rate_shown, "a packet rate above 50/s")
    bars = [int(b.get_attribute("data-count")) for b in card.find_elements(By.CSS_SELECTOR, ".histogram .bar")]
    assert len(bars) == 10 and sum(bars) > 0, f"histogram counts {bars}"
    assert int(driver.find_element(By.ID, "trail").get_attribute("data-points")) > 0


@check
def header_and_card_say_where_who_and_in_which_units():
    listen = driver.find_element(By.ID, "host-listen").text
    assert listen == api("/api/snapshot")["listen"] and listen.startswith("127.0.0.1:"), f"listening {listen!r}"
    first = driver.find_element(By.ID, "host-uptime").text
    wait_for(lambda: driver.find_element(By.ID, "host-uptime").text != first, "the uptime to count", seconds=4)
    card = driver.find_element(By.CSS_SELECTOR, ".controller[data-state=connected]")
    assert card.find_element(By.CSS_SELECTOR, ".name").text == "demo controller", "the paired name is not shown"
    assert "ms" in card.find_element(By.CSS_SELECTOR, ".histogram-x").text, "the latency axis has no unit"
    y = card.find_element(By.CSS_SELECTOR, ".histogram-y").text
    assert "samples" in y and int(card.find_element(By.CSS_SELECTOR, ".hist-max").text) > 0, f"y axis {y!r}"


@check
def cube_follows_the_replayed_trace():
    readings = []
    for _ in range(2):
        before = api_angles()
        shown = cube_angles()
        after = api_angles()
        for axis, (a, s, b) in enumerate(zip(before, shown, after)):
            low, high = min(a, b) - TOLERANCE, max(a, b) + TOLERANCE
            assert low <= s <= high, f"axis {axis}: page {s:.3f}, API {a:.3f}..{b:.3f}"
        readings.append(shown)
        time.sleep(1.5)
    moved = max(abs(x - y) for x, y in zip(*readings))
    assert moved > 0.05, f"the cube did not turn: {readings}"
    style = driver.find_element(By.CSS_SELECTOR, ".controller .cube").get_attribute("style")
    assert "rotateX" in style and "rotateY" in style and "rotateZ" in style, style


@check
def sensitivity_slider_changes_the_hosts_mapping():
    assert api("/api/snapshot")["settings"]["sensitivity"] == 1
    slider = driver.find_element(By.ID, "setting-sensitivity")
    for _ in range(5):
        slider.send_keys(Keys.ARROW_RIGHT)
    wait_for(lambda: abs(api("/api/snapshot")["settings"]["sensitivity"] - 1.5) < 1e-9,
             "the host's sensitivity to become 1.5")
    # The page shows the value the host echoes back (asynchronously, over its socket).
    wait_for(lambda: driver.find_element(By.ID, "sensitivity-value").text == "1.5", "the page to show 1.5")


@check
def mode_and_filter_selects_change_the_hosts_mapping():
    Select(driver.find_element(By.ID, "setting-mode")).select_by_value("fps")
    wait_for(lambda: api("/api/snapshot")["settings"]["mode"] == "fps", "mode fps on the host")
    Select(driver.find_element(By.ID, "setting-filter")).select_by_value("oneeuro")
    wait_for(lambda: api("/api/snapshot")["settings"]["filterSettings"]["kind"] == "oneeuro", "filter oneeuro")
    Select(driver.find_element(By.ID, "setting-mode")).select_by_value("pointer")
    wait_for(lambda: api("/api/snapshot")["settings"]["mode"] == "pointer", "mode pointer on the host")
    slider = driver.find_element(By.ID, "setting-sensitivity")
    for _ in range(5):
        slider.send_keys(Keys.ARROW_LEFT)
    wait_for(lambda: abs(api("/api/snapshot")["settings"]["sensitivity"] - 1.0) < 1e-9, "sensitivity back to 1")


@check
def a_page_from_another_origin_cannot_drive_the_dashboard():
    if not args.attacker:
        raise AssertionError("no --attacker origin given")
    before = api("/api/snapshot")
    refused_before = sum(before.get("dashboardRefusals", {}).values())
    driver.get(f"{args.attacker}/index.html?port={args.port}")
    body = lambda: driver.find_element(By.TAG_NAME, "body")
    wait_for(lambda: body().get_attribute("data-done") == "yes", "the attacker page to finish", seconds=20)
    result = {k: body().get_attribute("data-" + k) for k in ("post", "read", "ws-opened", "ws-messages", "ws-error", "form")}
    after = api("/api/snapshot")
    assert after["settings"]["sensitivity"] == before["settings"]["sensitivity"], \
        f"the attacker changed the sensitivity: {before['settings']['sensitivity']} -> {after['settings']['sensitivity']}"
    assert result["read"] == "blocked", f"the attacker read the snapshot: {result}"
    assert result["ws-opened"] == "no" and result["ws-messages"] == "0", f"the attacker's WebSocket opened: {result}"
    refused = after.get("dashboardRefusals", {})
    # The POST, the GET, the WebSocket and the form all carry Origin http://127.0.0.2:…
    assert refused.get("bad-origin", 0) >= 4, f"refusals not counted: {refused}"
    assert sum(refused.values()) - refused_before >= 4, f"refusals before {refused_before}, after {refused}"
    print(f"     attacker page: {result}; host refusals {refused}")
    driver.get(BASE + "/")
    wait_for(lambda: driver.find_element(By.ID, "link").get_attribute("data-state") == "open", "the dashboard again")


@check
def gyro_settings_and_calibrate_button():
    gyro = lambda: driver.find_element(By.CSS_SELECTOR, ".controller .gyro")
    wait_for(lambda: gyro().text not in ("", "-"), "the controller's gyro status")
    assert any(w in gyro().text for w in ("calibrated", "calibrating", "uncalibrated")), gyro().text
    Select(driver.find_element(By.ID, "setting-fps-space")).select_by_value("world")
    wait_for(lambda: api("/api/snapshot")["settings"]["fps"]["space"] == "world", "fps.space world on the host")
    clutch = driver.find_element(By.ID, "setting-fps-clutch")
    clutch.clear()
    clutch.send_keys("off-while:B", Keys.TAB)
    wait_for(lambda: api("/api/snapshot")["settings"]["fps"]["clutch"] == "off-while:B", "fps.clutch on the host")
    clutch.clear()
    clutch.send_keys("grab:B", Keys.TAB)
    wait_for(lambda: "is not allowed" in driver.find_element(By.ID, "settings-status").text, "the clutch error")
    assert api("/api/snapshot")["settings"]["fps"]["clutch"] == "off-while:B"
    button = driver.find_element(By.CSS_SELECTOR, ".controller button.calibrate")
    assert button.is_enabled(), "Calibrate is disabled"
    button.click()
    wait_for(lambda: "hold it still" in driver.find_element(By.ID, "settings-status").text, "the calibrate answer")
    wait_for(lambda: api("/api/snapshot")["controllers"][0]["gyro"]["calibration"] == "calibrating",
             "the host calibrating the controller", seconds=5)
    wait_for(lambda: gyro().text.startswith("calibrating"), "the card showing the calibration")
    Select(driver.find_element(By.ID, "setting-fps-space")).select_by_value("player")
    clutch.clear()
    clutch.send_keys("always", Keys.TAB)
    wait_for(lambda: api("/api/snapshot")["settings"]["fps"] == {**api("/api/snapshot")["settings"]["fps"],
             "space": "player", "clutch": "always"}, "the gyro settings restored")


@check
def screenshot_saved():
    os.makedirs(os.path.dirname(args.screenshot) or ".", exist_ok=True)
    driver.set_window_size(1400, 900)
    driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    time.sleep(1.5)  # a fresh pointer trail at sensitivity 1
    assert driver.save_screenshot(args.screenshot), "save_screenshot failed"
    assert os.path.getsize(args.screenshot) > 20_000, "the screenshot is suspiciously small"


options = webdriver.ChromeOptions()
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--window-size=1400,900", "--no-first-run", "--disable-background-networking"):
    options.add_argument(flag)
options.binary_location = "/usr/bin/chromium"
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
passed = failed = 0
try:
    for fn in checks:
        try:
            fn()
            passed += 1
            print(f"PASS {fn.__name__}")
        except Exception:
            failed += 1
            print(f"FAIL {fn.__name__}")
            traceback.print_exc(limit=3)
finally:
    driver.quit()
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
