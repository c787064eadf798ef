// orientation.js — W3C device orientation (alpha, beta, gamma) + screen angle → Remotion attitude.
// Pure ES module: no DOM access, runs in the browser and under node.
//
// ── Derivation ────────────────────────────────────────────────────────────────────────────
// Frames. Device frame D (W3C and CoreMotion agree): x to the right of the screen in the
// device's natural (portrait) orientation, y up along the screen towards the top edge,
// z out of the screen. Earth frame E: z up (vertical); x/y horizontal with an arbitrary
// heading (deviceorientation is relative unless `absolute`; CoreMotion xArbitraryZVertical).
//
// W3C. deviceorientation gives intrinsic Tait-Bryan angles Z-X'-Y'': start with D = E,
// rotate by alpha about z, then beta about the new x, then gamma about the new y. As a
// matrix that maps device coordinates to earth coordinates:
//     R = Rz(α) · Rx(β) · Ry(γ)          α ∈ [0, 360), β ∈ [-180, 180), γ ∈ [-90, 90)
// With c = cos, s = sin (ψ = yaw about z, φ = pitch about x, ρ = roll about y):
//     Rz(ψ)Rx(φ)Ry(ρ) = | cψcρ − sψsφsρ   −sψcφ   cψsρ + sψsφcρ |
//                        | sψcρ + cψsφsρ    cψcφ   sψsρ − cψsφcρ |
//                        |     −cφsρ          sφ        cφcρ      |
//
// CoreMotion. CMAttitude's Euler angles are the same Z-X'-Y'' decomposition (yaw about z,
// pitch about x, roll about y) but on the other branch: pitch ∈ [-π/2, π/2], roll and yaw
// ∈ (-π, π]. Both branches describe the same rotation, since
//     Rz(α+π)·Rx(π−β)·Ry(γ+π) = Rz(α)·Rx(β)·Ry(γ),
// so we do not map the angles one by one (that breaks when |β| > 90°, i.e. the screen
// faces down); we build the rotation and read the CoreMotion angles back out of it:
//     pitch = asin(R21)              (R21 = sφ; cφ ≥ 0 on this branch)
//     roll  = atan2(−R20, R22)       (−cφsρ, cφcρ)
//     yaw   = atan2(−R01, R11)       (−sψcφ, cψcφ)
// At the gimbal lock (|R21| = 1, screen vertical) roll and yaw are not separable; we put
// roll = 0 and yaw = atan2(R10, R00) (= ψ ± ρ, which is ψ when ρ = 0).
// Signs, checked against both specs: β > 0 raises the top edge (pitch up), γ > 0 lowers
// the right edge (roll right), α grows counter-clockwise seen from above (yaw left).
//
// Quaternions. The page composes with unit quaternions (no 3×3 products, no drift):
//     q = qz(α) ⊗ qx(β) ⊗ qy(γ),   qaxis(θ) = (cos θ/2, axis · sin θ/2)
// and reads the five matrix entries it needs from q = (w, x, y, z):
//     R00 = 1 − 2(y² + z²)   R01 = 2(xy − wz)   R10 = 2(xy + wz)   R11 = 1 − 2(x² + z²)
//     R20 = 2(xz − wy)       R21 = 2(yz + wx)   R22 = 1 − 2(x² + y²)
// (These give the usual CMAttitude formulas pitch = asin(2(wx + yz)),
//  roll = atan2(2(wy − xz), 1 − 2(x² + y²)), yaw = atan2(2(wz − xy), 1 − 2(x² + z²)).)
//
// Screen orientation. deviceorientation is always in the device frame, whatever way the
// page is drawn. screen.orientation.angle θ (window.orientation on old iOS; -90 ≡ 270) is
// how far the device is turned counter-clockwise from its natural orientation, so the
// content's axes, in device coordinates, are S = Rz(−θ) applied to D: at θ = 90 (top edge
// to the left) screen-right = −y_D and screen-up = +x_D. The controller's attitude is the
// screen's, so (like three.js DeviceOrientationControls):
//     q_screen = q ⊗ qz(−θ)
// and vectors measured in D (gyro, acceleration) are re-expressed in S by
//     v_S = Rz(θ) · v_D :  x_S = cθ·x − sθ·y,  y_S = sθ·x + cθ·y,  z_S = z
// so attitude, gyro and acceleration in a frame all use one set of axes.
//
// Gyro. devicemotion.rotationRate alpha/beta/gamma are deg/s about the x/y/z axes of D —
// NOT about z/x/y like the deviceorientation angles of the same names. The spec was changed
// to say so because Chrome, Firefox and Safari all did it (w3c/deviceorientation issue 44,
// PR 43; index.bs: "alpha getter steps are to return … x axis rotation rate", beta → y,
// gamma → z), and Chromium 156 here maps a virtual gyroscope's x to rotationRate.alpha.
// So v_D = (alpha, beta, gamma) · π/180 rad/s.
// Acceleration. accelerationIncludingGravity in m/s², divided by 9.80665 → g, sign kept
// as the browser reports it (Chromium: +1 g on z lying face up).
// ───────────────────────────────────────────────────────────────────────────────────────────

export const DEG = Math.PI / 180;
export const STANDARD_GRAVITY = 9.80665;

