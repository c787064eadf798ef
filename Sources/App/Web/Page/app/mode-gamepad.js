// mode-gamepad.js — Gamepad: a controller in the hands. Two thumbsticks anchored where the
// thumb lands, analog L2/R2 (how far down the trigger the finger is), L1/R1, the face buttons,
// the d-pad, create/PS/options/touchpad, the gyro button and the host's motion mode. Labels a
// player reads at a glance: ✕○△□ or ABXY (chosen in the menu), with what the host's map does
// with each button in small type. Buttons are the controller's sixteen (buttons.js binds
// every [data-button]; with --gamepad they are the virtual pad's, GamepadButtonTable); sticks
// and triggers go in the MOTION frames' analog block (protocol.js, flag bit 4), the fingers on
// the touchpad (between Create and Options, as on a DualSense) in their touch block (bit 5);
// a quick tap there is the touchpad's click (P).

import { stickFromDrag, triggerFromDepth, ANALOG_REST, ANALOG_REST_MS, analogAtRest, analogBlock } from "./modes.js";

/** Face glyphs by button (A = south, B = east, G = west, H = north), per style. */
export const FACE_LABELS = { playstation: { A: "✕", B: "○", G: "□", H: "△" }, xbox: { A: "A", B: "B", G: "X", H: "Y" } };

const button = (letter, glyph, cls = "") =>
  `<button type="button" data-button="${letter}" class="${cls}"><b>${glyph}</b><small data-label="${letter}">${letter}</small></button>`;

