// modes.js — the pure pieces the page's modes share: labels for the host's button map, the
// touchpad's gesture recogniser, the presenter's timer text, and the touchpad/typing/laser
// messages. No DOM (testable under node); the modes themselves are mode-*.js, listed in
// page-modes.js.

const KEY_GLYPHS = { Left: "←", Right: "→", Up: "↑", Down: "↓", Return: "Enter", BackSpace: "⌫", Tab: "Tab",
                     Escape: "Esc", space: "Space", Page_Up: "Page ↑", Page_Down: "Page ↓", Delete: "Del",
                     Control_L: "Ctrl", Shift_L: "Shift", Alt_L: "Alt", Super_L: "Super",
                     ctrl: "Ctrl", shift: "Shift", alt: "Alt", super: "Super" };
const ACTION_TITLES = { recenter: "Recenter", "toggle-mode": "Switch mode", "hold-to-enable-motion": "Hold to aim",
                        pause: "Pause", calibrate: "Calibrate" };

/**
 * A button action as the host's map spells it ("left", "key:ctrl+shift+i", "wheel:up",
 * "action:recenter", "none") → a short label for a key cap ("Left click", "Ctrl+Shift+I").
 */
export function actionLabel(action) {
  const a = String(action || "none");
  if (a === "none") return "—";
  if (["left", "right", "middle"].includes(a)) return a[0].toUpperCase() + a.slice(1) + " click";
  if (a === "back" || a === "forward") return a[0].toUpperCase() + a.slice(1);
  if (a.startsWith("key:")) {
    return a.slice(4).split("+").map((k) => KEY_GLYPHS[k] || (k.length === 1 ? k.toUpperCase() : k)).join("+");
  }
  if (a.startsWith("wheel:")) return "Scroll " + ({ up: "↑", down: "↓", left: "←", right: "→" }[a.slice(6)] || a.slice(6));
  if (a.startsWith("action:")) return ACTION_TITLES[a.slice(7)] || a.slice(7);
  return a;
}

/** The host's `{"type":"buttons","buttons":[16 actions]}` → 16 labels, or null. */
export function parseButtonsMessage(text) {
  let m;
  try { m = JSON.parse(text); } catch { return null; }
  if (!m || m.type !== "buttons" || !Array.isArray(m.buttons) || m.buttons.length !== 16) return null;
  return m.buttons.map((b) => (typeof b === "string" ? b.slice(0, 64) : "none"));
}

/** The host's `{"type":"untyped","text","message"}` → {text, message}, or null. */
/** The host's `{"type":"laser","dot":false,"message":…}` (no dot can be drawn here) → its line, or null. */
export function parseLaserMessage(text) {
  let m;
  try { m = JSON.parse(text); } catch { return null; }
  if (!m || m.type !== "laser" || m.dot !== false || typeof m.message !== "string") return null;
  return m.message.slice(0, 200);
}

export function parseUntypedMessage(text) {
  let m;
  try { m = JSON.parse(text); } catch { return null; }
  if (!m || m.type !== "untyped" || typeof m.text !== "string") return null;
  return { text: m.text.slice(0, 256), message: typeof m.message === "string" ? m.message.slice(0, 200) : "" };
}

// ── messages to the host (JSON text frames; docs/WEB-CONTROLLER.md, "What each control does by default") ───────────
const round = (v) => Math.round(v * 100) / 100;
export const padMessage = (dx, dy, ms) => JSON.stringify({ type: "pad", dx: round(dx), dy: round(dy), ms: round(ms) });
export const scrollMessage = (dx, dy) => JSON.stringify({ type: "scroll", dx: round(dx), dy: round(dy) });
export const clickMessage = (button, down) =>
  JSON.stringify(down === undefined ? { type: "click", button } : { type: "click", button, down });
export const keyMessage = (key) => JSON.stringify({ type: "key", key });
export const laserMessage = (on) => JSON.stringify({ type: "laser", on: !!on });
/** Text split into messages of at most 200 characters (whole code points). */
export function textMessages(text) {
  const chars = Array.from(String(text)), out = [];
  for (let i = 0; i < chars.length; i += 200) out.push(JSON.stringify({ type: "text", text: chars.slice(i, i + 200).join("") }));
  return out;
}

/**
 * Finger movement (CSS px, y down) → the scroll message's direction (positive dy: wheel up,
 * positive dx: wheel right). Natural: the content follows the fingers, as on a phone.
 */
export function scrollFromFingers(dx, dy, natural) {
  return natural ? { dx: -dx, dy: dy } : { dx: dx, dy: -dy };
}

/** mm:ss (h:mm:ss from an hour) of a duration in ms. */
export function formatTimer(ms) {
  const s = Math.max(0, Math.floor(ms / 1000)), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  const two = (n) => String(n).padStart(2, "0");
  return (h ? h + ":" + two(m) : two(m)) + ":" + two(s % 60);
}

/**
 * The touchpad's gestures from pointer events (time in ms, positions in CSS px):
 * one finger moves the pointer; a short still tap clicks left; two fingers tapped together
 * click right; two fingers moving scroll; a finger held still for `holdMs` presses left
 * until it lifts (drag). Returns the actions to send: {pad:{dx,dy,ms}}, {scroll:{dx,dy}}
 * (finger movement, y down), {click:"left"|"right"}, {press:"left", down:bool}.
 */
