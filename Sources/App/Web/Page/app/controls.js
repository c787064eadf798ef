// controls.js — puts the page's modes (page-modes.js, one file each) on the page: the mode
// bar's buttons and the panes from the table, the bindings every pane shares (hold-to-aim,
// the host's button labels, natural scrolling) and each mode's own. Everything goes to the
// host as the JSON messages of modes.js through `send(text)` (the connection's text path);
// what the modes hold (mode, labels, laser) is written to the page's state (page-state.js).

import { PAGE_MODES, MODES, MOTION_MODES, loadMode, saveMode } from "./page-modes.js";
import { actionLabel, scrollMessage, scrollFromFingers, loadPrefs, savePrefs } from "./modes.js";
import { bindPress, buzz } from "./buttons.js";

/** The mode bar's buttons (before Start motion) and every mode's pane, from the table. */
export function renderModes(doc) {
  const nav = doc.getElementById("modes"), start = doc.getElementById("start"), pad = doc.getElementById("pad");
  for (const m of PAGE_MODES) {
    const b = doc.createElement("button");
    b.type = "button";
    b.dataset.pageMode = m.id;
    b.setAttribute("aria-pressed", "false");
    b.textContent = m.title;
    nav.insertBefore(b, start);
  }
  pad.insertAdjacentHTML("beforeend", PAGE_MODES.map((m) => m.pane).join("\n"));
}

/**
 * @param {object} o
 * @param {Document} o.doc
 * @param {Storage} o.storage
 * @param {import("./page-state.js").PageState} o.state   the page's state (pageMode, labels, laserOn)
 * @param {string} o.host                  the key the mode is remembered under (location.host)
 * @param {(text:string)=>boolean} o.send  one JSON text message to the host
 * @param {{press:Function, release:Function, held:boolean}} o.clutch   hold-to-aim
 * @param {()=>void} o.paintClutch
 * @param {()=>void} o.beforeModeChange    release what is held before the layout changes
 * @param {(analog:object|null)=>void} o.setAnalog   the Gamepad mode's sticks and triggers (streamer.js)
 * @param {(touch:object[]|null)=>void} o.setTouch    the fingers on the Gamepad mode's touchpad (streamer.js)
 * @param {(key:string, index:number)=>void} o.press   a button held by something other than a [data-button]
 * @param {(key:string)=>void} o.release
 */
