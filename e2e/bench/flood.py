#!/usr/bin/env python3
"""Bogus Noise IK initiations with a valid mac1 (the kind that costs the host a
Diffie-Hellman until its cookie defence engages), sent to a host on loopback only.
Bounded by rate and duration; stops by itself.

usage: flood.py HOST PORT HOST_KEY_BASE32 RATE SECONDS [SOURCES]
"""
import base64, hashlib, hmac, ipaddress, os, socket, struct, sys, time

host, port, key_b32, rate, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
sources = int(sys.argv[6]) if len(sys.argv) > 6 else 16
if not ipaddress.ip_address(host).is_loopback:
    sys.exit("flood.py: refusing a non-loopback target")
pad = "=" * (-len(key_b32) % 8)
host_key = base64.b32decode(key_b32.upper() + pad)
mac1_key = hashlib.sha256(b"mac1----" + host_key).digest()
socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(sources)]
sent, start = 0, time.monotonic()
interval = 1.0 / rate
while time.monotonic() - start < seconds:
    index = int.from_bytes(os.urandom(4), "little") | 1
    header = bytes([0x52, 1, 0x02, 0]) + struct.pack("<I", index)
    body = struct.pack("<I", index) + bytes([1, 0, 0, 0]) + os.urandom(112)   # IK message 0: e, s, payload
    msg = header + body
    mac1 = hmac.new(mac1_key, msg, hashlib.sha256).digest()[:16]
    socks[sent % sources].sendto(msg + mac1 + bytes(16), (host, port))
    sent += 1
    delay = start + sent * interval - time.monotonic()
    if delay > 0:
        time.sleep(delay)
print(f"flood: sent {sent} bogus initiations in {time.monotonic() - start:.1f} s from {sources} ports", file=sys.stderr)
