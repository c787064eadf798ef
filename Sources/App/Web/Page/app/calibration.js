// calibration.js — the menu's Calibrate (docs/WEB-CONTROLLER.md, "Calibrate"): the page asks
// the host to calibrate this phone's gyro ({"type":"command","command":"calibrate"}), the host
// answers and then reports {"type":"calibration","state":"running","progress":0…1}, and at
// the end "done", "failed" (reason "moved") or "unavailable" (reason "off" or "no-gyro").
// `calibrationView` (pure) says what the panel shows for a message; `CalibrationPanel` puts
// it on the page (elements and timers given to it, so the self-checks run it under node).

/** The host's calibration message, or null if the text is not a well-formed one. */
export function parseCalibrationMessage(text) {
  let m;
  try { m = JSON.parse(text); } catch { return null; }
  if (!m || m.type !== "calibration" || typeof m.state !== "string") return null;
  switch (m.state) {
    case "running": {
      const p = Number(m.progress);
      return Number.isFinite(p) ? { state: "running", progress: Math.min(Math.max(p, 0), 1) } : null;
    }
    case "done": return { state: "done", progress: 1 };
    case "failed": return { state: "failed", reason: typeof m.reason === "string" ? m.reason.slice(0, 32) : "" };
    case "unavailable": return { state: "unavailable", reason: typeof m.reason === "string" ? m.reason.slice(0, 32) : "" };
    default: return null;
  }
}

/** What the panel shows: {title, detail, progress (0…1, or null: no bar), final, bad}. */
export function calibrationView(m) {
  switch (m.state) {
    case "asking":
      return { title: "Hold the phone still", detail: "Asking the computer…", progress: 0, final: false, bad: false };
    case "running":
      return { title: "Hold the phone still", detail: `Calibrating the gyro: ${Math.floor(m.progress * 100)}%`,
               progress: m.progress, final: false, bad: false };
    case "stalled":
      return { title: "Waiting for motion", detail: "The calibration needs this phone's motion: tap Start motion, " +
               "use Pointer or Gamepad mode (hold the gyro button if you aim with it).", progress: m.progress, final: false, bad: true };
    case "done":
      return { title: "Done", detail: "The gyro is calibrated.", progress: 1, final: true, bad: false };
    case "failed":
      return { title: m.reason === "moved" ? "Failed: moved" : "Failed",
               detail: m.reason === "moved" ? "The phone moved. Lay it down or hold it still, then try again."
                                            : "The calibration did not finish. Try again.",
               progress: null, final: true, bad: true };
    case "unavailable":
      return { title: "Not available",
               detail: m.reason === "off" ? "Gyro calibration is off on the computer (calibration.mode)."
                 : m.reason === "no-gyro" ? "No gyro data from this phone reaches the computer: tap Start motion first (some phones have no gyroscope)."
                 : "The computer cannot calibrate this phone.",
               progress: null, final: true, bad: true };
    default:
      return { title: "", detail: "", progress: null, final: true, bad: true };
  }
}

/**
 * The panel: shown when asked, updated by each message, closed by its button, Escape, or
 * by itself `DONE_MS` after "Done". While running with no report for `STALL_MS` it says that
 * motion is missing. els: {panel, title, detail, bar, close}; timers: {setTimeout, clearTimeout}.
 */
export class CalibrationPanel {
  static DONE_MS = 2500;
  static STALL_MS = 2000;
  static HISTORY = 64;

  constructor(els, timers, onChange = () => {}) {
    this.els = els; this.timers = timers; this.onChange = onChange;
    this.state = null;           // null (closed), or the last message shown (with state "asking", "stalled" too)
    this.timer = null;
    this.history = [];           // the last HISTORY states shown (for the browser tests), oldest first
    els.close.addEventListener("click", () => this.hide());
    els.panel.addEventListener("keydown", (e) => { if (e.key === "Escape") this.hide(); });
  }

  /** Whether a calibration is being shown as in progress (the page keeps motion flowing). */
  get running() { return !!this.state && !calibrationView(this.state).final; }

  /** The page sent the request (a second tap while one runs keeps what it shows: the host goes on with it). */
  asked() {
    if (!this.running) this.show({ state: "asking", progress: 0 });
    this.els.close.focus();
  }

  /** A calibration message from the host (shown even when not asked: the dashboard started one). */
  apply(m) { this.show(m); }

  show(m) {
    this.state = m;
    this.history.push(m);
    if (this.history.length > CalibrationPanel.HISTORY) this.history.shift();
    const v = calibrationView(m), els = this.els;
    els.panel.hidden = false;
    els.panel.classList.toggle("bad", v.bad);
    els.title.textContent = v.title;
    els.detail.textContent = v.detail;
    els.bar.hidden = v.progress === null;
    if (v.progress !== null) els.bar.value = v.progress;
    this.arm(v.final ? (m.state === "done" ? CalibrationPanel.DONE_MS : null)
                     : (m.state === "stalled" ? null : CalibrationPanel.STALL_MS),
             v.final ? () => this.hide() : () => this.show({ state: "stalled", progress: m.progress || 0 }));
    this.onChange();
  }

  hide() {
    this.arm(null);
    if (this.state === null) return;
    this.state = null;
    this.els.panel.hidden = true;
    this.onChange();
  }

  arm(ms, f) {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = ms === null ? null : this.timers.setTimeout(() => { this.timer = null; f(); }, ms);
  }
}
