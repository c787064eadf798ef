"""Tilt and heading accuracy of the host's fusion against VQF on the same samples
(scripts/bench-fusion.sh; docs/BENCHMARKS.md "Orientation through a shove").

Seeded hand-held traces, generated here at 1 kHz and sampled at 100 and 250 Hz:
  0-4 s on a table; then hand-held stretches (slow pointing with 9 Hz tremor, and sweeps of
  band-limited random rotation up to ~200 °/s) with two more 3 s table rests; linear
  acceleration of the hand (of a bounded position band-limited to ~1.5 Hz, 0.03 g rms) and `bumps` shoves: a full-sine
  acceleration pulse (out and back, no net velocity) of 0.2-0.6 g over 0.12-0.35 s in a
  random, mostly horizontal direction. Sensors: gyro = body rate + a constant bias
  (0.5 °/s on each axis, signs from the seed) + white noise (0.007 °/s/√Hz), accelerometer =
  proper acceleration in g + white noise (150 µg/√Hz): a phone's figures.

The host: `MotionBench fuse` (RawMotionPipeline with the host's defaults: calibration,
rest gate, fusion). VQF: the `vqf` package's VQF (Laidig & Seel 2023) with its defaults,
6D (no magnetometer), accelerometer in m/s².

Errors from 5 s on (both have calibrated by then): tilt = the angle between the estimated
and the true up axis in the body frame; heading = the rotation about world z of
q_est ⊗ q_true⁻¹, less its value at 5 s (the heading itself is unobservable). Printed per
trace and filter: tilt RMS, p95 and max (°), heading RMS and max (°), and where the worst
tilt was (seconds after the nearest bump's start).

usage: fusion_bench.py MOTIONBENCH [--seeds 1,2,3] [--rates 100,250] [--seconds 76]
                       [--bumps 18] [--held] [--fuse name=value ...] [--json]
"""
import argparse, json, subprocess, sys
import numpy as np

SIM_HZ = 1000
G = 9.81


def quat_mul(a, b):
    w1, x1, y1, z1 = a[..., 0], a[..., 1], a[..., 2], a[..., 3]
    w2, x2, y2, z2 = b[..., 0], b[..., 1], b[..., 2], b[..., 3]
    return np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
                     w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                     w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2], axis=-1)


def quat_conj(q):
    return q * np.array([1, -1, -1, -1])


def rotate_to_body(q, v):
    """v in the world frame → the body frame, for q body → world."""
    vq = np.concatenate([np.zeros(v.shape[:-1] + (1,)), v], axis=-1)
    return quat_mul(quat_mul(quat_conj(q), vq), q)[..., 1:]


def lowpass(x, hz, cutoff):
    """A second-order critically damped low-pass, run twice (no phase lag)."""
    a = 1 - np.exp(-2 * np.pi * cutoff / hz)
    for _ in range(2):
        for rev in (False, True):
            y = np.empty_like(x); s = np.zeros(x.shape[1:])
            idx = range(len(x) - 1, -1, -1) if rev else range(len(x))
            for i in idx:
                s = s + a * (x[i] - s); y[i] = s
            x = y
    return x


def envelope(t, spans, ramp=0.3):
    """1 inside each (start, end) span with cosine ramps, 0 outside."""
    e = np.zeros_like(t)
    for a, b in spans:
        up = np.clip((t - a) / ramp, 0, 1); down = np.clip((b - t) / ramp, 0, 1)
        e = np.maximum(e, 0.5 - 0.5 * np.cos(np.pi * np.minimum(up, down)))
    return e


