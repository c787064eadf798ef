"""The page's Calibrate in the real thing (docs/WEB-CONTROLLER.md, "Calibrate"),
a part of e2e/web/test_web_controller.py: the paired page streams a still phone (CDP's emulated
gyroscope reads 0); its menu's Calibrate shows "Hold the phone still" with a rising progress bar
and then "Done", while the host's JSON status (the dashboard's GET /api/snapshot, no token needed
to read) shows this controller calibrating and then calibrated at 100%. A second tap while it
runs does not restart it; Escape closes the panel (keyboard); the panel fits the phone's screen.
The host runs with its defaults: calibration.mode continuous, calibration.duration 3 s."""
import json, os, time, urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

DURATION = 3.0            # calibration.duration's default


def host_controller(dashboard, name):
    """This controller in the host's JSON snapshot ({} when not listed)."""
    with urllib.request.urlopen("http://127.0.0.1:%s/api/snapshot" % dashboard, timeout=5) as r:
        controllers = json.load(r).get("controllers", [])
    mine = [c for c in controllers if c.get("name") == name]
    return mine[0] if mine else {}


def host_gyro(dashboard, name):
    """This controller's gyro status in the host's JSON snapshot ({} when not listed)."""
    return host_controller(dashboard, name).get("gyro") or {}


def remembered(data_dir, device):
    """The host's calibration memory entry for the page's device, and the
    file's mode: (entry or None, mode)."""
    path = os.path.join(data_dir, "calibration.json")
    if not os.path.exists(path):
        return None, None
    mode = oct(os.stat(path).st_mode & 0o777)
    entries = json.load(open(path)).get("controllers", [])
    return next((e for e in entries if e.get("id") == "web:" + device), None), mode


def calibration(d, js):
    return js(d, "window.remotionTest ? remotionTest.state().calibration : null") or {}


def history(d, js):
    return js(d, "window.remotionTest ? remotionTest.state().calibrationHistory : []") or []


def tap_calibrate(d):
    d.find_element(By.ID, "menu-button").click()
    d.find_element(By.ID, "calibrate").click()


