"""What the transport stage (e2e/web/test_web_transport.py) measures with: the X pointer
sampler, gap statistics, nftables loss and outages on the page's ports, the page's emulated
gyroscope and a raw POST to the signalling route."""
import json, subprocess, threading, time, urllib.error, urllib.request

from page_harness import cdp
from host_process import host_tls  # the host's own CA, not checked (page_harness puts e2e/lib on the path)


class Sampler:
    """e2e/web/pointer_sampler.c: (monotonic ms, x, y) at every change of the X pointer."""

    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.changes = []
        self.lock = threading.Lock()
        if self.p.stdout.readline().strip() != "ready":
            raise SystemExit("pointer_sampler did not start")
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.p.stdout:
            t, x, y = line.split()
            with self.lock:
                self.changes.append(float(t))

    def between(self, t0, t1):
        with self.lock:
            return [t for t in self.changes if t0 <= t <= t1]

    def stop(self):
        self.p.stdin.close()
        self.p.wait(5)


def now_ms():
    return time.monotonic() * 1000   # CLOCK_MONOTONIC, as the sampler's


def gaps(times):
    return sorted(b - a for a, b in zip(times, times[1:]))


def pct(values, p):
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("inf")


def nft(*rule):
    subprocess.run(["nft"] + list(rule), check=True)


def loss_rules(ports, percent):
    """Random loss on `ports` (a port or FIRST-LAST), both directions; returns the handles' flush."""
    nft("flush", "chain", "inet", "wt", "input")
    for field in ("dport", "sport"):
        if percent >= 100:
            nft("add", "rule", "inet", "wt", "input", "udp", field, ports, "drop")
        elif percent > 0:
            nft("add", "rule", "inet", "wt", "input", "udp", field, ports, "numgen", "random", "mod", "100", "<",
                str(percent), "drop")


def clear_rules():
    nft("flush", "chain", "inet", "wt", "input")


class Gyro:
    """Drives the page's emulated gyroscope (FPS mode turns each MOTION frame into a pointer
    step), flipping the direction every 0.25 s so the pointer stays on screen."""

    def __init__(self, d):
        self.d = d
        self.sign = 1

    def run(self, seconds, rate=1.0):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            cdp(self.d, "Emulation.setSensorOverrideReadings",
                {"type": "gyroscope", "reading": {"xyz": {"x": 0, "y": 0, "z": self.sign * rate}}})
            self.sign = -self.sign
            time.sleep(min(0.25, max(0, end - time.monotonic())))

    def stop(self):
        cdp(self.d, "Emulation.setSensorOverrideReadings", {"type": "gyroscope", "reading": {"xyz": {"x": 0, "y": 0, "z": 0}}})


def ws_rules(web_port, percent):
    """UDP stays blocked (the page is on its WebSocket); random loss on the page's TCP port, both directions."""
    nft("flush", "chain", "inet", "wt", "input")
    nft("add", "rule", "inet", "wt", "input", "meta", "l4proto", "udp", "drop")
    for field in ("dport", "sport"):
        if percent >= 100:
            nft("add", "rule", "inet", "wt", "input", "tcp", field, web_port, "drop")
        elif percent > 0:
            nft("add", "rule", "inet", "wt", "input", "tcp", field, web_port, "numgen", "random", "mod", "100", "<",
                str(percent), "drop")


def post_rtc(base, body, origin=None, host=None):
    ctx = host_tls()
    headers = {"Content-Type": "application/json", "Origin": origin or base}
    if host:
        headers["Host"] = host
    req = urllib.request.Request(base + "/api/rtc", data=json.dumps(body).encode(), method="POST", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10, context=ctx) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, {}
