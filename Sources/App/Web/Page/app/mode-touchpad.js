// mode-touchpad.js — Touchpad and keyboard: the surface's gestures (modes.js TouchGestures),
// left and right buttons (held: a drag with the surface), a key row and a text field that
// types with the phone's own keyboard, IME and emoji. No motion.

import { bindPress, buzz } from "./buttons.js";
import { TouchGestures, padMessage, clickMessage, keyMessage, textMessages } from "./modes.js";

export default Object.freeze({
  id: "touchpad",
  title: "Touchpad",
  motion: false,
  pane: `
<section class="pane pane-touchpad" data-pane="touchpad" aria-label="Touchpad" hidden>
  <div id="touch-surface" class="surface area-surface" aria-label="Touchpad: slide to move, tap to click, two fingers to scroll or right click, hold to drag">
    <span class="surface-hint">slide · tap · 2 fingers scroll / right click · hold to drag</span></div>
  <button type="button" class="tool area-tl" data-click="left" aria-label="Left click">Left</button>
  <button type="button" class="tool area-tr" data-click="right" aria-label="Right click">Right</button>
  <input id="type-field" class="type-field area-type" type="text" placeholder="Type here" autocomplete="off"
         autocorrect="off" autocapitalize="off" spellcheck="false" enterkeyhint="send" aria-label="Text to type on the computer">
  <div class="keyrow area-keys" role="group" aria-label="Keys">
    <button type="button" data-key="BackSpace" aria-label="Backspace">⌫</button>
    <button type="button" data-key="Return" aria-label="Enter">⏎</button>
    <button type="button" data-key="Tab" aria-label="Tab">⇥</button>
    <button type="button" data-key="Escape" aria-label="Escape">Esc</button>
    <button type="button" data-key="Left" aria-label="Left arrow">←</button>
    <button type="button" data-key="Up" aria-label="Up arrow">↑</button>
    <button type="button" data-key="Down" aria-label="Down arrow">↓</button>
    <button type="button" data-key="Right" aria-label="Right arrow">→</button>
  </div>
</section>`,

  bind(ctx) {
    const send = ctx.send;
    // The surface.
    const surface = ctx.$("#touch-surface");
    const gestures = new TouchGestures();
    let holdTimer = null;
    function perform(actions) {
      for (const a of actions) {
        if (a.pad) send("pad", padMessage(a.pad.dx, a.pad.dy, a.pad.ms));
        else if (a.scroll) ctx.scroll(a.scroll.dx, a.scroll.dy);
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

    // Click buttons (held: a drag with the surface) and the key row.
    const heldClicks = new Map();               // key -> button
    for (const el of ctx.all("[data-click]")) {
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
    for (const el of ctx.all("[data-key]")) bindPress(el, () => send("key", keyMessage(el.dataset.key)), () => {});

    // The text field (the phone's own keyboard, IME and emoji).
    const field = ctx.$("#type-field");
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

    return {
      /** Lifts the drag and held clicks (page hidden, connection lost, mode change). */
      releaseAll() {
        perform(gestures.cancel());
        clearTimeout(holdTimer);
        surface.classList.remove("active");
        for (const [k, button] of [...heldClicks]) {
          heldClicks.delete(k);
          send("click", clickMessage(button, false));
        }
        for (const el of ctx.all("[data-click]")) el.classList.remove("down");
      },
    };
  },
});
