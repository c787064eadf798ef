#!/usr/bin/env python3
"""An independent cemuhook "DSU" (protocol 1001) test peer, Python 3 stdlib only.

Written from the protocol description (v1993/cemuhook-protocol README; absolute
offsets below), sharing no code with Remotion's Swift implementation.

  server  serves 1-4 pad slots with a scripted rotation and button schedule on
          127.0.0.1, honours subscriptions (all / slot / MAC, 5 s lifetime), answers
          version and port-info requests, prints one JSON line per packet it sends.
  client  subscribes to a DSU server on 127.0.0.1:PORT, renews every second, prints one
          JSON line per pad-data packet (counter, timestamp, accel, gyro, buttons).

Both run for a bounded time (--duration) and stop on SIGTERM/SIGINT with a summary
line. Loopback only: any other address is refused.

Packet layout (little endian):
  0 magic "DSUS"/"DSUC" | 4 u16 version 1001 | 6 u16 length = size - 16 |
  8 u32 CRC-32 of the packet with this field zeroed | 12 u32 sender id | 16 u32 type
  0x100000 version: reply u16 version (+2 zero bytes)
  0x100001 port info: request i32 count + count slot bytes; reply 11-byte slot header
           (slot, state, model, connection, mac[6], battery) + 1 zero byte
  0x100002 pad data: request u8 flags (0 all, 1 slot, 2 mac), u8 slot, mac[6];
           reply (100 bytes): 20 slot header, 31 connected, 32 u32 counter,
           36/37 button bits (bit 7 first), 38 home, 39 touch, 40-43 sticks,
           44-55 analog buttons, 56-67 two touches, 68 u64 timestamp (us),
           76/80/84 f32 accel x/y/z (g), 88/92/96 f32 gyro pitch/yaw/roll (deg/s)
"""

import argparse
import json
import os
import select
import signal
import socket
import struct
import sys
import time
import zlib

VERSION = 1001
T_VERSION, T_PORTS, T_PAD = 0x100000, 0x100001, 0x100002
LIFETIME = 5.0
LOOPBACK = ("127.0.0.1", "::1")

# Byte 36 and byte 37, most significant bit first, as the description lists them.
BYTE36 = ["dpad-left", "dpad-down", "dpad-right", "dpad-up", "options", "r3", "l3", "share"]
BYTE37 = ["square", "cross", "circle", "triangle", "r1", "l1", "r2", "l2"]
ANALOG = ["dpad-left", "dpad-down", "dpad-right", "dpad-up", "square", "cross",
          "circle", "triangle", "r1", "l1", "r2", "l2"]
ALL_BUTTONS = BYTE36 + BYTE37 + ["home", "touch"]

stop = False


def on_signal(signum, frame):
    global stop
    stop = True


