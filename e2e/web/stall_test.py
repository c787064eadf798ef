#!/usr/bin/env python3
"""Newest wins after a real stall (docs/WEB-CONTROLLER.md, "Newest wins"), stdlib only.

Run inside a network namespace of the caller's own (scripts/web-stall-test.sh): starts
`remotion host --inject log` (the log injector's JSON lines, read as they are written, are
the witness), pairs through the printed URL, and streams MOTION frames with the page's
framing (protocol.js) at 60 Hz over wss. Then nftables drops the WebSocket's TCP port for
1 s while the client keeps sending (and presses and releases A); when the rule goes, TCP
delivers the backlog in a burst. Checks: the burst injects merged (one pointer move per 0.1 s
of the page's time it covers, not a replay of every frame), the host counted the merged frames, A is pressed
and released exactly once and in order, a stale frame (an older sequence number) is
counted as `dropped.stale` and moves nothing. Prints 'N passed, N failed'.
"""
import argparse
import math
import os
import socket
import subprocess
import time

from raw_page_client import CHECKS, LogHost, PageSocket, button, host_tls, motion

p = argparse.ArgumentParser()
p.add_argument("--bin", required=True)
p.add_argument("--work", required=True)
a = p.parse_args()


check, finish = CHECKS.check, CHECKS.finish


