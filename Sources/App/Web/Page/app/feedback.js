// feedback.js — rumble and light from the host (docs/GAMEPAD.md "Rumble and lightbar"): a
// game wrote them to this controller's virtual pad, the host sends
// {"type":"feedback","rumble":[heavy,light],"lightbar":"#rrggbb"|null}. A phone has one
// motor that is on or off, so the strength becomes a duty cycle (on for its share of each
// 50 ms) over one second; the host repeats a running rumble every 0.5 s, so it goes on
// while the game wants it and stops within a second of the last message (the socket
// closed, the host gone) — and at once on "rumble":[0,0], a disconnect or a hidden page.
// Where navigator.vibrate does not exist (iOS) the light still shows. Pure apart from the
// `vibrate` and `show` it is given.

export const PERIOD_MS = 50;
export const HOLD_MS = 1000;

/** The message, or null if the text is not a well-formed feedback message. */
export function parseFeedbackMessage(text) {
  let m;
  try { m = JSON.parse(text); } catch { return null; }
  if (!m || m.type !== "feedback" || !Array.isArray(m.rumble) || m.rumble.length !== 2) return null;
  const [heavy, light] = m.rumble;
  const byte = (v) => Number.isInteger(v) && v >= 0 && v <= 255;
  if (!byte(heavy) || !byte(light)) return null;
  const colour = typeof m.lightbar === "string" && /^#[0-9a-f]{6}$/.test(m.lightbar) ? m.lightbar : null;
  return { heavy, light, lightbar: colour };
}

/** navigator.vibrate's pattern for a rumble (0 = stop): on/off pairs over HOLD_MS. */
export function vibrationPattern(heavy, light) {
  const strength = Math.max(heavy, light) / 255;
  if (strength === 0) return 0;
  const on = Math.max(5, Math.round(PERIOD_MS * strength));
  if (on >= PERIOD_MS) return [HOLD_MS];
  const pattern = [];
  for (let t = 0; t < HOLD_MS; t += PERIOD_MS) pattern.push(on, PERIOD_MS - on);
  return pattern;
}

export class Feedback {
  /**
   * @param {object} o
   * @param {(pattern:number|number[])=>void} o.vibrate   navigator.vibrate, or nothing
   * @param {(colour:string|null)=>void} o.show            paints the light (null: none)
   */
  constructor(o) {
    this.vibrate = o.vibrate || (() => {});
    this.show = o.show || (() => {});
    this.rumbling = false;
    this.lightbar = null;
  }

  /** A feedback message from the host. */
  apply(m) {
    const pattern = vibrationPattern(m.heavy, m.light);
    if (pattern !== 0 || this.rumbling) this.safeVibrate(pattern);
    this.rumbling = pattern !== 0;
    if (m.lightbar !== this.lightbar) { this.lightbar = m.lightbar; this.show(m.lightbar); }
  }

  /** The session ended or the page was hidden: no vibration, no light. */
  stop() {
    if (this.rumbling) this.safeVibrate(0);
    this.rumbling = false;
    if (this.lightbar !== null) { this.lightbar = null; this.show(null); }
  }

  safeVibrate(pattern) {
    try { this.vibrate(pattern); } catch { /* a browser that refuses (no user gesture yet) */ }
  }
}