def make_trace(seed, seconds=76.0, bumps=18, table=True):
    rng = np.random.default_rng(seed)
    n = int(seconds * SIM_HZ)
    t = np.arange(n) / SIM_HZ
    # On a table at the start and twice more, or (table=False) held from the first sample to
    # the last: the gyro's bias is then never calibrated.
    rests = [(0, 4), (30, 33), (55, 58)] if table else [(-1, 0)]
    held = [(max(a + 0.2, 0), b - 0.2) for a, b in zip([r[1] for r in rests], [r[0] for r in rests[1:]] + [seconds])]
    # Sweeps: a few seconds each inside the held stretches; the rest of a held stretch is pointing.
    sweeps = []
    for a, b in held:
        s = a + rng.uniform(0.5, 2)
        while s + 2 < b:
            d = rng.uniform(2, 5); sweeps.append((s, min(s + d, b - 0.5))); s += d + rng.uniform(1.5, 4)
    hand = envelope(t, held)
    sweep = envelope(t, sweeps)
    white = rng.standard_normal((n, 3))
    slow = lowpass(white, SIM_HZ, 1.5)
    slow /= slow.std(axis=0)
    rate = np.radians(slow * (4 + 70 * sweep)[:, None]) * hand[:, None]
    tremor = np.radians(0.6) * np.sin(2 * np.pi * 9 * t[:, None] + rng.uniform(0, 2 * np.pi, 3)) * hand[:, None]
    rate = rate + tremor
    rate = np.clip(rate, -np.radians(200), np.radians(200))
    # Orientation: start level with a small tilt and integrate exactly per 1 ms step.
    q = np.empty((n, 4))
    r0 = rng.uniform(-0.2, 0.2, 3); ang = np.linalg.norm(r0)
    cur = np.concatenate([[np.cos(ang / 2)], np.sin(ang / 2) * r0 / ang])
    for i in range(n):
        q[i] = cur
        w = rate[i]; a = np.linalg.norm(w) / SIM_HZ
        dq = np.concatenate([[np.cos(a / 2)], np.sin(a / 2) * w / np.linalg.norm(w)]) if a > 0 else np.array([1.0, 0, 0, 0])
        cur = quat_mul(cur, dq); cur /= np.linalg.norm(cur)
    # Linear acceleration in the world frame, in g.
    # The hand's own motion: the second derivative of a bounded, band-limited position, so it
    # averages to nothing over seconds, as a hand that stays where it is must.
    pos = lowpass(rng.standard_normal((n, 3)), SIM_HZ, 1.5) * hand[:, None]
    lin = np.gradient(np.gradient(pos, axis=0), axis=0)
    lin = lin / np.sqrt(np.mean(lin[hand > 0.99] ** 2, axis=0)) * 0.03
    bump_at = []
    spans = [(a + 0.5, b - 0.6) for a, b in held]
    total = sum(b - a for a, b in spans)
    for k in range(bumps):
        x = rng.uniform(0, total)
        for a, b in spans:
            if x <= b - a: start = a + x; break
            x -= b - a
        dur = rng.uniform(0.12, 0.35); amp = rng.uniform(0.2, 0.6)
        d = rng.standard_normal(3) * np.array([1, 1, 0.4]); d /= np.linalg.norm(d)
        m = (t >= start) & (t < start + dur)
        lin[m] += amp * np.sin(2 * np.pi * (t[m] - start) / dur)[:, None] * d
        bump_at.append(start)
    proper = rotate_to_body(q, lin + np.array([0, 0, 1.0]))
    signs = rng.choice([-1, 1], 3)
    bias = np.radians(0.5) * signs
    return dict(t=t, q=q, rate=rate, proper=proper, bias=bias, bumps=sorted(bump_at), rng=rng)


def sample(trace, hz, seed):
    step = SIM_HZ // hz
    idx = np.arange(0, len(trace["t"]), step)
    rng = np.random.default_rng(seed * 1000 + hz)
    gyro = trace["rate"][idx] + trace["bias"] + np.radians(0.007) * np.sqrt(hz / 2) * rng.standard_normal((len(idx), 3))
    acc = trace["proper"][idx] + 150e-6 * np.sqrt(hz / 2) * rng.standard_normal((len(idx), 3))
    # What a sensor sends: float32.
    return trace["t"][idx], trace["q"][idx], gyro.astype(np.float32).astype(float), acc.astype(np.float32).astype(float)


def run_host(bench, t, gyro, acc, fuse_args):
    lines = [f"{1_000_000 + int(round(tt * 1e6))}," + ",".join(f"{v:.9g}" for v in (*g, *a))
             for tt, g, a in zip(t, gyro, acc)]
    out = subprocess.run([bench, "fuse", *fuse_args], input="\n".join(lines) + "\n", capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"MotionBench fuse failed: {out.stderr.strip()}")
    rows = np.array([[float(v) for v in l.split(",")] for l in out.stdout.splitlines()])
    return rows[:, :4]


