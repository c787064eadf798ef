// controls.js — binds the modes (modes.js) to the page: the mode bar, the pointer mode's
// scroll strip, the presenter's laser and timer, the touchpad surface, its click buttons,
// key row and text field, and the host's button labels. Everything is sent as the JSON
// messages of modes.js through `send(text)` (the connection's text path).

import { MODES, MOTION_MODES, loadMode, saveMode, actionLabel, TouchGestures, padMessage, scrollMessage,
         clickMessage, keyMessage, laserMessage, textMessages, scrollFromFingers, formatTimer } from "./modes.js";
import { bindPress, buzz } from "./buttons.js";

/**
 * @param {object} o
 * @param {Document} o.doc
 * @param {Storage} o.storage
 * @param {string} o.host                  the key the mode is remembered under (location.host)
 * @param {(text:string)=>boolean} o.send  one JSON text message to the host
 * @param {{press:Function, release:Function, held:boolean}} o.clutch   hold-to-aim
 * @param {()=>void} o.paintClutch
 * @param {(mode:string)=>void} o.onMode   the page mode changed
 * @param {()=>void} o.beforeModeChange    release what is held before the layout changes
 */
export function setupModes(o) {
  const doc = o.doc, $ = (sel) => doc.querySelector(sel), all = (sel) => [...doc.querySelectorAll(sel)];
  const counts = { text: 0, pad: 0, scroll: 0, click: 0, key: 0, laser: 0 };
  const send = (kind, text) => { if (o.send(text)) { counts[kind]++; return true; } return false; };
  const naturalKey = "remotion.naturalScroll." + String(o.host).toLowerCase();
  const natural = () => $("#natural-scroll").checked;
  let mode = loadMode(o.storage, o.host);
  let labels = null;

  // ── the mode bar ──────────────────────────────────────────────────────────────────────
  function setMode(m, remember = true) {
    if (!MODES.includes(m)) return;
    if (m !== mode) o.beforeModeChange();
    mode = m;
    $("#pad").dataset.pageMode = m;
    doc.body.dataset.pageMode = m;
    for (const pane of all("[data-pane]")) pane.hidden = pane.dataset.pane !== m;
    for (const b of all("[data-page-mode]")) if (b.tagName === "BUTTON") b.setAttribute("aria-pressed", String(b.dataset.pageMode === m));
    if (remember) saveMode(o.storage, o.host, m);
    o.onMode(m);
  }
  for (const b of all("nav [data-page-mode]")) b.addEventListener("click", () => { buzz(); setMode(b.dataset.pageMode); });

  // ── natural / normal scrolling (per host) ─────────────────────────────────────────────
  try { const v = o.storage.getItem(naturalKey); if (v !== null) $("#natural-scroll").checked = v === "1"; } catch { /* blocked */ }
  $("#natural-scroll").addEventListener("change", () => {
    try { o.storage.setItem(naturalKey, natural() ? "1" : "0"); } catch { /* blocked */ }
  });
  const scroll = (dx, dy) => { const s = scrollFromFingers(dx, dy, natural()); send("scroll", scrollMessage(s.dx, s.dy)); };

  // ── hold-to-aim (one per pane that has it) ───────────────────────────────────────────
  for (const el of all("[data-clutch]")) {
    bindPress(el, (k) => { if (o.clutch.press(k)) o.paintClutch(); }, (k) => { if (o.clutch.release(k)) o.paintClutch(); });
  }

  // ── pointer: the scroll strip ─────────────────────────────────────────────────────────
  for (const strip of all("[data-scroll-strip]")) {
    let last = null;
    strip.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      try { strip.setPointerCapture(e.pointerId); } catch { /* gone */ }
      last = { id: e.pointerId, x: e.clientX, y: e.clientY };
      strip.classList.add("active");
      buzz(8);
    });
    strip.addEventListener("pointermove", (e) => {
      if (!last || e.pointerId !== last.id) return;
      const dx = e.clientX - last.x, dy = e.clientY - last.y;
      last.x = e.clientX; last.y = e.clientY;
      if (dx || dy) scroll(0, dy);
    });
    const end = (e) => { if (last && e.pointerId === last.id) { last = null; strip.classList.remove("active"); } };
    for (const t of ["pointerup", "pointercancel", "lostpointercapture"]) strip.addEventListener(t, end);
  }

  // ── presenter: the laser (motion is sent only while it is held: see wantsMotion) ────
  let laserOn = false;
  const laserKeys = new Set();
  const laserEl = $("#laser");
  function laser(on) {
    if (on === laserOn) return;
    laserOn = on;
    laserEl.classList.toggle("down", on);
    send("laser", laserMessage(on));
  }
  bindPress(laserEl, (k) => { laserKeys.add(k); laser(true); }, (k) => {
    if (laserKeys.delete(k) && laserKeys.size === 0) laser(false);
  });

  // ── presenter: the timer (on the phone only) ─────────────────────────────────────────
  const timer = { running: false, since: 0, total: 0 };
  const elapsed = () => timer.total + (timer.running ? performance.now() - timer.since : 0);
  function paintTimer() {
    $("#timer-text").textContent = formatTimer(elapsed());
    $("#timer-state").textContent = timer.running ? "pause" : timer.total ? "resume" : "start";
    $(".timer").toggleAttribute("data-running", timer.running);
  }
  $("#timer-toggle").addEventListener("click", () => {
    buzz();
    if (timer.running) { timer.total = elapsed(); timer.running = false; } else { timer.since = performance.now(); timer.running = true; }
    paintTimer();
  });
  $("#timer-reset").addEventListener("click", () => { buzz(); timer.total = 0; timer.since = performance.now(); paintTimer(); });
  setInterval(() => { if (timer.running) paintTimer(); }, 250);

  // ── touchpad: the surface ────────────────────────────────────────────────────────────
  const surface = $("#touch-surface");
  const gestures = new TouchGestures();
  let holdTimer = null;
  function perform(actions) {
    for (const a of actions) {
      if (a.pad) send("pad", padMessage(a.pad.dx, a.pad.dy, a.pad.ms));
      else if (a.scroll) scroll(a.scroll.dx, a.scroll.dy);
      else if (a.click) { buzz(); send("click", clickMessage(a.click)); }
      else if (a.press) { buzz(a.down ? 25 : 8); send("click", clickMessage(a.press, a.down)); }
    }
  }
  surface.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    try { surface.setPointerCapture(e.pointerId); } catch { /* gone */ }
    surface.classList.add("active");
    perform(gestures.down(e.pointerId, e.clientX, e.clientY, e.timeStamp));
    clearTimeout(holdTimer);
    holdTimer = setTimeout(() => perform(gestures.tick(performance.now())), gestures.holdMs + 10);
  });
  surface.addEventListener("pointermove", (e) => perform(gestures.move(e.pointerId, e.clientX, e.clientY, e.timeStamp)));
  const lift = (e) => {
    perform(gestures.up(e.pointerId, e.timeStamp));
    if (gestures.fingers.size === 0) { surface.classList.remove("active"); clearTimeout(holdTimer); }
  };
  surface.addEventListener("pointerup", lift);
  surface.addEventListener("pointercancel", lift);
  surface.addEventListener("contextmenu", (e) => e.preventDefault());

  // ── touchpad: click buttons (held: a drag with the surface), key row ────────────────
  const heldClicks = new Map();               // key -> button
  for (const el of all("[data-click]")) {
    const button = el.dataset.click;
    bindPress(el, (k) => {
      heldClicks.set(k, button);
      el.classList.add("down");
      send("click", clickMessage(button, true));
    }, (k) => {
      if (!heldClicks.delete(k)) return;
      el.classList.remove("down");
      send("click", clickMessage(button, false));
    });
  }
  for (const el of all("[data-key]")) bindPress(el, () => send("key", keyMessage(el.dataset.key)), () => {});

  // ── touchpad: the text field (the phone's own keyboard, IME and emoji) ──────────────
  const field = $("#type-field");
  let composing = false;
  function flush() {
    if (composing || !field.value) return;
    for (const m of textMessages(field.value)) send("text", m);
    field.value = "";
  }
  field.addEventListener("compositionstart", () => { composing = true; });
  field.addEventListener("compositionend", () => { composing = false; flush(); });
  field.addEventListener("input", (e) => { if (!e.isComposing) flush(); });
  field.addEventListener("beforeinput", (e) => {
    if (composing) return;
    if (e.inputType === "deleteContentBackward" && !field.value) { e.preventDefault(); send("key", keyMessage("BackSpace")); }
    if (e.inputType === "insertLineBreak" || e.inputType === "insertParagraph") { e.preventDefault(); flush(); send("key", keyMessage("Return")); }
  });
  const fieldKeys = { Enter: "Return", Tab: "Tab", Escape: "Escape", ArrowLeft: "Left", ArrowRight: "Right", ArrowUp: "Up", ArrowDown: "Down" };
  field.addEventListener("keydown", (e) => {
    if (e.isComposing || composing || e.keyCode === 229) return;
    if (e.key === "Backspace" && !field.value) { e.preventDefault(); send("key", keyMessage("BackSpace")); return; }
    const key = fieldKeys[e.key];
    if (key && (!field.value || key === "Return" || key === "Tab")) { e.preventDefault(); flush(); send("key", keyMessage(key)); }
  });

  // ── labels from the host's map ───────────────────────────────────────────────────────
  function setLabels(list) {
    labels = list;
    for (const el of all("[data-label]")) {
      const index = el.dataset.label.charCodeAt(0) - 65;
      if (!(index >= 0 && index < 16)) continue;
      el.textContent = actionLabel(list[index]);
      const button = el.closest("[data-button]");
      if (button && button.closest("[data-pane='gamepad']")) button.setAttribute("aria-label", `${el.dataset.label}: ${actionLabel(list[index])}`);
    }
  }

  /** Lifts everything this module holds (page hidden, connection lost, mode change). */
  function releaseAll() {
    perform(gestures.cancel());
    clearTimeout(holdTimer);
    surface.classList.remove("active");
    for (const [k, button] of [...heldClicks]) {
      heldClicks.delete(k);
      send("click", clickMessage(button, false));
    }
    for (const el of all("[data-click]")) el.classList.remove("down");
    laserKeys.clear();
    laser(false);
  }

  setMode(mode, false);
  paintTimer();
  return {
    get mode() { return mode; },
    get labels() { return labels; },
    get laserOn() { return laserOn; },
    get needsMotion() { return MOTION_MODES.has(mode); },
    /** Whether MOTION frames go out now: Pointer and Gamepad always, Presenter only while
     *  the laser is held (the real pointer stays put), Touchpad never. */
    get wantsMotion() { return mode === "presenter" ? laserOn : MOTION_MODES.has(mode); },
    counts,
    setMode,
    setLabels,
    releaseAll,
  };
}
