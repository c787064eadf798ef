"""Shared by the web benchmarks (web_bench.py, web_transport_bench.py): the host's CPU as the
kernel's tick accounting and as the scheduler's own count, its snapshot's controllers, and a
phone (headless Chromium with the page's sensors emulated: at rest, turning slowly)."""
import json, os, urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

TICK = os.sysconf("SC_CLK_TCK")


def tick_seconds(pid):
    """utime + stime of the process (/proc/PID/stat), sampled at the kernel's tick."""
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def run_seconds(pid):
    """{thread id: seconds on a CPU} of every thread of the process (schedstat's first field)."""
    out = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            out[tid] = int(open("/proc/%d/task/%s/schedstat" % (pid, tid)).read().split()[0]) / 1e9
        except (OSError, ValueError, IndexError):
            pass   # the thread ended between the listing and the read
    return out


def snapshot(port):
    return json.load(urllib.request.urlopen("http://127.0.0.1:%d/api/snapshot" % port, timeout=5))


def controllers(port):
    return snapshot(port).get("controllers", [])


def phone(profile, rtc=True):
    """A headless phone; without `rtc` the page has no RTCPeerConnection (the WebSocket fallback)."""
    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=500,900", "--no-first-run",
              "--disable-background-networking", "--ignore-certificate-errors", "--user-data-dir=" + profile):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    if not rtc:
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.RTCPeerConnection;"})
    for t in ("accelerometer", "gyroscope"):
        d.execute_cdp_cmd("Emulation.setSensorOverrideEnabled", {"enabled": True, "type": t})
    d.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": "accelerometer", "reading": {"xyz": {"x": 0, "y": 0, "z": 9.8}}})
    d.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": "gyroscope", "reading": {"xyz": {"x": 0, "y": 0, "z": 0.2}}})
    d.execute_cdp_cmd("DeviceOrientation.setDeviceOrientationOverride", {"alpha": 0, "beta": 0, "gamma": 0})
    return d
