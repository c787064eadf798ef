#!/usr/bin/env python3
"""Runs dsu_peer.py against itself on 127.0.0.1 (server mode <-> client mode) and checks
what arrived. Stdlib only; every process it starts is stopped by its pid. About 25 s.

  python3 e2e/dsu/selftest.py
"""

import json
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PEER = os.path.join(HERE, "dsu_peer.py")
sys.path.insert(0, HERE)
import dsu_peer  # noqa: E402  (only for the golden layout check below)

failures = []


def check(cond, what):
    print(("  ok   " if cond else "  FAIL ") + what)
    if not cond:
        failures.append(what)


def start_server(*args):
    # stdout goes to a file, not a pipe: a full pipe would stall the server's sends.
    log = tempfile.TemporaryFile(mode="w+")
    p = subprocess.Popen([sys.executable, PEER, "server", "--port", "0", *args], stdout=log, text=True)
    p.log = log
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        log.seek(0)
        first = log.readline()
        if first.endswith("\n"):
            first = json.loads(first)
            assert first["event"] == "listening", first
            return p, first["port"]
        time.sleep(0.02)
    finish(p, signal_first=True)
    raise RuntimeError("server did not start")


def run_client(port, *args):
    out = subprocess.run([sys.executable, PEER, "client", "--port", str(port), *args],
                         capture_output=True, text=True, timeout=120)
    return [json.loads(line) for line in out.stdout.splitlines()]


def finish(p, signal_first=False):
    if signal_first and p.poll() is None:
        os.kill(p.pid, signal.SIGTERM)
    try:
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
    p.log.seek(0)
    lines = [json.loads(line) for line in p.log.read().splitlines()]
    p.log.close()
    return lines


def summary(lines):
    return next(line for line in lines if line["event"] == "summary")


def golden_layout():
    print("golden pad-data bytes (hand-written in the Swift tests) parsed by the Python peer")
    golden = bytes.fromhex(
        "44 53 55 53 e9 03 54 00 fb a7 bf 78 dd cc bb aa 02 00 10 00"
        " 00 02 02 02 00 00 00 00 00 00 00 01 04 03 02 01 81 41 01 00 80 7f 80 ff"
        " ff 00 00 00 00 ff 00 00 00 00 00 80 01 05 02 01 04 03 00 00 00 00 00 00"
        " 05 04 03 02 01 00 00 00 00 00 00 3f 00 00 80 bf 00 00 80 3e"
        " 00 00 b4 42 00 00 34 c2 00 00 c0 3f")
    sender, mtype, payload = dsu_peer.unseal(golden, b"DSUS")
    p = dsu_peer.parse_pad(payload)
    check(sender == 0xAABBCCDD and mtype == dsu_peer.T_PAD, "header: sender aabbccdd, type 0x100002")
    check(p["counter"] == 0x01020304 and p["timestamp_us"] == 0x0102030405, "counter and timestamp")
    check(sorted(p["buttons"]) == ["cross", "dpad-left", "home", "l2", "share"], f"buttons {p['buttons']}")
    check(p["accel"] == [0.5, -1.0, 0.25] and p["gyro"] == [90.0, -45.0, 1.5], "accel and gyro")


def basic():
    print("basic: 2 slots, 60 Hz, yaw 90 deg/s for 2 s, presses, client 3 s")
    srv, port = start_server("--slots", "2", "--duration", "4", "--rate", "60", "--yaw-rate", "90",
                             "--rotate-seconds", "2", "--press", "cross@0.5+0.3,circle@1.0+0.2")
    client = run_client(port, "--duration", "3")
    server = finish(srv)
    cs, ss = summary(client), summary(server)
    pads = [line for line in client if line["event"] == "pad"]
    sent = [line for line in server if line["event"] == "sent"]
    for slot in (0, 1):
        n = cs["received"].get(str(slot), 0)
        check(150 <= n <= 185, f"slot {slot}: {n} packets in 3 s at 60 Hz")
    check(cs["drops"] == {} and cs["stale"] == 0 and cs["counter_gaps"] == 0,
          f"no drops, repeats or gaps ({cs['drops']}, stale {cs['stale']}, gaps {cs['counter_gaps']})")
    # Every packet the client logged was sent by the server with the same fields.
    by_key = {(s["slot"], s["counter"]): s for s in sent}
    same = all((p["slot"], p["counter"]) in by_key and by_key[(p["slot"], p["counter"])]["gyro"] == p["gyro"]
               and sorted(by_key[(p["slot"], p["counter"])]["buttons"]) == sorted(p["buttons"]) for p in pads)
    check(same, "client's packets match the server's log (counter, gyro, buttons)")
    # Yaw integrated over the client's timestamps ~ what the server rotated while the client listened.
    first_t = min(by_key[(p["slot"], p["counter"])]["t"] for p in pads if p["slot"] == 0)
    expected = 90.0 * (2.0 - first_t)
    got = cs["yaw_integral_deg"].get("0", 0)
    check(abs(got - expected) < 0.03 * expected, f"yaw integral {got:.1f} deg vs {expected:.1f} expected")
    cross = [p for p in pads if p["slot"] == 0 and "cross" in p["buttons"]]
    circle = [p for p in pads if p["slot"] == 0 and "circle" in p["buttons"]]
    check(15 <= len(cross) <= 21 and 9 <= len(circle) <= 15,
          f"cross held in {len(cross)} packets (~18), circle in {len(circle)} (~12)")
    check(any(p["accel"] == [0.0, -1.0, 0.0] for p in pads), "accel flat (0, -1, 0) g")
    check(any(line["event"] == "version" and line["version"] == 1001 for line in client), "version reply 1001")
    ports = {line["slot"]: line["state"] for line in client if line["event"] == "port"}
    check(ports == {0: 2, 1: 2, 2: 0, 3: 0}, f"port info states {ports}")
    check(ss["drops"] == {}, f"server drops {ss['drops']}")


