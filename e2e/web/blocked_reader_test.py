#!/usr/bin/env python3
"""A paired phone that stops reading cannot keep a button pressed (docs/SECURITY.md §9),
stdlib only. Run inside a network namespace of the caller's own
(scripts/web-stall-test.sh).

`remotion host --inject log` (the log injector's JSON lines are the witness) and a raw TLS
WebSocket client framed like the page with a tiny receive buffer: it presses A (the left
button), floods pings without reading a byte (the host's pongs fill its send buffer and
the client's receive window, so the host's writes block), then falls silent. Checks: A is
released within the session timeout (2.5 s) plus the watchdog's margin after the client's
last byte, and — on a second phone doing the same — `remotion devices --revoke` ends the
session and releases A within a second, before that timeout could. Before the fix the
watchdog waited for its goodbye write and A stayed down (6 s and more).
Prints 'N passed, N failed'.
"""
import argparse
import os
import socket
import ssl
import subprocess
import time

from raw_page_client import CHECKS, LogHost, PageSocket, button, pair, ping

p = argparse.ArgumentParser()
p.add_argument("--bin", required=True)
p.add_argument("--work", required=True)
a = p.parse_args()

TIMEOUT = 2.5          # the web session's silence limit (WebControllerServer.Configuration.timeout)

check, finish = CHECKS.check, CHECKS.finish


def left(host, state, after):
    """The first `left-<state>` event the host injected at or after `after` (its time), or None."""
    return next((t for t, e in host.events() if t >= after and e.get("kind") == "button"
                 and e.get("button") == "left" and e.get("state") == state), None)


def wait_for(pred, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = pred()
        if v is not None:
            return v
        time.sleep(0.02)
    return pred()


def press_and_flood(addr, port, device, label, seconds):
    """A phone with 4 KiB buffers presses A, then floods pings without reading a byte: the
    host's pongs fill its send buffer and the phone's receive window, and from then on the
    host's writes are stuck. (When that happens cannot be seen from here: the host's receive
    buffer keeps taking the pings for a while.) The flood ends after `seconds`, when a send
    blocks or fails, or when A was released. Returns the socket (kept open: the phone is
    still there, just not reading) and when the flood ended."""
    page = PageSocket(addr, port, rcvbuf=4096, sndbuf=4096)
    check(f"{label}: welcome", page.upgraded and page.hello(device), f"({page.first[:80]!r})")
    pressed_at = time.monotonic()
    page.send(button(0, True, 1), 0x2)
    check(f"{label}: A pressed (left-down injected)", wait_for(lambda: left(host, "down", pressed_at), 5) is not None)
    page.sock.settimeout(0.5)
    sent, how, started = 0, "time", time.monotonic()
    try:
        while time.monotonic() - started < seconds:
            sent += 1
            page.send(ping(sent), 0x2)
            if sent % 2000 == 0 and left(host, "up", pressed_at) is not None:
                how = "A released"
                break
    except socket.timeout:
        how = "a send blocked"
    except (ssl.SSLError, OSError) as e:
        how = f"a send failed ({type(e).__name__}: the host cut the connection)"
    ended = time.monotonic() - (0.5 if how == "a send blocked" else 0)
    print(f"     {label}: {sent} pings in {ended - started:.1f} s without reading a byte; ended by {how}")
    return page, ended


host = LogHost(a.bin, a.work)
try:
    addr, port, device = host.paired_phone("blocked-reader")

    # 1. The host's writes are stuck and the phone falls silent: the watchdog ends the
    #    session within the timeout of the host's last read (before the fix: never).
    t0 = time.monotonic()
    page, last = press_and_flood(addr, port, device, "silent phone", 40)
    released = wait_for(lambda: left(host, "up", t0), TIMEOUT + 5)
    check(f"silent phone: A released no later than {TIMEOUT} s + 1 s after the flood ended, the phone still connected",
          released is not None and released - last <= TIMEOUT + 1.0,
          f"({released - last:+.2f} s from the end of the flood)" if released else "(A is still down)")
    page.sock.close()

    # 1b. One credential holds one session (it could take all 16 slots):
    #     three sockets with the same device, each welcomed; the two older ones are told
    #     "replaced" and closed, and the host keeps one session.
    before = host.control("web-stats")
    socks = []
    for _ in range(3):
        s = PageSocket(addr, port)
        s.hello(device)
        socks.append(s)
        time.sleep(0.3)
    told = []
    for s in socks[:2]:
        s.sock.settimeout(3)
        got = b""
        try:
            while b"replaced" not in got:
                chunk = s.sock.recv(4096)
                if not chunk:
                    break
                got += chunk
        except (socket.timeout, OSError):
            pass
        told.append(b'"replaced"' in got)
    after = wait_for(lambda: (lambda st: st if st["ended"].get("client-disconnected:user", 0)
                              - before["ended"].get("client-disconnected:user", 0) >= 2 else None)(host.control("web-stats")), 5)
    check("one device, three sockets: the two older ones are told they were replaced and the host keeps one session",
          all(told) and after is not None and after["opened"] - before["opened"] == 3,
          f"(told {told}; opened +{(after or before)['opened'] - before['opened']}, ended {(after or before)['ended']})")
    for s in socks:
        s.close()

    # 2. The same, and the phone is revoked: its session ends at once (before the timeout).
    #    A second pairing window: the first link was used up.
    window = host.control("web-pair-window")
    addr2, port2, device2 = pair(window["url"], "blocked-revoked", host.data)
    t1 = time.monotonic()
    page2, last2 = press_and_flood(addr2, port2, device2, "revoked phone", 3)
    out = subprocess.run([a.bin, "devices", "--revoke", device2["id"], "--data-dir", host.data],
                         capture_output=True, text=True, timeout=30)
    check("remotion devices --revoke succeeds", out.returncode == 0, out.stdout.strip() + out.stderr.strip())
    done = time.monotonic()
    released2 = wait_for(lambda: left(host, "up", t1), TIMEOUT + 5)
    check("revoked phone: A released within 1 s of the revocation reaching the disk (sooner than the timeout)",
          released2 is not None and released2 - done <= 1.0 and released2 - last2 < TIMEOUT,
          f"({released2 - done:.2f} s after the revocation, {released2 - last2:.2f} s after the phone's last byte)"
          if released2 else "(A is still down)")
    page2.sock.close()
    downs = [e for _, e in host.events() if e.get("kind") == "button" and e.get("state") == "down"]
    ups = [e for _, e in host.events() if e.get("kind") == "button" and e.get("state") == "up"]
    check("every press released exactly once", len(downs) == 2 and len(ups) == 2, f"({len(downs)} down, {len(ups)} up)")
finally:
    host.stop()
finish()
