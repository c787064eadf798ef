#!/usr/bin/env python3
"""The WebSocket's motion lane and its security rules (docs/WEB-CONTROLLER.md, "The motion
lane"; docs/SECURITY.md), stdlib only. Run inside a network namespace of the caller's own
(scripts/web-stall-test.sh): `remotion host --inject log` (its JSON lines are the witness),
a raw page WebSocket (e2e/web/raw_page_client.py) as the primary and second ones as lanes.
Checks: a lane needs the device credential and the open session's label; it carries motion
(acknowledged on it) and never buttons or text (counted); a newer lane replaces the older,
never the session; closing the lane leaves a held button held; closing the primary releases
it and ends the lane; a revocation ends both. Prints 'N passed, N failed'."""
import argparse
import functools
import json
import os
import re
import struct
import subprocess
import sys
import time

from raw_page_client import CHECKS, LogHost, PageSocket, button, motion, ping

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from host_process import wait  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--bin", required=True)
p.add_argument("--work", required=True)
a = p.parse_args()
check, finish = CHECKS.check, CHECKS.finish


def frames(sock, until, timeout=3.0):
    """Reads the host's frames ([(opcode, payload)]) until `until(frames)` or the timeout;
    a closed connection ends the list with (None, b'')."""
    sock.settimeout(timeout)
    got, buf = [], b""
    end = time.monotonic() + timeout
    while time.monotonic() < end and not until(got):
        try:
            chunk = sock.recv(65536)
        except (TimeoutError, OSError):
            break
        if not chunk:
            got.append((None, b""))
            break
        buf += chunk
        while len(buf) >= 2:
            n, at = buf[1] & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    break
                n, at = struct.unpack(">H", buf[2:4])[0], 4
            if len(buf) < at + n:
                break
            got.append((buf[0] & 0x0F, buf[at:at + n]))
            buf = buf[at + n:]
    return got


def texts(got):
    return [json.loads(f[1]) for f in got if f[0] == 1]


def closed(got):
    return any(op in (None, 8) for op, _ in got)


def lane(addr, port, device, session):
    """A second WebSocket's lane hello: (socket, the host's answer)."""
    s = PageSocket(addr, port)
    s.send(json.dumps({"type": "lane", "v": 1, "id": device["id"], "credential": device["credential"],
                       "session": session}).encode(), 0x1)
    got = frames(s.sock, lambda g: texts(g) or closed(g))
    return s, (texts(got) or [{}])[0]


def moves(host, since):
    return [e for t, e in host.events() if t >= since and e["kind"] == "move_to"]


def buttons(host, since=0.0):
    return [(e["button"], e["state"]) for t, e in host.events() if t >= since and e["kind"] == "button"]


wait_for = functools.partial(wait, timeout=3.0, step=0.02)


