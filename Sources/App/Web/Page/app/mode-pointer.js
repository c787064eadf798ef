// mode-pointer.js — Pointer: an air mouse. Left and right click, a scroll strip, hold to aim,
// recenter and the host's motion mode. Motion always goes out (it moves the pointer).

import { buzz } from "./buttons.js";

export default Object.freeze({
  id: "pointer",
  title: "Pointer",
  motion: true,
  pane: `
<section class="pane pane-pointer" data-pane="pointer" aria-label="Pointer">
  <button type="button" data-button="A" class="big a area-left" aria-label="Left click"><b data-label="A">Left click</b><small>A</small></button>
  <button type="button" data-button="B" class="big b area-right" aria-label="Right click"><b data-label="B">Right click</b><small>B</small></button>
  <div class="strip area-scroll" data-scroll-strip role="slider" aria-label="Scroll: drag up or down" aria-valuenow="0" tabindex="-1">
    <span aria-hidden="true">▲</span><b>Scroll</b><span aria-hidden="true">▼</span></div>
  <button type="button" class="clutch area-aim" data-clutch aria-label="Hold to aim: motion moves the pointer while held">
    <b>Hold to aim</b><small>clutch</small></button>
  <button type="button" class="tool recenter area-recenter" aria-label="Recenter: make this direction the screen centre">
    <svg class="glyph" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="7" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="2" fill="currentColor"/><path d="M12 1v5M12 18v5M1 12h5M18 12h5" stroke="currentColor" stroke-width="2"/></svg>
    Recenter</button>
  <div class="seg mode-seg area-seg" role="group" aria-label="Motion mode">
    <button type="button" data-mode="pointer" aria-pressed="false" aria-label="Pointer mode">Pointer</button>
    <button type="button" data-mode="fps" aria-pressed="false" aria-label="FPS mode">FPS</button>
  </div>
</section>`,

  /** The scroll strip: a drag up or down scrolls (ctx.scroll applies natural scrolling). */
  bind(ctx) {
    for (const strip of ctx.all("[data-scroll-strip]")) {
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
        const dy = e.clientY - last.y;
        last.x = e.clientX; last.y = e.clientY;
        if (dy) ctx.scroll(0, dy);
      });
      const end = (e) => { if (last && e.pointerId === last.id) { last = null; strip.classList.remove("active"); } };
      for (const t of ["pointerup", "pointercancel", "lostpointercapture"]) strip.addEventListener(t, end);
    }
    return {};
  },
});