export function setupModes(o) {
  const doc = o.doc, $ = (sel) => doc.querySelector(sel), all = (sel) => [...doc.querySelectorAll(sel)];
  const counts = { text: 0, pad: 0, scroll: 0, click: 0, key: 0, laser: 0 };
  const send = (kind, text) => { if (o.send(text)) { counts[kind]++; return true; } return false; };
  const naturalKey = "remotion.naturalScroll." + String(o.host).toLowerCase();
  const natural = () => $("#natural-scroll").checked;

  // ── natural / normal scrolling (per host) ─────────────────────────────────────────────
  try { const v = o.storage.getItem(naturalKey); if (v !== null) $("#natural-scroll").checked = v === "1"; } catch { /* blocked */ }
  $("#natural-scroll").addEventListener("change", () => {
    try { o.storage.setItem(naturalKey, natural() ? "1" : "0"); } catch { /* blocked */ }
  });
  const scroll = (dx, dy) => { const s = scrollFromFingers(dx, dy, natural()); send("scroll", scrollMessage(s.dx, s.dy)); };

  // ── preferences per host (the menu): gamepad labels, how the gyro button works ───────
  let prefs = loadPrefs(o.storage, o.host);
  const prefListeners = [];
  for (const [id, key] of [["#face-labels", "faceLabels"], ["#gyro-button", "gyroButton"], ["#gyro-stick", "gyroStick"]]) {
    const el = $(id);
    if (!el) continue;
    el.value = prefs[key];
    el.addEventListener("change", () => {
      prefs = { ...prefs, [key]: el.value };
      savePrefs(o.storage, o.host, prefs);
      if (key === "gyroButton") { if (o.clutch.releaseAll()) o.paintClutch(); armRatchet(); }
      for (const f of prefListeners) f(prefs);
    });
  }

  // ── hold-to-aim, the gyro button (one per pane that has it): hold (aims while held),
  //    toggle (a tap starts or stops aiming), ratchet (aims until held: hold to pause) ────
  function armRatchet() { if (prefs.gyroButton === "ratchet" && o.clutch.press("ratchet")) o.paintClutch(); }
  for (const el of all("[data-clutch]")) {
    bindPress(el, (k) => {
      const changed = prefs.gyroButton === "toggle" ? (o.clutch.held ? o.clutch.releaseAll() : o.clutch.press("toggle"))
        : prefs.gyroButton === "ratchet" ? o.clutch.release("ratchet") : o.clutch.press(k);
      if (changed) o.paintClutch();
    }, (k) => {
      const changed = prefs.gyroButton === "ratchet" ? o.clutch.press("ratchet")
        : prefs.gyroButton === "hold" ? o.clutch.release(k) : false;
      if (changed) o.paintClutch();
    });
  }
  armRatchet();

  // ── each mode's own bindings, on its own pane ─────────────────────────────────────────
  const bound = new Map();
  for (const m of PAGE_MODES) {
    const pane = $(`[data-pane="${m.id}"]`);
    bound.set(m.id, m.bind({ doc, pane, state: o.state, send, scroll, setAnalog: o.setAnalog, setTouch: o.setTouch, press: o.press, release: o.release,
                             get prefs() { return prefs; }, onPrefs: (f) => prefListeners.push(f),
                             $: (sel) => pane.querySelector(sel), all: (sel) => [...pane.querySelectorAll(sel)] }) || {});
  }

  // ── the mode bar ──────────────────────────────────────────────────────────────────────
  function setMode(m, remember = true) {
    if (!MODES.includes(m)) return;
    if (m !== o.state.pageMode) o.beforeModeChange();
    $("#pad").dataset.pageMode = m;
    doc.body.dataset.pageMode = m;
    for (const pane of all("[data-pane]")) pane.hidden = pane.dataset.pane !== m;
    for (const b of all("[data-page-mode]")) if (b.tagName === "BUTTON") b.setAttribute("aria-pressed", String(b.dataset.pageMode === m));
    if (remember) saveMode(o.storage, o.host, m);
    o.state.update({ pageMode: m });
  }
  for (const b of all("nav [data-page-mode]")) b.addEventListener("click", () => { buzz(); setMode(b.dataset.pageMode); });

  // ── labels from the host's map ───────────────────────────────────────────────────────
  function setLabels(list) {
    for (const el of all("[data-label]")) {
      const index = el.dataset.label.charCodeAt(0) - 65;
      if (!(index >= 0 && index < 16)) continue;
      el.textContent = actionLabel(list[index]);
      const button = el.closest("[data-button]");
      if (button && button.closest("[data-pane='gamepad']")) button.setAttribute("aria-label", `${el.dataset.label}: ${actionLabel(list[index])}`);
    }
    o.state.update({ labels: list });
  }

  /** Lifts everything the modes hold (page hidden, connection lost, mode change). */
  function releaseAll() {
    for (const b of bound.values()) if (b.releaseAll) b.releaseAll();
  }

  o.state.pageMode = loadMode(o.storage, o.host);   // the remembered mode: laid out, nothing to release
  setMode(o.state.pageMode, false);
  const current = () => bound.get(o.state.pageMode) || {};
  return {
    get needsMotion() { return MOTION_MODES.has(o.state.pageMode); },
    /** Whether MOTION frames go out now: a motion mode's own rule (Presenter: only while the
     *  laser is held, so the real pointer stays put), else whether it aims with motion. */
    get wantsMotion() { const w = current().wantsMotion; return w ? w() : MOTION_MODES.has(o.state.pageMode); },
    counts,
    /** The page's preferences now (face labels, the gyro button, the gyro stick). */
    get prefs() { return prefs; },
    /** `f(prefs)` after each change in the menu. */
    onPrefs: (f) => prefListeners.push(f),
    setMode,
    setLabels,
    releaseAll,
    /** After everything was released (hidden, disconnected): a ratchet gyro button aims again. */
    rearm: armRatchet,
  };
}
