// mode-presenter.js — Presenter: previous and next slide, blank, a laser dot on the computer's
// screen and a timer on the phone. Motion goes out only while the laser is held, so the real
// pointer stays put.

import { bindPress, buzz } from "./buttons.js";
import { laserMessage, formatTimer } from "./modes.js";

export default Object.freeze({
  id: "presenter",
  title: "Presenter",
  motion: true,
  pane: `
<section class="pane pane-presenter" data-pane="presenter" aria-label="Presenter" hidden>
  <button type="button" data-button="C" class="big prev area-prev" aria-label="Previous slide"><b>◀ Previous</b><small data-label="C">C</small></button>
  <button type="button" data-button="D" class="big next area-next" aria-label="Next slide"><b>Next ▶</b><small data-label="D">D</small></button>
  <button type="button" id="laser" class="laser area-laser" aria-label="Laser: hold and point; a dot shows on the computer's screen">
    <b>Laser</b><small>hold and point</small></button>
  <button type="button" data-button="J" class="tool area-blank" aria-label="Blank the screen"><b>Blank</b><small data-label="J">J</small></button>
  <div class="timer area-timer" role="group" aria-label="Timer">
    <button type="button" id="timer-toggle" class="tool" aria-label="Start or pause the timer"><b id="timer-text">00:00</b><small id="timer-state">start</small></button>
    <button type="button" id="timer-reset" class="tool reset" aria-label="Reset the timer">↺</button>
  </div>
  <button type="button" class="tool recenter area-recenter" aria-label="Recenter: make this direction the screen centre">Recenter</button>
</section>`,

  bind(ctx) {
    // The laser: on while any finger holds it.
    const laserKeys = new Set();
    const laserEl = ctx.$("#laser");
    function laser(on) {
      if (on === ctx.state.laserOn) return;
      ctx.state.update({ laserOn: on });
      laserEl.classList.toggle("down", on);
      ctx.send("laser", laserMessage(on));
    }
    bindPress(laserEl, (k) => { laserKeys.add(k); laser(true); }, (k) => {
      if (laserKeys.delete(k) && laserKeys.size === 0) laser(false);
    });

    // The timer (on the phone only).
    const timer = { running: false, since: 0, total: 0 };
    const elapsed = () => timer.total + (timer.running ? performance.now() - timer.since : 0);
    function paintTimer() {
      ctx.$("#timer-text").textContent = formatTimer(elapsed());
      ctx.$("#timer-state").textContent = timer.running ? "pause" : timer.total ? "resume" : "start";
      ctx.$(".timer").toggleAttribute("data-running", timer.running);
    }
    ctx.$("#timer-toggle").addEventListener("click", () => {
      buzz();
      if (timer.running) { timer.total = elapsed(); timer.running = false; } else { timer.since = performance.now(); timer.running = true; }
      paintTimer();
    });
    ctx.$("#timer-reset").addEventListener("click", () => { buzz(); timer.total = 0; timer.since = performance.now(); paintTimer(); });
    setInterval(() => { if (timer.running) paintTimer(); }, 250);
    paintTimer();

    return {
      wantsMotion: () => ctx.state.laserOn,
      releaseAll() { laserKeys.clear(); laser(false); },
    };
  },
});
