// mode-gamepad.js — Gamepad: the sixteen buttons, each labelled with what it does in the
// host's map, arrows, hold to aim, recenter and the host's motion mode. The buttons are the
// controller's own (buttons.js binds every [data-button]); this mode has no bindings of its own.

export default Object.freeze({
  id: "gamepad",
  title: "Gamepad",
  motion: true,
  pane: `
<section class="pane pane-gamepad" data-pane="gamepad" aria-label="Gamepad" hidden>
  <div class="keys area-keys" aria-label="Buttons G to P">
    <button type="button" data-button="G"><b data-label="G">I</b><small>G</small></button>
    <button type="button" data-button="H"><b data-label="H">J</b><small>H</small></button>
    <button type="button" data-button="I"><b data-label="I">A</b><small>I</small></button>
    <button type="button" data-button="J"><b data-label="J">B</b><small>J</small></button>
    <button type="button" data-button="K"><b data-label="K">C</b><small>K</small></button>
    <button type="button" data-button="L"><b data-label="L">D</b><small>L</small></button>
    <button type="button" data-button="M"><b data-label="M">E</b><small>M</small></button>
    <button type="button" data-button="N"><b data-label="N">F</b><small>N</small></button>
    <button type="button" data-button="O"><b data-label="O">G</b><small>O</small></button>
    <button type="button" data-button="P"><b data-label="P">H</b><small>P</small></button>
  </div>
  <div class="tools area-tools">
    <button type="button" class="tool recenter" aria-label="Recenter: make this direction the screen centre">Recenter</button>
    <div class="seg mode-seg" role="group" aria-label="Motion mode">
      <button type="button" data-mode="pointer" aria-pressed="false" aria-label="Pointer mode">Pointer</button>
      <button type="button" data-mode="fps" aria-pressed="false" aria-label="FPS mode">FPS</button>
    </div>
  </div>
  <div class="dpad area-dpad" aria-label="Arrow buttons">
    <button type="button" data-button="E" class="pos-up"><b data-label="E">↑</b><small>E</small></button>
    <button type="button" data-button="C" class="pos-left"><b data-label="C">←</b><small>C</small></button>
    <button type="button" data-button="D" class="pos-right"><b data-label="D">→</b><small>D</small></button>
    <button type="button" data-button="F" class="pos-down"><b data-label="F">↓</b><small>F</small></button>
  </div>
  <div class="mouse area-mouse">
    <button type="button" data-button="A" class="big a"><b data-label="A">Left click</b><small>A</small></button>
    <button type="button" data-button="B" class="big b"><b data-label="B">Right click</b><small>B</small></button>
  </div>
  <button type="button" class="clutch area-aim" data-clutch aria-label="Hold to aim: motion moves the pointer while held">
    <b>Hold to aim</b><small>clutch</small></button>
</section>`,

  bind() { return {}; },
});
