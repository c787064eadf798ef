// sensors.js — motion permission (under the user's tap), sensor listeners, screen angle,
// screen wake lock. Touches `window` only inside the functions, never at import time.

/** What the browser offers: {secure, orientation, motion, needsPermission}. */
export function sensorSupport(win = globalThis) {
  const DOE = win.DeviceOrientationEvent, DME = win.DeviceMotionEvent;
  return {
    secure: win.isSecureContext !== false,
    orientation: typeof DOE === "function",
    motion: typeof DME === "function",
    needsPermission: (DOE && typeof DOE.requestPermission === "function") ||
                     (DME && typeof DME.requestPermission === "function") || false,
  };
}

/**
 * Asks for motion/orientation access. MUST be called synchronously from a tap handler:
 * both requestPermission() calls start before the first await (iOS 13+ rejects calls made
 * outside a user gesture with NotAllowedError). Resolves to
 * {result: "granted" | "denied" | "unsupported" | "error", detail}.
 */
export function requestMotionPermission(win = globalThis) {
  const DOE = win.DeviceOrientationEvent, DME = win.DeviceMotionEvent;
  if (typeof DOE !== "function" && typeof DME !== "function") {
    return Promise.resolve({ result: "unsupported", detail: "no DeviceOrientationEvent / DeviceMotionEvent" });
  }
  const asks = [];
  if (DME && typeof DME.requestPermission === "function") asks.push(DME.requestPermission());
  if (DOE && typeof DOE.requestPermission === "function") asks.push(DOE.requestPermission());
  if (!asks.length) return Promise.resolve({ result: "granted", detail: "no permission needed" });
  return Promise.allSettled(asks).then((rs) => {
    const values = rs.map((r) => (r.status === "fulfilled" ? r.value : "error:" + ((r.reason && r.reason.name) || r.reason)));
    if (values.some((v) => v === "granted")) return { result: "granted", detail: values.join(", ") };
    if (values.some((v) => v === "denied")) return { result: "denied", detail: values.join(", ") };
    return { result: "error", detail: values.join(", ") };
  });
}

/** The screen's rotation from the device's natural orientation, degrees (0, 90, 180, 270). */
export function screenAngle(win = globalThis) {
  const so = win.screen && win.screen.orientation;
  if (so && typeof so.angle === "number") return so.angle;
  if (typeof win.orientation === "number") return win.orientation;   // old iOS: -90, 0, 90, 180
  return 0;
}

/** Adds deviceorientation / devicemotion listeners; returns a function that removes them. */
export function listenSensors(win, onOrientation, onMotion) {
  win.addEventListener("deviceorientation", onOrientation);
  win.addEventListener("devicemotion", onMotion);
  return () => {
    win.removeEventListener("deviceorientation", onOrientation);
    win.removeEventListener("devicemotion", onMotion);
  };
}

/**
 * Screen Wake Lock: `want(true)` while connected. The browser drops the lock when the page
 * is hidden; call `visible()` on visibilitychange→visible to take it again.
 */
export class WakeLock {
  constructor(nav = globalThis.navigator, doc = globalThis.document) {
    this.nav = nav; this.doc = doc; this.wanted = false; this.sentinel = null; this.error = "";
    this.pending = false;
  }
  get supported() { return !!(this.nav && this.nav.wakeLock && this.nav.wakeLock.request); }
  get held() { return !!this.sentinel && !this.sentinel.released; }
  want(on) {
    this.wanted = on;
    if (on) this.acquire(); else this.release();
  }
  visible() { if (this.wanted) this.acquire(); }
  async acquire() {
    if (!this.supported || this.held || this.pending) return;
    if (this.doc && this.doc.visibilityState !== "visible") return;
    this.pending = true;
    try {
      const s = await this.nav.wakeLock.request("screen");
      if (!this.wanted) { s.release(); return; }
      this.sentinel = s;
      this.error = "";
    } catch (e) {
      this.error = (e && e.name) || String(e);
    } finally {
      this.pending = false;
    }
  }
  release() {
    const s = this.sentinel;
    this.sentinel = null;
    if (s && !s.released) s.release().catch(() => {});
  }
}
