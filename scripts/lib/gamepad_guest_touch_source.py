"""Runs inside the gamepad guest: a DSU server (the suite's own peer, e2e/dsu/dsu_peer.py)
whose one pad puts fingers on its touchpad, as a DSU app on a phone or a DS4 does. Once the
host asks for slot 0 it streams at 250 Hz, no finger down until the reader's go file exists
(it has opened the pad's nodes: readiness on purpose), then for 250 packets (1 s) one finger (id 1)
sliding from (480, 235) to (1440, 706) of the DS4's 1920 × 942 pixels; for 250 that finger at
(1440, 706) and a second one (id 2) at (1700, 100); then 125 with no finger; then it stops, so
the slot goes. The phases count packets, not seconds: a starved guest that holds this process
back sends the same slide later, never one that starts part of the way along. Writes one JSON
file with what it sent (the checks compute what the pad should show from it)."""
import json, os, socket, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "e2e", "dsu"))
import dsu_peer  # noqa: E402

port_file, result, go_file = sys.argv[1:4]
sock = dsu_peer.make_socket("127.0.0.1", 0)
sock.settimeout(0.05)
open(port_file + ".tmp", "w").write(str(sock.getsockname()[1]))
os.rename(port_file + ".tmp", port_file)
client, stop = None, time.monotonic() + 60
while client is None and time.monotonic() < stop:
    try:
        data, addr = sock.recvfrom(2048)
        _, kind, _ = dsu_peer.unseal(data, b"DSUC")
    except (socket.timeout, ValueError):
        continue
    if kind == dsu_peer.T_PAD:
        client = addr
out = {"asked": client is not None, "phases": []}
if client is not None:
    k, phase, start = 0, None, None
    ready_by = time.monotonic() + 60
    while True:
        if start is None and (os.path.exists(go_file) or time.monotonic() > ready_by):
            start = k
        n = -1 if start is None else k - start       # packets since the go
        if n >= 625:
            break
        if n < 0:
            fingers, name = [], "waiting for the reader"
        elif n < 250:
            f = n / 249
            fingers, name = [(1, round(480 + 960 * f), round(235 + 471 * f))], "one finger sliding"
        elif n < 500:
            fingers, name = [(1, 1440, 706), (2, 1700, 100)], "two fingers"
        else:
            fingers, name = [], "no finger"
        if name != phase:
            out["phases"].append({"name": name, "fingers": fingers})
            phase = name
        k += 1
        payload = dsu_peer.pad_payload(0, k, k * 4_000, set(), (0.0, -1.0, 0.0), (0.0, 0.0, 0.0), fingers)
        sock.sendto(dsu_peer.seal(b"DSUS", 0x70C4, dsu_peer.T_PAD, payload), client)
        time.sleep(0.004)
    out["sent"] = k
json.dump(out, open(result, "w"))
print(f"DSU touch source: {out}")