def run(d, check, wait, js, dashboard, name):
    seen_host = set()

    def watch_host():
        g = host_gyro(dashboard, name)
        seen_host.add(g.get("calibration"))
        return g

    before = len(history(d, js))
    tap_calibrate(d)
    asked_at = time.monotonic()
    panel = d.find_element(By.ID, "calibration")
    check("Calibrate in the menu opens the panel: Hold the phone still",
          wait(lambda: panel.is_displayed() and d.find_element(By.ID, "calibration-title").text == "Hold the phone still", 3),
          calibration(d, js))
    vw, vh = js(d, "[innerWidth, innerHeight]")
    r = js(d, "(() => { const r = document.getElementById('calibration').getBoundingClientRect();"
              " return [r.left, r.top, r.right, r.bottom]; })()")
    check("the panel fits the phone's screen (%dx%d)" % (vw, vh), r[0] >= 0 and r[1] >= 0 and r[2] <= vw and r[3] <= vh, r)
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 320, "height": 568, "deviceScaleFactor": 2, "mobile": True,
                                                             "screenOrientation": {"type": "portraitPrimary", "angle": 0}})
    small = js(d, "(() => { const r = document.getElementById('calibration').getBoundingClientRect();"
                  " return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight]; })()")
    check("… and the smallest one (320x568)", small[0] >= 0 and small[1] >= 0 and small[2] <= small[4] and small[3] <= small[5], small)
    d.save_screenshot(os.path.join(os.environ.get("ARTIFACTS", "."), "web-controller-calibrate-320x568.png"))
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": vw, "height": vh, "deviceScaleFactor": 2, "mobile": True,
                                                             "screenOrientation": {"type": "portraitPrimary", "angle": 0}})
    check("… with the focus on its Close button (keyboard)",
          js(d, "document.activeElement && document.activeElement.id") == "calibration-close")
    # The host calibrates this controller: its status says so while the page shows progress.
    check("the host's status shows the controller calibrating",
          wait(lambda: watch_host().get("calibration") == "calibrating", 3), host_gyro(dashboard, name))
    wait(lambda: (watch_host(), (calibration(d, js).get("progress") or 0) >= 0.3)[1], DURATION)
    bar = float(d.find_element(By.ID, "calibration-progress").get_attribute("value") or 0)
    check("the progress bar fills (%.2f)" % bar, 0.3 <= bar < 1, calibration(d, js))
    # A second tap while it runs goes on with the first: its end comes less than a whole
    # duration later (a restart would take DURATION again), and its answer is the progress so far.
    second = len(history(d, js))
    tap_calibrate(d)
    second_at = time.monotonic()
    done = wait(lambda: (watch_host(), calibration(d, js).get("state") == "done"
                         and d.find_element(By.ID, "calibration-title").text == "Done")[1], DURATION + 5)
    done_at = time.monotonic()
    check("the page shows Done (%.2f s after the first tap)" % (done_at - asked_at), done, history(d, js)[before:])
    check("a second tap while running does not restart it (Done %.2f s after it)" % (done_at - second_at),
          done and done_at - second_at < DURATION - 0.2, (done_at - second_at, history(d, js)[second:second + 3]))
    shown = history(d, js)[before:]
    again = [h for h in history(d, js)[second:] if h.get("state") == "running"][:1]
    check("… and its answer is the running one's progress, not 0", again and again[0]["progress"] >= 0.3, again)
    progress = [h["progress"] for h in shown if h.get("state") == "running"]
    check("the page saw progress rise in steps, then Done",
          len(progress) >= 4 and all(a <= b for a, b in zip(progress, progress[1:])) and shown[-1].get("state") == "done",
          shown)
    g = wait(lambda: (lambda g: g.get("calibration") == "calibrated" and g)(watch_host()), 3)
    check("the host's status: this controller calibrated, confidence 100%",
          g and g.get("confidence") == 1 and "calibrating" in seen_host, (g, sorted(map(str, seen_host))))
    ActionChains(d).send_keys(Keys.ESCAPE).perform()
    check("Escape closes the panel", wait(lambda: not panel.is_displayed(), 2))
    # The snapshot carries the time of the sample the attitude came from,
    # the controller's own and on the host's clock.
    c = host_controller(dashboard, name)
    check("the snapshot carries the attitude's sample time (the controller's and the host's)",
          isinstance(c.get("sampleTimestampMicros"), int) and isinstance(c.get("sampleHostMicros"), int)
          and c["sampleHostMicros"] > 0, {k: c.get(k) for k in ("sampleTimestampMicros", "sampleHostMicros", "sampleAgeMs")})


def check_remembered(check, wait, data_dir, device, dashboard, name):
    """After the page's session ended: its calibration is in the data directory under the
    page's device id (0600), near the still phone's zero bias, at full confidence."""
    entry, mode = wait(lambda: (lambda r: r if r[0] else None)(remembered(data_dir, device)), 5) or (None, None)
    check("the phone's calibration is remembered under its device id in calibration.json (0600)",
          entry is not None and mode == "0o600" and entry.get("confidence", 0) >= 0.99
          and max(abs(b) for b in entry.get("bias", [9])) < 0.01, (mode, entry))


def check_restored(check, wait, dashboard, name):
    """The page's device came back: the host shows it calibrated at full confidence from its
    remembered calibration, with that calibration's age."""
    g = wait(lambda: (lambda g: g.get("calibration") == "calibrated" and g)(host_gyro(dashboard, name)), 5)
    check("the phone came back calibrated (remembered), confidence %s, age %s s" % ((g or {}).get("confidence"),
          (g or {}).get("calibrationAgeSeconds")),
          g and g.get("confidence", 0) >= 0.99 and g.get("calibrationAgeSeconds") is not None, g)
