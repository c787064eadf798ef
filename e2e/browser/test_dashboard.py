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
import urllib.error
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
parser.add_argument("--config", required=True, help="the config file the demo's dashboard saves to (--config)")
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
    # The host applies a setting on its loop, publishes it, and only then writes the file: the
    # next check reads the file, so it waits for the write too (it once read it in between).
    wait_for(lambda: {'"fps.space" = "player"', '"fps.clutch" = "always"'} <= set(config_text().splitlines()),
             "the restored gyro settings in the config file")


def config_text():
    with open(args.config, encoding="utf-8") as f:
        return f.read()


def profile_boxes():
    return driver.find_elements(By.CSS_SELECTOR, "#profiles-list .profile")


def profiles_status():
    status = driver.find_element(By.ID, "profiles-status")
    return status.text, status.get_attribute("class")


def write(method, path, body, token=None, origin=None):
    """One request by hand: the status and the error (no browser, so any header can be set)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Remotion-Token"] = token
    if origin:
        headers["Origin"] = origin
    request = urllib.request.Request(BASE + path, data=json.dumps(body).encode(), method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=5) as r:
            return r.status, ""
    except urllib.error.HTTPError as e:
        return e.code, json.load(e).get("error", "")


@check
def a_profile_added_in_the_page_is_saved_to_the_config_file():
    # docs/DASHBOARD.md, "Profiles": the editor's list goes to PUT /api/profiles; the host checks
    # it with the file's rules, applies it and writes the [[profile]] tables, keeping the rest.
    before = config_text()
    assert "[[profile]]" not in before, before
    driver.find_element(By.ID, "profiles-add").click()
    wait_for(lambda: len(profile_boxes()) == 1, "a new profile in the editor")
    box = profile_boxes()[0]
    box.find_element(By.CSS_SELECTOR, "input.app").send_keys("gamma-editor")
    Select(box.find_element(By.CSS_SELECTOR, "select.controller")).select_by_value("phone")
    box.find_element(By.CSS_SELECTOR, "button.add-row").click()
    row = wait_for(lambda: len(profile_boxes()[0].find_elements(By.CSS_SELECTOR, ".row")) == 2
                   and profile_boxes()[0].find_elements(By.CSS_SELECTOR, ".row")[1], "a second row")
    Select(row.find_element(By.CSS_SELECTOR, "select.key")).select_by_value("sensitivity")
    row.find_element(By.CSS_SELECTOR, "input.value").send_keys("2")
    driver.find_element(By.ID, "profiles-save").click()
    wait_for(lambda: profiles_status()[0] == "saved 1 profile", f"the save to be answered (status {profiles_status()})")
    text = config_text()
    for line in ('[[profile]]', 'app = "gamma-editor"', 'controller = "phone"', 'mode = "fps"', 'sensitivity = 2'):
        assert line in text.splitlines(), f"{line!r} not in the config file:\n{text}"
    assert text.startswith(before.rstrip("\n")), f"the rest of the file changed:\n{before}\n---\n{text}"
    listed = wait_for(lambda: api("/api/snapshot")["profiles"], "the snapshot to list the profile")
    assert [(p["app"], p["controller"], p["mode"]) for p in listed] == [("gamma-editor", "phone", "fps")], listed
    assert listed[0]["entries"] == [{"key": "mode", "value": "fps"}, {"key": "sensitivity", "value": "2"}], listed
    wait_for(lambda: "line " in profile_boxes()[0].text and driver.find_element(By.ID, "profiles").get_attribute("data-dirty") is None,
             "the editor filled again from what is in force (with its line in the file)")
    assert profile_boxes()[0].find_element(By.CSS_SELECTOR, "input.app").get_attribute("value") == "gamma-editor"


@check
def a_bad_profile_value_is_one_line_in_the_page_and_the_file_stays():
    before = config_text()
    value = profile_boxes()[0].find_elements(By.CSS_SELECTOR, ".row input.value")[1]
    value.clear()
    value.send_keys("-3")
    driver.find_element(By.ID, "profiles-save").click()
    wait_for(lambda: "error" in profiles_status()[1], "the page to show the error")
    text, _ = profiles_status()
    assert text.startswith('profile 1 ("gamma-editor"): sensitivity: -3 is out of range'), text
    assert "\n" not in text, text
    assert config_text() == before, "the file changed on a refused profile"
    assert api("/api/snapshot")["profiles"][0]["entries"][1]["value"] == "2", "the refused value was applied"
    driver.find_element(By.ID, "profiles-revert").click()
    wait_for(lambda: profile_boxes()[0].find_elements(By.CSS_SELECTOR, ".row input.value")[1].get_attribute("value") == "2",
             "Undo to show what is in force")


@check
def a_profile_write_without_the_token_or_from_another_origin_is_refused():
    token = args.url.split("#token=", 1)[1]
    before = config_text()
    evil = {"profiles": [{"app": "evil", "controller": None, "entries": []}]}
    for method, tok, origin, reason in (("PUT", None, None, "no-token"), ("POST", None, None, "no-token"),
                                        ("PUT", "wrong", None, "no-token"),
                                        ("PUT", token, "http://127.0.0.2:8000", "bad-origin")):
        status, error = write(method, "/api/profiles", evil, token=tok, origin=origin)
        assert status == 403, f"{method} token={tok is not None} origin={origin}: {status} {error}"
    assert config_text() == before, "a refused write changed the file"
    assert [p["app"] for p in api("/api/snapshot")["profiles"]] == ["gamma-editor"], "a refused write changed the profiles"
    assert "evil" not in config_text(), "the attacker page's writes got through"


@check
def the_output_picker_says_a_screen_without_outputs_is_covered_whole():
    # The demo's injector is a virtual screen: no outputs to choose (docs/INJECTION.md
    # "Choosing the output"); the picker says so and offers nothing to save.
    assert api("/api/snapshot")["outputs"] is None
    note = wait_for(lambda: driver.find_element(By.ID, "output-note").text, "the output picker's note")
    assert "covers the whole screen" in note, note
    assert not driver.find_element(By.ID, "output-choice").is_displayed()
    assert not driver.find_element(By.ID, "output-save").is_displayed()


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