def by_slot():
    print("by slot: 3-slot server, client subscribes to slot 1 only")
    srv, port = start_server("--slots", "3", "--duration", "2.5")
    client = run_client(port, "--duration", "1.5", "--slot", "1")
    finish(srv)
    cs = summary(client)
    check(list(cs["received"]) == ["1"] and cs["received"]["1"] > 80, f"received {cs['received']}")


def by_mac():
    print("by MAC: client subscribes to slot 2's MAC")
    srv, port = start_server("--slots", "3", "--duration", "2.5")
    client = run_client(port, "--duration", "1.5", "--mac", "aa:bb:cc:dd:ee:03")
    finish(srv)
    cs = summary(client)
    check(list(cs["received"]) == ["2"], f"received {cs['received']}")


def expiry():
    print("expiry: client renews at 0 s and 1 s then leaves; server must stop 5 s after the last renewal")
    srv, port = start_server("--duration", "8.5", "--rate", "50")
    run_client(port, "--duration", "1.2")
    server = finish(srv)
    subs = [line["t"] for line in server if line["event"] == "subscribe"]
    sent = [line["t"] for line in server if line["event"] == "sent"]
    last_sub, last_sent = max(subs), max(sent)
    check(len(subs) == 2, f"{len(subs)} subscriptions seen")
    check(4.9 <= last_sent - last_sub < 5.0, f"last packet {last_sent - last_sub:.3f} s after the last renewal")


def flood():
    print("flood: --flood-rate 10 (600 Hz), client 2 s")
    srv, port = start_server("--duration", "3", "--rate", "60", "--flood-rate", "10")
    client = run_client(port, "--duration", "2")
    server = finish(srv)
    cs = summary(client)
    n = cs["received"].get("0", 0)
    # The flood is there when the client gets far more than the 120 of 60 Hz; 1,200 is the
    # rate asked for, reached on an idle machine (a loaded one gave 824 and 975): a bound far
    # from what it measures, and never above the rate asked.
    check(360 <= n <= 1230, f"{n} packets in 2 s at 600 Hz (60 Hz would give 120)")
    check(cs["drops"] == {} and cs["counter_gaps"] == 0, f"drops {cs['drops']}, gaps {cs['counter_gaps']}")
    check(summary(server)["sent"] >= n, "server sent at least as many")


def sigterm():
    print("SIGTERM: server stops promptly with a summary")
    srv, _ = start_server("--duration", "60")
    time.sleep(0.5)
    t = time.monotonic()
    ss = summary(finish(srv, signal_first=True))
    check(ss["stopped_by_signal"] and time.monotonic() - t < 2, f"stopped in {time.monotonic() - t:.2f} s")
    check(srv.returncode == 0, f"exit status {srv.returncode}")


def refuses_non_loopback():
    print("loopback only")
    r = subprocess.run([sys.executable, PEER, "server", "--host", "0.0.0.0", "--duration", "1"],
                       capture_output=True, text=True, timeout=30)
    check(r.returncode != 0 and "loopback only" in r.stderr, "0.0.0.0 refused")


if __name__ == "__main__":
    t0 = time.monotonic()
    for test in (golden_layout, basic, by_slot, by_mac, expiry, flood, sigterm, refuses_non_loopback):
        test()
    print(f"{'FAILED: ' + str(len(failures)) if failures else 'all passed'} in {time.monotonic() - t0:.1f} s")
    sys.exit(1 if failures else 0)