export default Object.freeze({
  id: "gamepad",
  title: "Gamepad",
  motion: true,
  pane: `
<section class="pane pane-gamepad" data-pane="gamepad" aria-label="Gamepad" hidden>
  <div class="shoulder area-lsh" role="group" aria-label="Left shoulder">
    <div class="trigger" data-trigger="l2" data-trigger-button="K" role="slider" aria-label="L2: press deeper for more" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0"><b>L2</b><i></i></div>
    ${button("I", "L1", "sh")}
  </div>
  <div class="shoulder area-rsh" role="group" aria-label="Right shoulder">
    ${button("J", "R1", "sh")}
    <div class="trigger" data-trigger="r2" data-trigger-button="L" role="slider" aria-label="R2: press deeper for more" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0"><b>R2</b><i></i></div>
  </div>
  <div class="stick area-lstick" data-stick="left" role="slider" aria-label="Left stick: put a thumb down anywhere here and push"><span class="base"></span><span class="knob"></span><small>L</small></div>
  <div class="stick area-rstick" data-stick="right" role="slider" aria-label="Right stick: put a thumb down anywhere here and push"><span class="base"></span><span class="knob"></span><small>R</small></div>
  <div class="face area-face" role="group" aria-label="Face buttons">
    ${button("H", "△", "pos-up face-b")}${button("G", "□", "pos-left face-b")}${button("B", "○", "pos-right face-b")}${button("A", "✕", "pos-down face-b")}
  </div>
  <div class="dpad area-dpad" role="group" aria-label="D-pad">
    ${button("E", "↑", "pos-up")}${button("C", "←", "pos-left")}${button("D", "→", "pos-right")}${button("F", "↓", "pos-down")}
  </div>
  <div class="sys area-sys" role="group" aria-label="Create, touchpad, options, PS">
    ${button("N", "Create", "sys-create")}
    <div class="touchpad sys-pad" data-touchpad role="application" aria-label="Touchpad: slide one or two fingers; a quick tap clicks it"><b>Touchpad</b><small data-label="P">P</small></div>
    ${button("M", "Options", "sys-options")}${button("O", "PS", "sys-ps")}
  </div>
  <div class="seg mode-seg area-seg" role="group" aria-label="Motion mode">
    <button type="button" data-mode="pointer" aria-pressed="false" aria-label="Pointer mode">Pointer</button>
    <button type="button" data-mode="fps" aria-pressed="false" aria-label="FPS mode">FPS</button>
  </div>
  <button type="button" class="clutch area-aim" data-clutch aria-label="Gyro: aims while held (the menu sets hold, toggle or ratchet)">
    <b>Gyro</b><small data-gyro-mode>hold</small></button>
</section>`,

  bind(ctx) {
    let analog = { ...ANALOG_REST };
    let restAt = -Infinity;                           // when the sticks and triggers last came to rest
    let restShown = false;                            // the frames carry the rest block (zeros) now
    const send = () => {
      const block = analogBlock(analog, performance.now() - restAt);
      restShown = !!block && analogAtRest(block);
      ctx.setAnalog(block);
    };
    const publish = () => {
      if (analogAtRest(analog)) restAt = performance.now();
      send();
    };
    // The touchpad's fingers: pointerId -> {slot, id, x, y (0…1 of the pad), x0, y0, t0}, at most
    // two. A finger keeps the slot it landed in until it lifts, as on a DualSense, whose two touch
    // points are the kernel's two multi-touch slots: a second finger left alone when the first
    // lifts stays in slot 1 rather than jumping into slot 0's place.
    const fingers = new Map();
    let nextFinger = 0, liftedAt = 0;
    const sendTouch = () => {
      const slots = [null, null];
      for (const f of fingers.values()) slots[f.slot] = { id: f.id, x: f.x, y: f.y };
      ctx.setTouch(fingers.size ? slots : null);
    };
    // The motion channel may lose a frame: while anything is off rest or a finger is down (and
    // for 300 ms after), the state is sent again every 100 ms even when no sensor event carries it.
    setInterval(() => {
      // The rest block's time is over (in any mode): the frames go without it again.
      if (restShown && performance.now() - restAt >= ANALOG_REST_MS) send();
      if (ctx.state.pageMode !== "gamepad") return;
      // One frame carries both: the streamer holds the latest fingers as well as the sticks.
      if (!analogAtRest(analog) || performance.now() - restAt < ANALOG_REST_MS) send();
      else if (fingers.size || performance.now() - liftedAt < 300) sendTouch();
    }, 100);

    // The touchpad: where each finger is, sent at once; a finger that lifts within 250 ms,
    // having moved under 12 px, with no other down, was a tap: the pad's click (P).
    const pad = ctx.$("[data-touchpad]");
    const where = (e) => {
      const r = pad.getBoundingClientRect(), unit = (v) => Math.max(0, Math.min(1, v));
      return { x: unit((e.clientX - r.left) / Math.max(1, r.width)), y: unit((e.clientY - r.top) / Math.max(1, r.height)) };
    };
    pad.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      if (fingers.size >= 2) return;
      try { pad.setPointerCapture(e.pointerId); } catch { /* gone */ }
      const slot = [...fingers.values()].some((f) => f.slot === 0) ? 1 : 0;
      fingers.set(e.pointerId, { slot, id: nextFinger, ...where(e), x0: e.clientX, y0: e.clientY, t0: performance.now() });
      nextFinger = (nextFinger + 1) & 0x7f;
      pad.classList.add("active");
      sendTouch();
    });
    pad.addEventListener("pointermove", (e) => {
      const f = fingers.get(e.pointerId);
      if (!f) return;
      Object.assign(f, where(e));
      sendTouch();
    });
    const liftFinger = (e) => {
      const f = fingers.get(e.pointerId);
      if (!f) return;
      fingers.delete(e.pointerId);
      liftedAt = performance.now();
      pad.classList.toggle("active", fingers.size > 0);
      sendTouch();
      if (e.type === "pointerup" && !fingers.size && liftedAt - f.t0 < 250 && Math.hypot(e.clientX - f.x0, e.clientY - f.y0) < 12) {
        ctx.press("touchpad", 15);
        setTimeout(() => ctx.release("touchpad"), 60);
      }
    };
    for (const t of ["pointerup", "pointercancel", "lostpointercapture"]) pad.addEventListener(t, liftFinger);

    // Sticks: the base goes where the thumb lands; the knob follows, full at `reach` px.
    const held = new Map();                           // pointerId -> {stick, x0, y0}
    for (const zone of ctx.all("[data-stick]")) {
      const side = zone.dataset.stick, base = zone.querySelector(".base"), knob = zone.querySelector(".knob");
      const paint = (x, y, dx, dy, on) => {
        zone.classList.toggle("active", on);
        const r = zone.getBoundingClientRect();
        for (const [el, px, py] of [[base, x, y], [knob, x + dx, y + dy]]) el.style.transform = on ? `translate(${px - r.left}px, ${py - r.top}px)` : "";
      };
      const set = (v) => {
        if (side === "left") { analog.lx = v.x; analog.ly = v.y; } else { analog.rx = v.x; analog.ry = v.y; }
        publish();
      };
      zone.addEventListener("pointerdown", (e) => {
        e.preventDefault();
        try { zone.setPointerCapture(e.pointerId); } catch { /* gone */ }
        held.set(e.pointerId, { zone, x0: e.clientX, y0: e.clientY });
        paint(e.clientX, e.clientY, 0, 0, true);
      });
      zone.addEventListener("pointermove", (e) => {
        const h = held.get(e.pointerId);
        if (!h || h.zone !== zone) return;
        const r = zone.getBoundingClientRect(), reach = Math.max(24, Math.min(60, Math.min(r.width, r.height) * 0.3));
        const v = stickFromDrag(e.clientX - h.x0, e.clientY - h.y0, reach);
        paint(h.x0, h.y0, v.x * reach, v.y * reach, true);
        set(v);
      });
      const lift = (e) => {
        const h = held.get(e.pointerId);
        if (!h || h.zone !== zone) return;
        held.delete(e.pointerId);
        paint(0, 0, 0, 0, false);
        set({ x: 0, y: 0 });
      };
      for (const t of ["pointerup", "pointercancel", "lostpointercapture"]) zone.addEventListener(t, lift);
    }

    // Triggers: how far down the trigger the finger is (top 10%, bottom 100%); pulled fully,
    // its button (K, L) is pressed too, for a host whose map gives L2/R2 a key.
    for (const el of ctx.all("[data-trigger]")) {
      const which = el.dataset.trigger, index = el.dataset.triggerButton.charCodeAt(0) - 65, fill = el.querySelector("i");
      const fingers = new Map();                      // pointerId -> depth
      const update = () => {
        const v = fingers.size ? Math.max(...fingers.values()) : 0;
        analog[which] = v;
        el.classList.toggle("down", v > 0);
        fill.style.height = `${Math.round(v * 100)}%`;
        el.setAttribute("aria-valuenow", String(Math.round(v * 100)));
        if (v >= 0.95) ctx.press(`t${which}`, index); else ctx.release(`t${which}`);
        publish();
      };
      const depth = (e) => { const r = el.getBoundingClientRect(); return triggerFromDepth(e.clientY - r.top, r.height); };
      el.addEventListener("pointerdown", (e) => {
        e.preventDefault();
        try { el.setPointerCapture(e.pointerId); } catch { /* gone */ }
        fingers.set(e.pointerId, depth(e));
        update();
      });
      el.addEventListener("pointermove", (e) => { if (fingers.has(e.pointerId)) { fingers.set(e.pointerId, depth(e)); update(); } });
      for (const t of ["pointerup", "pointercancel", "lostpointercapture"]) {
        el.addEventListener(t, (e) => { if (fingers.delete(e.pointerId)) update(); });
      }
      el.releaseTrigger = () => { fingers.clear(); update(); };
    }

    // Labels: ✕○△□ or ABXY.
    const paintFace = (style) => {
      const glyphs = FACE_LABELS[style] || FACE_LABELS.playstation;
      for (const [letter, glyph] of Object.entries(glyphs)) {
        const b = ctx.$(`[data-button="${letter}"] b`);
        if (b) b.textContent = glyph;
      }
    };
    paintFace(ctx.prefs.faceLabels);
    ctx.onPrefs((p) => { paintFace(p.faceLabels); const g = ctx.$("[data-gyro-mode]"); if (g) g.textContent = p.gyroButton; });

    return {
      /** Sticks centred, triggers up, fingers off the touchpad (page hidden, connection lost, mode change). */
      releaseAll() {
        held.clear();
        for (const zone of ctx.all("[data-stick]")) zone.classList.remove("active");
        for (const el of ctx.all("[data-trigger]")) if (el.releaseTrigger) el.releaseTrigger();
        analog = { ...ANALOG_REST };
        publish();
        if (fingers.size) { fingers.clear(); liftedAt = performance.now(); pad.classList.remove("active"); }
        ctx.release("touchpad");
        sendTouch();
      },
    };
  },
});