def emit(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def seal(magic, sender, msg_type, payload):
    # length = size - 16: the message type (4 bytes) counts as payload.
    head = magic + struct.pack("<HH", VERSION, 4 + len(payload)) + b"\0\0\0\0"
    packet = bytearray(head + struct.pack("<II", sender, msg_type) + payload)
    struct.pack_into("<I", packet, 8, zlib.crc32(bytes(packet)) & 0xFFFFFFFF)
    return bytes(packet)


def unseal(data, want_magic):
    """Returns (sender, type, payload) or raises ValueError(reason)."""
    if len(data) < 20:
        raise ValueError("truncated")
    if data[0:4] != want_magic:
        raise ValueError("bad-magic")
    version, length, crc = struct.unpack_from("<HHI", data, 4)
    if version != VERSION:
        raise ValueError("bad-version")
    if length < 4 or 16 + length > len(data):
        raise ValueError("bad-length")
    packet = bytearray(data[:16 + length])
    packet[8:12] = b"\0\0\0\0"
    if zlib.crc32(bytes(packet)) & 0xFFFFFFFF != crc:
        raise ValueError("bad-crc")
    sender, msg_type = struct.unpack_from("<II", packet, 12)
    return sender, msg_type, bytes(packet[20:])


def check_loopback(host):
    if host not in LOOPBACK:
        sys.exit(f"refusing {host}: this peer talks to loopback only (127.0.0.1 or ::1)")


def make_socket(host, port):
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(family, socket.SOCK_DGRAM)
    s.bind((host, port))
    return s


# ---------------------------------------------------------------- server

def parse_presses(text):
    """'cross@0.5+0.3,circle@1' -> [(name, start, end)] (default hold 0.2 s)."""
    presses = []
    for item in filter(None, (t.strip() for t in (text or "").split(","))):
        name, _, when = item.partition("@")
        if name not in ALL_BUTTONS:
            sys.exit(f"unknown button {name!r}; use one of {', '.join(ALL_BUTTONS)}")
        start, _, hold = when.partition("+")
        start = float(start or 0)
        presses.append((name, start, start + float(hold or 0.2)))
    return presses


def slot_mac(slot):
    return bytes([0xAA, 0xBB, 0xCC, 0xDD, 0xEE, slot + 1])


def slot_header(slot, connected):
    state, model, conn = (2, 2, 2) if connected else (0, 0, 0)
    mac = slot_mac(slot) if connected else b"\0" * 6
    return struct.pack("<BBBB", slot, state, model, conn) + mac + bytes([5 if connected else 0])


def pad_payload(slot, counter, t_us, pressed, accel, gyro, touches=(), connected=True):
    """`touches`: up to two (id, x, y) fingers down, in the pad's pixels; the rest are up.
    `connected` False: the slot says its pad is gone (state 0, byte 31 zero)."""
    b36 = sum(0x80 >> i for i, n in enumerate(BYTE36) if n in pressed)
    b37 = sum(0x80 >> i for i, n in enumerate(BYTE37) if n in pressed)
    analog = bytes(255 if n in pressed else 0 for n in ANALOG)
    fingers = list(touches)[:2]
    touches = b"".join(struct.pack("<BBHH", 1, i, x, y) for i, x, y in fingers) + b"\0" * 6 * (2 - len(fingers))
    return (slot_header(slot, connected) + bytes([1 if connected else 0]) + struct.pack("<I", counter)
            + bytes([b36, b37, 1 if "home" in pressed else 0, 1 if "touch" in pressed else 0])
            + bytes([128, 128, 128, 128]) + analog + touches
            + struct.pack("<Q", t_us) + struct.pack("<3f", *accel) + struct.pack("<3f", *gyro))


def malformed_packets(server_id):
    """One packet per rejection a DSU client must count: a valid pad-data reply
    spoiled in one way each (wrong magic, wrong version, wrong CRC, cut short)."""
    good = seal(b"DSUS", server_id, T_PAD, pad_payload(0, 1, 1, set(), (0.0, -1.0, 0.0), (0.0, 0.0, 0.0)))
    bad_magic = b"XSUS" + good[4:]
    bad_version = bytearray(good)
    struct.pack_into("<H", bad_version, 4, 1000)
    bad_version[8:12] = b"\0\0\0\0"
    struct.pack_into("<I", bad_version, 8, zlib.crc32(bytes(bad_version)) & 0xFFFFFFFF)
    bad_crc = bytearray(good)
    bad_crc[90] ^= 0x01
    return {"bad-magic": bad_magic, "bad-version": bytes(bad_version), "bad-crc": bytes(bad_crc),
            "truncated": good[:19]}


def live(t, now):
    return t is not None and now - t < LIFETIME


def run_server(a):
    check_loopback(a.host)
    sock = make_socket(a.host, a.port)
    server_id = int.from_bytes(os.urandom(4), "little")
    emit({"event": "listening", "host": a.host, "port": sock.getsockname()[1], "server_id": server_id,
          "slots": a.slots, "rate": a.rate * a.flood_rate})
    presses = parse_presses(a.press)
    touches = [tuple(int(v) for v in a.touch.split(","))] if a.touch else []
    clients = {}          # addr -> {"all": t, "slots": {slot: t}, "macs": {mac: t}}
    counters = [0] * 4
    drops, sent, replies = {}, 0, 0
    interval = 1.0 / (a.rate * a.flood_rate)
    t0 = time.monotonic()
    next_send = t0
    while not stop:
        now = time.monotonic()
        elapsed = now - t0
        if elapsed >= a.duration or (a.max_packets and sent >= a.max_packets):
            break
        timeout = max(0.0, min(next_send - now, t0 + a.duration - now))
        readable, _, _ = select.select([sock], [], [], timeout)
        if readable:
            data, addr = sock.recvfrom(2048)
            try:
                _, mtype, payload = unseal(data, b"DSUC")
                if mtype == T_VERSION:
                    sock.sendto(seal(b"DSUS", server_id, T_VERSION, struct.pack("<HH", VERSION, 0)), addr)
                    replies += 1
                elif mtype == T_PORTS:
                    if len(payload) < 4:
                        raise ValueError("truncated")
                    count = struct.unpack_from("<i", payload)[0]
                    if not 0 <= count <= 4:
                        raise ValueError("count-out-of-range")
                    if len(payload) < 4 + count:
                        raise ValueError("truncated")
                    for slot in payload[4:4 + count]:
                        if slot >= 4:
                            raise ValueError("slot-out-of-range")
                        sock.sendto(seal(b"DSUS", server_id, T_PORTS, slot_header(slot, slot < a.slots) + b"\0"), addr)
                        replies += 1
                elif mtype == T_PAD:
                    if len(payload) < 8:
                        raise ValueError("truncated")
                    flags, slot, mac = payload[0], payload[1], payload[2:8]
                    if a.malformed and addr not in clients:
                        for reason, packet in malformed_packets(server_id).items():
                            sock.sendto(packet, addr)
                            emit({"event": "malformed", "to": f"{addr[0]}:{addr[1]}", "reason": reason})
                    c = clients.setdefault(addr, {"all": None, "slots": {}, "macs": {}})
                    if flags == 0:
                        c["all"] = now
                    if flags & 1 and slot < 4:
                        c["slots"][slot] = now
                    if flags & 2:
                        c["macs"][mac] = now
                    emit({"event": "subscribe", "from": f"{addr[0]}:{addr[1]}", "flags": flags, "slot": slot,
                          "t": round(elapsed, 4)})
                else:
                    raise ValueError("unknown-type")
            except ValueError as e:
                drops[str(e)] = drops.get(str(e), 0) + 1
            continue
        if now < next_send:
            continue
        next_send += interval
        if next_send < now:
            next_send = now + interval     # late: no burst
        yaw = a.yaw_rate if elapsed < a.rotate_seconds else 0.0
        gyro, accel = (0.0, yaw, 0.0), (0.0, -1.0, 0.0)
        pressed = {n for n, s, e in presses if s <= elapsed < e}
        t_us = int(now * 1e6)
        for slot in range(a.slots):
            counters[slot] += 1
            packet = None
            for addr, c in clients.items():
                if not (live(c["all"], now) or live(c["slots"].get(slot), now)
                        or live(c["macs"].get(slot_mac(slot)), now)):
                    continue
                if packet is None:
                    connected = not (a.flap and counters[slot] % 2 == 0)
                    packet = seal(b"DSUS", server_id, T_PAD,
                                  pad_payload(slot, counters[slot], t_us, pressed, accel, gyro, touches, connected))
                sock.sendto(packet, addr)
                sent += 1
                emit({"event": "sent", "to": f"{addr[0]}:{addr[1]}", "slot": slot, "counter": counters[slot],
                      "timestamp_us": t_us, "t": round(elapsed, 4), "accel": list(accel), "gyro": list(gyro),
                      "buttons": sorted(pressed)})
    emit({"event": "summary", "mode": "server", "sent": sent, "replies": replies, "drops": drops,
          "clients": len(clients), "elapsed": round(time.monotonic() - t0, 3), "stopped_by_signal": stop})
    sock.close()


# ---------------------------------------------------------------- client

def parse_pad(payload):
    if len(payload) < 80:
        raise ValueError("truncated")
    slot, state, model, conn = payload[0:4]
    if slot >= 4:
        raise ValueError("slot-out-of-range")
    connected = payload[11]
    counter = struct.unpack_from("<I", payload, 12)[0]
    b36, b37, home, touch = payload[16:20]
    pressed = [n for i, n in enumerate(BYTE36) if b36 & (0x80 >> i)]
    pressed += [n for i, n in enumerate(BYTE37) if b37 & (0x80 >> i)]
    pressed += (["home"] if home else []) + (["touch"] if touch else [])
    t_us = struct.unpack_from("<Q", payload, 48)[0]
    accel = struct.unpack_from("<3f", payload, 56)
    gyro = struct.unpack_from("<3f", payload, 68)
    touches = [[i, x, y] for active, i, x, y in struct.iter_unpack("<BBHH", payload[36:48]) if active]
    return {"slot": slot, "state": state, "connected": connected, "counter": counter, "timestamp_us": t_us,
            "accel": [round(v, 6) for v in accel], "gyro": [round(v, 6) for v in gyro], "buttons": pressed,
            "touches": touches}


def run_client(a):
    check_loopback(a.host)
    sock = make_socket(a.host, 0)
    server = (a.host, a.port)
    client_id = int.from_bytes(os.urandom(4), "little")
    if a.slot is not None:
        request = struct.pack("<BB", 1, a.slot) + b"\0" * 6
    elif a.mac:
        request = struct.pack("<BB", 2, 0) + bytes.fromhex(a.mac.replace(":", ""))
    else:
        request = b"\0" * 8

    def subscribe():
        sock.sendto(seal(b"DSUC", client_id, T_VERSION, b""), server)
        sock.sendto(seal(b"DSUC", client_id, T_PORTS, struct.pack("<i", 4) + bytes([0, 1, 2, 3])), server)
        sock.sendto(seal(b"DSUC", client_id, T_PAD, request), server)

    t0 = time.monotonic()
    next_renew = t0
    renewals, received, drops = 0, {}, {}
    last = {}                   # slot -> (counter, timestamp_us)
    stale, gaps, yaw_integral = 0, 0, {}
    while not stop:
        now = time.monotonic()
        if now - t0 >= a.duration:
            break
        if now >= next_renew:
            subscribe()
            renewals += 1
            next_renew += a.renew
            if next_renew < now:
                next_renew = now + a.renew
        timeout = max(0.0, min(next_renew, t0 + a.duration) - now)
        readable, _, _ = select.select([sock], [], [], timeout)
        if not readable:
            continue
        data, _ = sock.recvfrom(2048)
        try:
            _, mtype, payload = unseal(data, b"DSUS")
            if mtype == T_VERSION:
                emit({"event": "version", "version": struct.unpack_from("<H", payload)[0]})
            elif mtype == T_PORTS:
                emit({"event": "port", "slot": payload[0], "state": payload[1], "mac": payload[4:10].hex(":")})
            elif mtype == T_PAD:
                p = parse_pad(payload)
                slot, counter = p["slot"], p["counter"]
                if slot in last:
                    prev_counter, prev_t = last[slot]
                    ahead = (counter - prev_counter) & 0xFFFFFFFF
                    if ahead == 0 or ahead >= 0x80000000:
                        stale += 1
                        raise ValueError("stale-counter")
                    gaps += ahead - 1
                    dt = (p["timestamp_us"] - prev_t) / 1e6
                    if 0 < dt < 0.5:
                        yaw_integral[slot] = yaw_integral.get(slot, 0.0) + p["gyro"][1] * dt
                last[slot] = (counter, p["timestamp_us"])
                received[slot] = received.get(slot, 0) + 1
                p["event"] = "pad"
                p["t"] = round(now - t0, 4)
                emit(p)
            else:
                raise ValueError("unknown-type")
        except ValueError as e:
            drops[str(e)] = drops.get(str(e), 0) + 1
    emit({"event": "summary", "mode": "client", "received": {str(k): v for k, v in sorted(received.items())},
          "drops": drops, "stale": stale, "counter_gaps": gaps, "renewals": renewals,
          "yaw_integral_deg": {str(k): round(v, 3) for k, v in sorted(yaw_integral.items())},
          "elapsed": round(time.monotonic() - t0, 3), "stopped_by_signal": stop})
    sock.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("server", help="serve synthetic pads")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=26760, help="0 = any free port (printed)")
    s.add_argument("--slots", type=int, default=1, choices=range(1, 5))
    s.add_argument("--duration", type=float, default=5.0, help="seconds, at most 600")
    s.add_argument("--rate", type=float, default=60.0, help="pad packets per second per slot")
    s.add_argument("--flood-rate", type=float, default=1.0, help="multiply the send rate (e.g. 10)")
    s.add_argument("--max-packets", type=int, default=200000, help="stop after this many sent packets")
    s.add_argument("--yaw-rate", type=float, default=90.0, help="DSU yaw field, deg/s (+ = turning right)")
    s.add_argument("--rotate-seconds", type=float, default=2.0, help="rotate for this long, then hold still")
    s.add_argument("--press", default="", help="e.g. 'cross@0.5+0.3,circle@1.0' (start s + hold s)")
    s.add_argument("--touch", default="", help="ID,X,Y: one finger on the touchpad the whole run (the pad's pixels)")
    s.add_argument("--flap", action="store_true",
                   help="every other pad-data packet says the slot's pad is gone (a flapping source)")
    s.add_argument("--malformed", action="store_true",
                   help="send each new subscriber one bad-magic, bad-version, bad-crc and truncated packet first")
    c = sub.add_parser("client", help="subscribe and record pad data")
    c.add_argument("--host", default="127.0.0.1")
    c.add_argument("--port", type=int, default=26760)
    c.add_argument("--duration", type=float, default=3.0, help="seconds, at most 600")
    c.add_argument("--renew", type=float, default=1.0)
    g = c.add_mutually_exclusive_group()
    g.add_argument("--slot", type=int, choices=range(4))
    g.add_argument("--mac", help="aa:bb:cc:dd:ee:01")
    a = ap.parse_args()
    if not 0 < a.duration <= 600:
        sys.exit("--duration must be in (0, 600]")
    if a.mode == "server" and not (0 < a.rate <= 1000 and 1 <= a.flood_rate <= 100):
        sys.exit("--rate must be in (0, 1000] and --flood-rate in [1, 100]")
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    (run_server if a.mode == "server" else run_client)(a)


if __name__ == "__main__":
    main()