/** Hamilton product a ⊗ b of quaternions {w, x, y, z}. */
export function quatMultiply(a, b) {
  return {
    w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
    x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
    y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
    z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
  };
}

/** Rotation by `radians` about a unit axis 'x' | 'y' | 'z'. */
export function quatAxis(axis, radians) {
  const h = radians / 2, s = Math.sin(h);
  return { w: Math.cos(h), x: axis === "x" ? s : 0, y: axis === "y" ? s : 0, z: axis === "z" ? s : 0 };
}

/** W3C intrinsic Z-X'-Y'' angles in degrees → unit quaternion (device → earth). */
export function quatFromDeviceOrientation(alpha, beta, gamma) {
  return quatMultiply(quatMultiply(quatAxis("z", alpha * DEG), quatAxis("x", beta * DEG)),
                      quatAxis("y", gamma * DEG));
}

/** screen.orientation.angle / window.orientation → 0, 90, 180 or 270 (other values kept in [0, 360)). */
export function normalizeScreenAngle(angle) {
  const a = Number(angle);
  if (!Number.isFinite(a)) return 0;
  return ((a % 360) + 360) % 360;
}

// Exact cos/sin for the four screen angles (no 6e-17 residue in the results).
function cosSin(deg) {
  switch (deg) {
    case 0: return [1, 0];
    case 90: return [0, 1];
    case 180: return [-1, 0];
    case 270: return [0, -1];
    default: return [Math.cos(deg * DEG), Math.sin(deg * DEG)];
  }
}

/** The device attitude re-expressed in the screen's frame: q ⊗ qz(−θ). */
export function quatToScreen(q, screenAngle) {
  const [c, s] = cosSin(normalizeScreenAngle(screenAngle));
  // qz(−θ) = (cos(θ/2), 0, 0, −sin(θ/2)); half-angle from c, s without losing the sign.
  const half = Math.atan2(s, c) / 2;
  return quatMultiply(q, { w: Math.cos(half), x: 0, y: 0, z: -Math.sin(half) });
}

/** Unit quaternion → CoreMotion roll/pitch/yaw (radians; pitch ∈ [-π/2, π/2], roll, yaw ∈ (-π, π]). */
export function attitudeFromQuaternion(q) {
  const n = Math.hypot(q.w, q.x, q.y, q.z) || 1;
  const w = q.w / n, x = q.x / n, y = q.y / n, z = q.z / n;
  const r21 = 2 * (y * z + w * x);
  const pitch = Math.asin(Math.max(-1, Math.min(1, r21)));
  if (Math.abs(r21) >= 1 - 1e-12) {               // gimbal lock: screen vertical
    const r00 = 1 - 2 * (y * y + z * z), r10 = 2 * (x * y + w * z);
    return { roll: 0, pitch, yaw: wrapPi(Math.atan2(r10, r00)) };
  }
  const roll = Math.atan2(-2 * (x * z - w * y), 1 - 2 * (x * x + y * y));
  const yaw = Math.atan2(-2 * (x * y - w * z), 1 - 2 * (x * x + z * z));
  return { roll: wrapPi(roll), pitch, yaw: wrapPi(yaw) };
}

/** Maps an angle into (-π, π]. */
export function wrapPi(a) {
  if (a > -Math.PI && a <= Math.PI) return a === 0 ? 0 : a;   // also turns -0 into 0
  const t = a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));
  return t <= -Math.PI ? t + 2 * Math.PI : t;
}

/**
 * deviceorientation (degrees) + screen angle → {roll, pitch, yaw} in radians, or null when
 * beta or gamma is missing. A missing alpha (no yaw source) counts as 0.
 */
export function attitudeFromDeviceOrientation(alpha, beta, gamma, screenAngle = 0) {
  if (!isNum(beta) || !isNum(gamma)) return null;
  const q = quatFromDeviceOrientation(isNum(alpha) ? alpha : 0, beta, gamma);
  return attitudeFromQuaternion(quatToScreen(q, screenAngle));
}

/** A device-frame vector [x, y, z] re-expressed in the screen frame: Rz(θ)·v. */
export function vectorToScreen(v, screenAngle) {
  const [c, s] = cosSin(normalizeScreenAngle(screenAngle));
  return [c * v[0] - s * v[1], s * v[0] + c * v[1], v[2]];
}

/** devicemotion.rotationRate (alpha/beta/gamma = deg/s about x/y/z) → [x, y, z] rad/s in the screen frame, or null. */
export function gyroFromRotationRate(rate, screenAngle = 0) {
  if (!rate || !isNum(rate.alpha) || !isNum(rate.beta) || !isNum(rate.gamma)) return null;
  return vectorToScreen([rate.alpha * DEG, rate.beta * DEG, rate.gamma * DEG], screenAngle);
}

/** devicemotion.accelerationIncludingGravity (m/s²) → [x, y, z] in g in the screen frame, or null. */
export function accelFromIncludingGravity(acc, screenAngle = 0) {
  if (!acc || !isNum(acc.x) || !isNum(acc.y) || !isNum(acc.z)) return null;
  return vectorToScreen([acc.x / STANDARD_GRAVITY, acc.y / STANDARD_GRAVITY, acc.z / STANDARD_GRAVITY],
                        screenAngle);
}

function isNum(v) { return typeof v === "number" && Number.isFinite(v); }