# ── the host, pairing, the page's socket (e2e/web/raw_page_client.py) ─────────────────
host = LogHost(a.bin, a.work, "--timeout", "6")
lines = host.lines
try:
    addr, port, device = host.paired_phone("stall-test")
    tls = host_tls()
    page = PageSocket(addr, port)
    check("WebSocket upgrade", page.upgraded)
    send = page.send
    ws = page.sock
    ws.settimeout(10)
    check("welcome", page.hello(device), f"({page.first[:120]!r})")
    # The host sends nothing more unless asked (no pings from this client): nothing to drain.
    # Once authenticated, this socket holds none of its address's 16 unauthenticated slots
    # (docs/SECURITY.md §9): 16 more TLS connections from 127.0.0.1 all get through.
    extra = []
    try:
        for _ in range(16):
            extra.append(tls.wrap_socket(socket.create_connection((addr, port), timeout=5)))
    except OSError as e:
        print("extra connection refused:", e)
    check("the authenticated WebSocket holds no unauthenticated slot (16 more connections from its address)",
          len(extra) == 16, f"({len(extra)} of 16)")
    for e in extra:
        e.close()

    control = host.control

    # ── stream at 60 Hz; two 1 s stalls ─────────────────────────────────────────────────
    # Each stall: nftables drops the port for 1 s while the client keeps sending, then the
    # rule goes and the client pauses (so what the host injects next is the backlog alone,
    # delivered when TCP's backed-off retransmission gets through). The second stall has
    # A pressed and released in it.
    def nft_drop():
        subprocess.run(["nft", "-f", "-"], check=True, text=True, input=f"""table inet stall {{
  chain input {{
    type filter hook input priority 0;
    tcp dport {port} drop
    tcp sport {port} drop
  }}
}}
""")

    def nft_restore():
        subprocess.run(["nft", "delete", "table", "inet", "stall"], check=True)

    seq, state = 0, 0
    stalls = []
    T0 = time.monotonic()

    def yaw_at(t):
        # ±0.25 rad around the first sample (the pointer's centre): about ±690 px, never at
        # the screen's edge; up to ~4 px per frame.
        return 0.25 * math.sin(2 * math.pi * (t - T0) / 16)          # per stall: {"sent", "restored", "resumed", "edges"}

    def stream(seconds, edges_at=()):
        """Sends MOTION frames at 60 Hz for `seconds`; BUTTON A down/up before the frames
        numbered in `edges_at` (counted from the start of this call). A starved sender that
        has not reached an edge's frame when the time is up goes on until it has sent it: a
        press is never left without its release."""
        global seq, state
        start = time.monotonic()
        n = 0
        while time.monotonic() - start < seconds or any(e >= n for e in edges_at):
            if n in edges_at:
                state ^= 1
                send(button(0, state == 1, state), 0x2)
            send(motion(seq, yaw_at(time.monotonic()), state), 0x2)
            seq += 1
            n += 1
            time.sleep(max(0, start + n / 60 - time.monotonic()))
        return n

    stream(1.5)
    for k, edges in enumerate([(), (20, 40)]):
        nft_drop()
        sent = stream(1.0, edges)
        nft_restore()
        restored = time.monotonic()
        time.sleep(2.0)                               # the backlog comes ~0.2–0.8 s after the rule goes
        stalls.append({"sent": sent, "restored": restored, "resumed": time.monotonic(), "edges": len(edges)})
        stream(1.0)
    stats = control("web-stats")
    # A third stall as a phone has it: the client keeps streaming when the network returns.
    nft_drop()
    sent3 = stream(1.0)
    nft_restore()
    restored3 = time.monotonic()
    stream(1.5)
    far = 1.0 if yaw_at(time.monotonic()) < 0 else -1.0
    send(motion(seq - 30, far, state), 0x2)           # an old sequence number, far-off attitude
    stream(0.3)
    time.sleep(0.3)
    stats3 = control("web-stats")
    send(b"", 0x8)
    ws.close()

    # ── what the host injected ───────────────────────────────────────────────────────
    events = host.events()
    # A merged sample covers at most 0.1 s of the page's time (the FPS mapper's step): five
    # frames at 60 Hz. A 1 s backlog injects about 12 moves at once; a replay would be ~60.
    def most_moves(frames): return frames // 5 + 3
    for k, st in enumerate(stalls):
        after = [e for t, e in events if st["restored"] <= t < st["resumed"]]
        kinds = ["move" if e["kind"] == "move_to" else f'{e["button"]}-{e["state"]}' for e in after]
        shape = [x for i, x in enumerate(kinds) if x != "move" or i == 0 or kinds[i - 1] != "move"]
        moves = kinds.count("move")
        first = next((t for t, e in events if t >= st["restored"]), None)
        want = ["move"] if not st["edges"] else ["move", "left-down", "move", "left-up", "move"]
        label = "a 1 s stall's backlog injects merged (a move per 0.1 s it covers, not a replay)" if not st["edges"] else \
            "a stall with A pressed and released in it: merged moves before each edge, each edge once, in order"
        # (+5: a host starved of the CPU in the middle of a backlog splits it a few times more.)
        check(label, shape == want and moves <= most_moves(st["sent"]) + 5 + 2 * st["edges"],
              f"({st['sent']} frames sent during the stall → {moves} moves, {shape}; first injection "
              f"{(first - st['restored']) * 1000:.0f} ms after the network returned)" if first else f"({kinds})")
    # (Four of every five frames merge; a hiccup of this loaded machine's sender or host, a
    # frame 40 ms late, is merged with the next one and counted too.)
    sent_in_stalls = sum(st["sent"] for st in stalls)
    check("the host merged the stalled frames and counted its bursts",
          stats.get("mergedFrames", 0) >= sent_in_stalls * 4 // 5 - 8 and stats.get("bursts", 0) >= 4,
          f"(sent during the stalls {[st['sent'] for st in stalls]}, merged {stats.get('mergedFrames')}, bursts {stats.get('bursts')})")
    buttons = [(e["button"], e["state"]) for _, e in events if e["kind"] == "button"]
    first3 = next((t for t, e in events if t >= restored3), None)
    burst3 = [t for t, e in events if e["kind"] == "move_to" and first3 is not None and first3 <= t < first3 + 0.05]
    merged3 = stats3.get("mergedFrames", 0) - stats.get("mergedFrames", 0)
    if os.environ.get("STALL_DEBUG"):
        print("after stall 3 (ms, x):", [(round((t - first3) * 1000, 1), e.get("x")) for t, e in events if first3 <= t < first3 + 0.3][:60])
    # ~12 merged + 3 fresh frames in 50 ms (20 seen: the stream's own frames catching up are
    # merged a step at a time too); a host starved of the CPU in the middle of the backlog
    # splits it more; a replay is ~100.
    bound3 = 2 * most_moves(sent3) + 8
    check(f"a stall while the client keeps streaming: at most {bound3} moves in the 50 ms after the silence (a replay: ~100)",
          first3 is not None and len(burst3) <= bound3 and merged3 >= sent3 * 4 // 5 - 4,
          f"({len(burst3)} moves; {sent3} frames sent during the stall, {merged3} merged; first injection "
          f"{(first3 - restored3) * 1000:.0f} ms after the network returned)" if first3 else "(nothing injected)")
    check("A pressed and released exactly once overall", buttons == [("left", "down"), ("left", "up")], f"({buttons})")
    check("the stale frame is counted", stats3.get("dropped", {}).get("stale") == 1, f"(dropped {stats3.get('dropped')})")
    xs = [e["x"] for _, e in events if e["kind"] == "move_to"]
    check("the stale frame moved nothing (its far-off yaw would put the pointer at the screen's edge)",
          len(xs) > 100 and 100 < min(xs) and max(xs) < 1820, f"({len(xs)} moves, x {min(xs)}…{max(xs)}; the stream keeps within 960 ± 690)")
finally:
    host.stop()
finish()
