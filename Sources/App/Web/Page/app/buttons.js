// buttons.js — the sixteen controller buttons (A–P) and hold controls, with Pointer Events.
// `ButtonState` and `HoldSet` are pure (no DOM, testable under node); `bindButton` and
// `bindHold` attach them to elements: pointerdown captures the pointer (setPointerCapture)
// so every finger, pen or mouse keeps its own button until it lifts, and several buttons
// can be held at once (hold A while tapping C). Keyboard Space/Enter work too.

export const BUTTON_COUNT = 16;

/** A short vibration on press where the browser has one (Android); nothing elsewhere (iOS). */
export function buzz(ms = 12, nav = globalThis.navigator) {
  try { if (nav && typeof nav.vibrate === "function") nav.vibrate(ms); } catch { /* not allowed: ignore */ }
}

/** Which pointers hold which button; the 16-bit state (bit n = button n, A = 0). */
export class ButtonState {
  constructor() {
    this.bits = 0;
    this.owner = new Map();                      // pointer key -> button index
    this.counts = new Array(BUTTON_COUNT).fill(0);
  }

  /** A pointer goes down on `index`. Returns the edge {index, down: true, state} or null. */
  press(pointer, index) {
    if (!(index >= 0 && index < BUTTON_COUNT) || this.owner.has(pointer)) return null;
    this.owner.set(pointer, index);
    this.counts[index] += 1;
    if (this.counts[index] !== 1) return null;   // another finger already holds it
    this.bits |= 1 << index;
    return { index, down: true, state: this.bits };
  }

  /** That pointer lifts (or is cancelled). Returns the edge {index, down: false, state} or null. */
  release(pointer) {
    const index = this.owner.get(pointer);
    if (index === undefined) return null;
    this.owner.delete(pointer);
    this.counts[index] -= 1;
    if (this.counts[index] !== 0) return null;
    this.bits &= ~(1 << index);
    return { index, down: false, state: this.bits };
  }

  /** Lifts every pointer; returns the up edges in button order. */
  releaseAll() {
    const edges = [];
    this.owner.clear();
    for (let i = 0; i < BUTTON_COUNT; i++) {
      if (this.counts[i] > 0) {
        this.counts[i] = 0;
        this.bits &= ~(1 << i);
        edges.push({ index: i, down: false, state: this.bits });
      }
    }
    return edges;
  }

  isDown(index) { return (this.bits & (1 << index)) !== 0; }
}

/** A control held by any number of pointers (the clutch): held while one is down. */
export class HoldSet {
  constructor() { this.pointers = new Set(); }
  /** Returns true when this press makes the control held. */
  press(pointer) { const was = this.held; this.pointers.add(pointer); return !was; }
  /** Returns true when this release makes the control free. */
  release(pointer) { return this.pointers.delete(pointer) && this.pointers.size === 0; }
  releaseAll() { const was = this.held; this.pointers.clear(); return was; }
  get held() { return this.pointers.size > 0; }
}

/**
 * Makes `el` a hold control: `down(key)` on press, `up(key)` on release, where key is
 * "p<pointerId>" or "k<key>" for the keyboard. Returns a function that removes the listeners.
 */
export function bindPress(el, down, up) {
  const onDown = (e) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    e.preventDefault();
    try { el.setPointerCapture(e.pointerId); } catch { /* pointer already gone */ }
    buzz();
    down("p" + e.pointerId);
  };
  const onUp = (e) => { up("p" + e.pointerId); };
  const onKeyDown = (e) => {
    if ((e.key === " " || e.key === "Enter") && !e.repeat) { e.preventDefault(); down("k" + e.key); }
  };
  const onKeyUp = (e) => {
    if (e.key === " " || e.key === "Enter") { e.preventDefault(); up("k" + e.key); }
  };
  const noMenu = (e) => e.preventDefault();      // long press must not open a menu (and cancel)
  const pairs = [["pointerdown", onDown], ["pointerup", onUp], ["pointercancel", onUp],
                 ["lostpointercapture", onUp], ["keydown", onKeyDown], ["keyup", onKeyUp],
                 ["contextmenu", noMenu]];
  for (const [t, f] of pairs) el.addEventListener(t, f);
  // A blur while a key holds the control would leave it down.
  const onBlur = () => { up("k "); up("kEnter"); };
  el.addEventListener("blur", onBlur);
  return () => {
    for (const [t, f] of pairs) el.removeEventListener(t, f);
    el.removeEventListener("blur", onBlur);
  };
}

/** Binds every `[data-button]` element under `root` to `state`; `onEdge(edge)` per edge. */
export function bindButtons(root, state, onEdge) {
  const elements = new Map();                    // index -> every element of that button (modes share some)
  for (const el of root.querySelectorAll("[data-button]")) {
    const index = el.dataset.button.charCodeAt(0) - 65;
    if (!(index >= 0 && index < BUTTON_COUNT)) continue;
    if (!elements.has(index)) elements.set(index, []);
    elements.get(index).push(el);
    bindPress(el, (key) => edge(state.press(key, index)), (key) => edge(state.release(key)));
  }
  function edge(e) {
    if (!e) return;
    paint(e.index);
    onEdge(e);
  }
  function paint(index) {
    for (const el of elements.get(index) || []) el.classList.toggle("down", state.isDown(index));
  }
  return {
    /** Releases everything; reports each up edge. */
    releaseAll() { for (const e of state.releaseAll()) edge(e); },
    repaint() { for (const i of elements.keys()) paint(i); },
  };
}