export class TouchGestures {
  constructor({ tapMs = 250, tapSlop = 10, holdMs = 450 } = {}) {
    this.tapMs = tapMs; this.tapSlop = tapSlop; this.holdMs = holdMs;
    this.fingers = new Map();       // id -> {x, y, t}
    this.reset();
  }
  reset() {
    this.fingers.clear();
    this.maxFingers = 0; this.start = 0; this.moved = 0; this.dragging = false; this.scrolled = false;
  }
  down(id, x, y, t) {
    if (this.fingers.size === 0) { this.maxFingers = 0; this.start = t; this.moved = 0; this.scrolled = false; }
    this.fingers.set(id, { x, y, t });
    this.maxFingers = Math.max(this.maxFingers, this.fingers.size);
    return [];
  }
  move(id, x, y, t) {
    const f = this.fingers.get(id);
    if (!f) return [];
    const dx = x - f.x, dy = y - f.y, ms = Math.max(1, t - f.t);
    f.x = x; f.y = y; f.t = t;
    this.moved += Math.hypot(dx, dy);
    if (this.fingers.size === 1 && this.maxFingers === 1) return dx || dy ? [{ pad: { dx, dy, ms } }] : [];
    if (this.fingers.size === 2) {
      this.scrolled = true;
      return dx || dy ? [{ scroll: { dx: dx / 2, dy: dy / 2 } }] : [];   // each finger adds half
    }
    return [];
  }
  /** Called on a timer while one finger rests: starts a drag once it held still long enough. */
  tick(t) {
    if (!this.dragging && this.fingers.size === 1 && this.maxFingers === 1 &&
        this.moved < this.tapSlop && t - this.start >= this.holdMs) {
      this.dragging = true;
      return [{ press: "left", down: true }];
    }
    return [];
  }
  up(id, t) {
    if (!this.fingers.delete(id) || this.fingers.size > 0) return [];
    const quick = t - this.start <= this.tapMs && this.moved < this.tapSlop && !this.scrolled;
    if (this.dragging) { this.dragging = false; return [{ press: "left", down: false }]; }
    if (quick && this.maxFingers === 1) return [{ click: "left" }];
    if (quick && this.maxFingers === 2) return [{ click: "right" }];
    return [];
  }
  /** Everything lifts (cancel, page hidden): ends a drag. */
  cancel() {
    const out = this.dragging ? [{ press: "left", down: false }] : [];
    this.reset();
    return out;
  }
}

// ── the Gamepad mode's sticks and triggers (mode-gamepad.js) ────────────────────────────
export const ANALOG_REST = Object.freeze({ lx: 0, ly: 0, rx: 0, ry: 0, l2: 0, r2: 0 });
export const analogAtRest = (a) => !a || (a.lx === 0 && a.ly === 0 && a.rx === 0 && a.ry === 0 && a.l2 === 0 && a.r2 === 0);
/** How long after the sticks and triggers came to rest the frames still carry them, as zeros. */
export const ANALOG_REST_MS = 300;
/** The analog block the Gamepad mode's frames carry: the state while anything is off rest; zeros
 *  for ANALOG_REST_MS after it came to rest (the host keeps a stick where the last block put it,
 *  so only a block at rest lets it go, and the 100 ms refresh repeats it so one lost frame cannot
 *  leave it pushed); then none (nothing to say). */
export function analogBlock(a, msSinceRest) {
  if (!analogAtRest(a)) return { ...a };
  return msSinceRest < ANALOG_REST_MS ? { ...ANALOG_REST } : null;
}

/** A thumb's drag from where it landed (CSS px, y down) → the stick (x right, y down, −1…1),
 *  full at `reach` px and kept inside the unit circle along its direction. */
export function stickFromDrag(dx, dy, reach) {
  const m = Math.hypot(dx, dy);
  if (!(m > 0) || !(reach > 0)) return { x: 0, y: 0 };
  const k = Math.min(m, reach) / reach / m;
  return { x: dx * k, y: dy * k };
}

/** How far down a trigger the finger is (px from its top, its height) → 0.1 at the top … 1
 *  at the bottom: a touch is always a little pull. */
export function triggerFromDepth(y, height) {
  if (!(height > 0)) return 0;
  return 0.1 + 0.9 * Math.max(0, Math.min(1, y / height));
}

/** The page's preferences per host: face labels and how the gyro button works. */
export const FACE_STYLES = ["playstation", "xbox"], GYRO_BUTTON_MODES = ["hold", "toggle", "ratchet"];
/** Gyro as a pad stick: "host" leaves the host's profile's choice, the rest ask for one. */
export const GYRO_STICK_CHOICES = ["host", "off", "right", "left"];
export function prefsKey(host) { return "remotion.prefs." + String(host || "").toLowerCase(); }
export function loadPrefs(storage, host) {
  let p = {};
  try { p = JSON.parse(storage.getItem(prefsKey(host)) || "{}") || {}; } catch { p = {}; }
  return { faceLabels: FACE_STYLES.includes(p.faceLabels) ? p.faceLabels : "playstation",
           gyroButton: GYRO_BUTTON_MODES.includes(p.gyroButton) ? p.gyroButton : "hold",
           gyroStick: GYRO_STICK_CHOICES.includes(p.gyroStick) ? p.gyroStick : "host" };
}
export function savePrefs(storage, host, prefs) {
  try { storage.setItem(prefsKey(host), JSON.stringify(prefs)); return true; } catch { return false; }
}
