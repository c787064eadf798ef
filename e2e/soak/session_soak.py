#!/usr/bin/env python3
"""Opens and closes many controller sessions one after another against a running
`remotion host --insecure` (plain datagrams, docs/PROTOCOL.md) and reports the host's
resident memory (VmRSS) after a warm-up and at the end, as one JSON line.

Each session: a ping (waits for the pong), five motion packets with an attitude and button
A held on the third, then a disconnect. Loopback only; bounded by --sessions and a 120 s cap.

    session_soak.py --port PORT --pid HOST_PID --sessions 5000 --warmup 1000
"""
import argparse, json, socket, struct, sys, time


def header(session):
    return struct.pack("<BBBBI", 0x52, 1, 1, 0, session)


def ping(session, t):
    return header(session) + struct.pack("<BQq", 0x01, t, 0)


def motion(session, seq, t, buttons, yaw):
    return header(session) + struct.pack("<BIIQHB", 0x04, seq, 0, t, buttons, 0x01) + struct.pack("<ddd", 0.0, 0.1, yaw)


def disconnect(session):
    return header(session) + struct.pack("<BB", 0x06, 0)


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--sessions", type=int, default=5000)
    ap.add_argument("--warmup", type=int, default=1000)
    a = ap.parse_args()
    if a.host not in ("127.0.0.1", "::1", "localhost"):
        sys.exit("session_soak: loopback only")
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(2.0)
    target = (a.host, a.port)
    deadline = time.monotonic() + 120
    opened = failed = 0
    rss = {}
    t = 1_000_000
    for i in range(a.warmup + a.sessions):
        if time.monotonic() > deadline:
            break
        session = 0x10000 + i
        s.sendto(ping(session, t), target)
        try:
            while True:
                data, _ = s.recvfrom(2048)
                if len(data) >= 9 and struct.unpack_from("<I", data, 4)[0] == session and data[8] == 0x02:
                    break
        except socket.timeout:
            failed += 1
            continue
        opened += 1
        for k in range(5):
            t += 10_000
            s.sendto(motion(session, k + 1, t, 1 if k == 2 else 0, 0.01 * k), target)
        s.sendto(disconnect(session), target)
        if i + 1 == a.warmup:
            time.sleep(0.3)
            rss["warm"] = rss_kib(a.pid)
    time.sleep(0.5)
    rss["end"] = rss_kib(a.pid)
    print(json.dumps({"opened": opened, "failed": failed, "warmup": a.warmup, "sessions": a.sessions,
                      "rss_warm_kib": rss.get("warm"), "rss_end_kib": rss["end"],
                      "growth_kib": rss["end"] - rss.get("warm", rss["end"])}))


if __name__ == "__main__":
    main()
