// streamer.js — sensor events → MOTION frames. One frame per devicemotion event (carrying
// the latest attitude); when only deviceorientation fires, one per deviceorientation event.
// Each frame carries its event's timeStamp, the full button state and the clutch bit.
// Touches `window` only through the `win` it is given, inside its methods.

import { encodeMotion } from "./protocol.js";
import { attitudeFromDeviceOrientation, gyroFromRotationRate, accelFromIncludingGravity } from "./orientation.js";
import { requestMotionPermission, screenAngle, listenSensors } from "./sensors.js";

export const MOTION_FRESH_MS = 250;     // devicemotion with data this recent → orientation events do not send
export const NO_DATA_AFTER_MS = 2500;   // no sensor data this long after Start → "nodata"

export class MotionStreamer {
  /**
   * @param {object} o
   * @param {Window} o.win
   * @param {(frame: ArrayBuffer) => boolean} o.send    droppable send; true if it went out
   * @param {{bits: number}} o.buttons                   ButtonState
   * @param {{held: boolean}} o.clutch                   HoldSet
   * @param {(status: string, detail: string) => void} o.onStatus
   */
  constructor(o) {
    this.win = o.win; this.send = o.send; this.buttons = o.buttons; this.clutch = o.clutch; this.onStatus = o.onStatus;
    this.status = "off";          // off | asking | waiting | on | denied | unsupported | insecure | error | nodata
    this.sent = 0;
    this.seq = 0;
    this.lastOrientation = null;  // latest deviceorientation angles, degrees
    this.lastAttitude = null;     // {roll, pitch, yaw} of the last frame, radians, screen frame
    this.lastRates = null;        // {gyro, accel} of the last devicemotion event with data
    this.analog = null;           // the Gamepad mode's sticks and triggers (protocol.js), or null
    this.touch = null;            // the fingers on the Gamepad mode's touchpad (protocol.js), or null
    this.lastMotionDataAt = -Infinity;
    this.stopListening = null;
    this.noDataTimer = null;
    this.rate = 0;
    this.windowCount = 0;
    this.windowStart = this.win.performance.now();
    this.onOrientation = this.onOrientation.bind(this);
    this.onMotion = this.onMotion.bind(this);
  }

  /** The Start tap. MUST be called synchronously from the tap handler (iOS permission). */
  start() {
    const asked = requestMotionPermission(this.win);    // both requests start inside the gesture
    this.setStatus("asking", "");
    return asked.then(({ result, detail }) => {
      if (result !== "granted") {
        this.setStatus(result === "unsupported" && this.win.isSecureContext === false ? "insecure" : result, detail);
        return;
      }
      if (!this.stopListening) this.stopListening = listenSensors(this.win, this.onOrientation, this.onMotion);
      if (this.status === "on") return;
      this.setStatus("waiting", "");
      this.win.clearTimeout(this.noDataTimer);
      this.noDataTimer = this.win.setTimeout(() => {
        if (this.status !== "on") this.setStatus("nodata", "");
      }, NO_DATA_AFTER_MS);
    });
  }

  onOrientation(e) {
    if (typeof e.beta !== "number" || typeof e.gamma !== "number") return;   // an empty event
    this.lastOrientation = { alpha: e.alpha, beta: e.beta, gamma: e.gamma };
    this.gotData();
    if (this.win.performance.now() - this.lastMotionDataAt > MOTION_FRESH_MS) {
      this.sendFrame(e.timeStamp, screenAngle(this.win), null, null);
    }
  }

  onMotion(e) {
    const angle = screenAngle(this.win);
    const gyro = gyroFromRotationRate(e.rotationRate, angle);
    const accel = accelFromIncludingGravity(e.accelerationIncludingGravity, angle);
    if (!gyro && !accel) return;                   // an empty event (no sensor behind it)
    this.lastMotionDataAt = this.win.performance.now();
    this.lastRates = { gyro, accel };
    this.gotData();
    this.sendFrame(e.timeStamp, angle, gyro, accel);
  }

  /**
   * The sticks and triggers changed (Gamepad mode; null: none). Sends a frame now, with the
   * latest sensor values and the current time, so a stick moves at once even between sensor
   * events or with the sensors off. A repeated rate over a shorter interval integrates to the
   * same turn on the host (rate × dt), so the extra frame adds no motion of its own.
   */
  setAnalog(analog) {
    this.analog = analog;
    this.sendNow();
  }

  /** The fingers on the touchpad changed (Gamepad mode; null: none): sent at once, like the sticks. */
  setTouch(touch) {
    this.touch = touch && touch.length ? touch : null;
    this.sendNow();
  }

  sendNow() {
    const now = this.win.performance.now(), fresh = now - this.lastMotionDataAt <= MOTION_FRESH_MS;
    this.sendFrame(now, screenAngle(this.win), fresh && this.lastRates ? this.lastRates.gyro : null,
                   fresh && this.lastRates ? this.lastRates.accel : null);
  }

  // The attitude is recomputed for every frame from the latest angles and the current screen
  // angle, so turning the page (portrait ↔ landscape) takes effect even while the phone is still.
  sendFrame(timeMs, angle, gyro, accel) {
    const o = this.lastOrientation;
    if (o) this.lastAttitude = attitudeFromDeviceOrientation(o.alpha, o.beta, o.gamma, angle) || this.lastAttitude;
    const frame = encodeMotion({ seq: this.seq, timeMs, buttons: this.buttons.bits, clutch: this.clutch.held,
                                 attitude: this.lastAttitude, gyro, accel, analog: this.analog, touch: this.touch });
    if (this.send(frame)) { this.sent++; this.windowCount++; this.seq = (this.seq + 1) >>> 0; }
  }

  gotData() {
    if (this.status === "on") return;
    this.win.clearTimeout(this.noDataTimer);
    this.setStatus("on", "");
  }

  /** Frames per second sent, over windows of ≥ 1 s; call it periodically. */
  updateRate(now) {
    if (now - this.windowStart >= 1000) {
      this.rate = Math.round(this.windowCount * 1000 / (now - this.windowStart));
      this.windowCount = 0;
      this.windowStart = now;
    }
    return this.rate;
  }

  setStatus(status, detail) {
    this.status = status;
    this.onStatus(status, detail || "");
  }
}