def run_vqf(t, gyro, acc, hz):
    from vqf import VQF
    v = VQF(1.0 / hz)
    out = v.updateBatch(np.ascontiguousarray(gyro), np.ascontiguousarray(acc * G))
    return out["quat6D"]


def errors(t, q_true, q_est, bumps, start=5.0):
    up_true = rotate_to_body(q_true, np.array([0, 0, 1.0]))
    up_est = rotate_to_body(q_est, np.array([0, 0, 1.0]))
    tilt = np.degrees(np.arccos(np.clip(np.sum(up_true * up_est, axis=1), -1, 1)))
    e = quat_mul(q_est, quat_conj(q_true))
    heading = np.degrees(2 * np.arctan2(e[:, 3], e[:, 0]))
    m = t >= start
    heading = (heading - heading[m][0] + 180) % 360 - 180
    tilt, heading, tm = tilt[m], heading[m], t[m]
    worst = int(np.argmax(tilt))
    before = [b for b in bumps if b <= tm[worst]]
    return dict(tilt_rms=float(np.sqrt(np.mean(tilt ** 2))), tilt_p95=float(np.percentile(tilt, 95)),
                tilt_max=float(tilt[worst]), heading_rms=float(np.sqrt(np.mean(heading ** 2))),
                heading_max=float(np.max(np.abs(heading))), worst_at=float(tm[worst]),
                after_bump=float(tm[worst] - before[-1]) if before else None)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("bench")
    p.add_argument("--seeds", default="1,2,3,4,5")
    p.add_argument("--rates", default="100,250")
    p.add_argument("--seconds", type=float, default=76)
    p.add_argument("--bumps", type=int, default=18)
    p.add_argument("--held", action="store_true", help="no table: held from the start, never calibrated")
    p.add_argument("--fuse", nargs="*", default=[])
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    results = []
    for seed in [int(s) for s in a.seeds.split(",")]:
        trace = make_trace(seed, a.seconds, a.bumps, table=not a.held)
        for hz in [int(r) for r in a.rates.split(",")]:
            t, q, gyro, acc = sample(trace, hz, seed)
            for name, est in (("remotion", run_host(a.bench, t, gyro, acc, a.fuse)), ("vqf", run_vqf(t, gyro, acc, hz))):
                r = errors(t, q, est, trace["bumps"]); r.update(seed=seed, hz=hz, filter=name); results.append(r)
                if not a.json:
                    ab = f"{r['after_bump']:.2f} s after a bump" if r["after_bump"] is not None else "before any bump"
                    print(f"seed {seed} {hz:3d} Hz {name:8s} tilt rms {r['tilt_rms']:.3f} p95 {r['tilt_p95']:.3f} "
                          f"max {r['tilt_max']:.3f} (at {r['worst_at']:.1f} s, {ab})  heading rms {r['heading_rms']:.3f} max {r['heading_max']:.3f}")
    if a.json:
        print(json.dumps(results))
        return
    print()
    print("| rate | filter | tilt RMS ° | tilt p95 ° | tilt max ° (worst seed) | heading RMS ° | heading max ° |")
    print("|---|---|---|---|---|---|---|")
    for hz in sorted({r["hz"] for r in results}):
        for name in ("remotion", "vqf"):
            rs = [r for r in results if r["hz"] == hz and r["filter"] == name]
            mean = lambda k: sum(r[k] for r in rs) / len(rs)
            print(f"| {hz} Hz | {name} | {mean('tilt_rms'):.3f} | {mean('tilt_p95'):.3f} | {mean('tilt_max'):.3f} "
                  f"({max(r['tilt_max'] for r in rs):.3f}) | {mean('heading_rms'):.3f} | {max(r['heading_max'] for r in rs):.3f} |")
    print(f"\n{len({r['seed'] for r in results})} seeds of {a.seconds:g} s with {a.bumps} bumps each"
          f"{', held throughout (never calibrated)' if a.held else ''}; means over seeds, worst in brackets")


if __name__ == "__main__":
    main()