host = LogHost(a.bin, a.work)
try:
    addr, port, device = host.paired_phone("lane-test", "pairs")
    early, answer = lane(addr, port, device, "00000001")
    check("a lane before any session is refused (no-session)", answer.get("reason") == "no-session", answer)
    primary = PageSocket(addr, port)
    check("the primary's welcome", primary.hello(device))
    session = re.search(rb'"session":"([0-9a-f]+)"', primary.first).group(1).decode()
    forged, answer = lane(addr, port, dict(device, credential="A" * 43), session)
    check("a lane with a forged credential is refused (unknown)", answer.get("reason") == "unknown", answer)
    wrong, answer = lane(addr, port, device, "ffffffff")
    check("a lane naming another session is refused (no-session)", answer.get("reason") == "no-session", answer)
    first, answer = lane(addr, port, device, session)
    check("a lane with the device credential and its session's label joins", answer == {"type": "lane", "session": session}, answer)

    t0 = time.monotonic()
    for k in range(5):
        first.send(motion(100 + k, 0.05 * k), 0x2)
    acks = [struct.unpack("<I", f[1][4:8])[0] for f in frames(first.sock, lambda g: len(g) >= 5) if f[0] == 2 and f[1][0] == 0x84]
    check("motion on the lane is acknowledged on it (MOTION-ACK per frame)", acks == [100, 101, 102, 103, 104], acks)
    check("… and moves the pointer", wait_for(lambda: len(moves(host, t0)) >= 1), len(moves(host, t0)))
    primary.send(motion(99, 0.3), 0x2)
    time.sleep(0.2)
    stats = host.control("web-stats")
    check("an older frame on the primary is stale (newest wins across sockets)",
          stats.get("dropped", {}).get("stale") == 1, stats.get("dropped"))
    first.send(button(1, True, 2), 0x2)
    first.send(motion(105, 0.3, buttons=2), 0x2)
    first.send(json.dumps({"type": "command", "command": "recenter"}).encode(), 0x1)
    time.sleep(0.3)
    stats = host.control("web-stats")
    check("a BUTTON and text on the lane are counted and dropped, and its frames' buttons ignored",
          stats["dropped"].get("lane-button") == 1 and stats["dropped"].get("lane-text") == 1 and buttons(host) == [],
          (stats["dropped"], buttons(host)))
    first.send(b"\x01\x00\x00", 0x2)
    time.sleep(0.2)
    dropped = host.control("web-stats")["dropped"]
    check("a malformed frame on the lane is counted by reason and dropped", sum(dropped.values()) == 4, dropped)
    primary.send(button(0, True, 1), 0x2)
    check("A pressed on the primary", wait_for(lambda: buttons(host) == [("left", "down")]), buttons(host))

    second, answer = lane(addr, port, device, session)
    check("a second lane joins", answer.get("type") == "lane", answer)
    got = frames(first.sock, closed)
    check("… and replaces the first (closed), never the session",
          closed(got) and wait_for(lambda: host.control("web-stats").get("opened") == 1), (texts(got), host.control("web-stats")))
    # The lane's own silence limit (the host's timeout, 2.5 s) ends it, and nothing else:
    # the primary keeps pinging and holds A.
    silent_since = time.monotonic()
    while time.monotonic() - silent_since < 4.0:
        primary.send(ping(), 0x2)
        time.sleep(0.25)
    got = frames(second.sock, closed, timeout=0.5)
    check("a silent lane is timed out by itself; the session and A stay",
          closed(got) and any(m.get("reason") == "timeout" for m in texts(got)) and buttons(host) == [("left", "down")]
          and host.control("web-stats")["ended"].get("lane-timedOut") == 1, (texts(got), buttons(host)))
    second.close()
    since = time.monotonic()
    primary.send(ping(), 0x2)
    primary.send(motion(200, 0.1, buttons=1), 0x2)
    time.sleep(0.5)
    check("closing the lane releases nothing; the session goes on",
          buttons(host) == [("left", "down")] and len(moves(host, since)) >= 1, (buttons(host), len(moves(host, since))))
    third, answer = lane(addr, port, device, session)
    check("a new lane joins again", answer.get("type") == "lane", answer)
    since = time.monotonic()
    primary.close()
    check("closing the primary releases A", wait_for(lambda: buttons(host) == [("left", "down"), ("left", "up")]), buttons(host))
    got = frames(third.sock, closed)
    check("… and ends its lane", closed(got), texts(got))

    # A revocation reaches both sockets.
    primary = PageSocket(addr, port)
    primary.hello(device)
    session = re.search(rb'"session":"([0-9a-f]+)"', primary.first).group(1).decode()
    fourth, answer = lane(addr, port, device, session)
    check("a new session's lane joins", answer.get("type") == "lane", answer)
    subprocess.run([a.bin, "devices", "--data-dir", host.data, "--revoke", device["id"]], capture_output=True, check=True)
    got_lane = frames(fourth.sock, closed)
    got_primary = frames(primary.sock, closed)
    check("a revocation ends the lane and the primary, and tells both why",
          closed(got_lane) and closed(got_primary)
          and any(m.get("reason") == "revoked" for m in texts(got_lane))
          and any(m.get("reason") == "revoked" for m in texts(got_primary)), (texts(got_lane), texts(got_primary)))
    stats = host.control("web-stats")
    check("lanes counted", stats.get("lanes") == 4, stats.get("lanes"))
finally:
    host.stop()
finish()
