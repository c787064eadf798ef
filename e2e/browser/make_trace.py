#!/usr/bin/env python3
"""Writes a replay trace (t,roll,pitch,yaw) for the dashboard browser test: slow,
smooth turns on all three axes (at most ~0.45 rad/s; roll stays under
the pointer mode's 0.2 rad drift threshold), 100 rows per second."""
import math
import sys

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 90.0
print("t,roll,pitch,yaw")
for i in range(int(seconds * 100) + 1):
    t = i / 100
    roll = 0.15 * math.sin(2 * math.pi * t / 7)
    pitch = 0.3 * math.sin(2 * math.pi * t / 5)
    yaw = 0.6 * math.sin(2 * math.pi * t / 9)
    print(f"{t:.2f},{roll:.5f},{pitch:.5f},{yaw:.5f}")
