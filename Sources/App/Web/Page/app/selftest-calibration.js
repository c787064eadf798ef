// selftest-calibration.js — checks of calibration.js: the host's calibration messages parsed
// strictly, what the panel says for each, and the panel on a fake clock and fake elements
// (asked, progress, Done closing itself, a stall, Escape, Close). Used by selftest.js; never served.

import * as C from "./calibration.js";
import * as P from "./protocol.js";
import { fakeClock } from "./selftest-clock.js";

/** An element with what the panel touches: hidden, textContent, value, classList, listeners. */
function fakeElement() {
  const listeners = {}, classes = new Set();
  return {
    hidden: true, textContent: "", value: 0, focused: 0,
    classList: { toggle: (c, on) => (on ? classes.add(c) : classes.delete(c)), contains: (c) => classes.has(c) },
    addEventListener: (type, f) => { (listeners[type] = listeners[type] || []).push(f); },
    fire: (type, e = {}) => { for (const f of listeners[type] || []) f(e); },
    focus() { this.focused++; },
  };
}

export function calibrationChecks(t) {
  t("the request", P.calibrateCommand() === '{"type":"command","command":"calibrate"}');
  const parse = C.parseCalibrationMessage;
  t("running with its progress", JSON.stringify(parse('{"type":"calibration","state":"running","progress":0.42}')) ===
    '{"state":"running","progress":0.42}');
  t("progress clamped to 0…1", parse('{"type":"calibration","state":"running","progress":7}').progress === 1);
  t("done", parse('{"type":"calibration","state":"done","progress":1}').state === "done");
  t("failed: moved", parse('{"type":"calibration","state":"failed","reason":"moved"}').reason === "moved");
  t("unavailable: off", parse('{"type":"calibration","state":"unavailable","reason":"off"}').reason === "off");
  const bad = ['{"type":"calibration","state":"running"}', '{"type":"calibration","state":"running","progress":"x"}',
               '{"type":"calibration","state":"later"}', '{"type":"calibration"}', '{"type":"feedback","state":"done"}',
               '{"type":"calibration","state":"done"', "null", "[]", ""];
  t("malformed messages are not calibration messages", bad.every((b) => parse(b) === null), bad.filter((b) => parse(b) !== null).join(" "));

  const V = C.calibrationView;
  t("running: hold still, the percentage and the bar",
    V({ state: "running", progress: 0.424 }).title === "Hold the phone still" && V({ state: "running", progress: 0.424 }).detail.endsWith("42%") &&
    V({ state: "running", progress: 0.424 }).progress === 0.424);
  t("done: Done, final", V({ state: "done" }).title === "Done" && V({ state: "done" }).final);
  t("moved: Failed: moved", V({ state: "failed", reason: "moved" }).title === "Failed: moved" && V({ state: "failed", reason: "moved" }).bad);
  t("off and no gyro: Not available, with why", V({ state: "unavailable", reason: "off" }).title === "Not available" &&
    V({ state: "unavailable", reason: "off" }).detail.includes("off on the computer") &&
    V({ state: "unavailable", reason: "no-gyro" }).detail.includes("Start motion"));

  const clock = fakeClock();
  const els = { panel: fakeElement(), title: fakeElement(), detail: fakeElement(), bar: fakeElement(), close: fakeElement() };
  let changes = 0;
  const panel = new C.CalibrationPanel(els, clock.timers, () => changes++);
  t("closed at first", els.panel.hidden && panel.state === null && !panel.running);
  panel.asked();
  t("asked: shown, hold still, focus on Close", !els.panel.hidden && els.title.textContent === "Hold the phone still" &&
    els.close.focused === 1 && panel.running);
  clock.advance(500);
  panel.apply({ state: "running", progress: 0.3 });
  panel.asked();
  t("a second tap while running keeps the progress shown", els.bar.value === 0.3 && els.close.focused === 2);
  t("progress on the bar", els.bar.value === 0.3 && !els.bar.hidden && els.detail.textContent.endsWith("30%"));
  clock.advance(C.CalibrationPanel.STALL_MS + 1);
  t("no report for 2 s while running: waiting for motion", els.title.textContent === "Waiting for motion" && panel.running);
  panel.apply({ state: "running", progress: 0.6 });
  panel.apply({ state: "done", progress: 1 });
  t("done shows Done, not running", els.title.textContent === "Done" && els.bar.value === 1 && !panel.running);
  clock.advance(C.CalibrationPanel.DONE_MS + 1);
  t("… and closes by itself", els.panel.hidden && panel.state === null);
  t("the history of what was shown", panel.history.map((h) => h.state).join() === "asking,running,stalled,running,done");
  panel.apply({ state: "failed", reason: "moved" });
  clock.advance(60_000);
  t("a failure stays until closed", !els.panel.hidden && els.panel.classList.contains("bad"));
  els.panel.fire("keydown", { key: "Escape" });
  t("Escape closes it", els.panel.hidden);
  panel.apply({ state: "unavailable", reason: "off" });
  els.close.fire("click");
  t("Close closes it", els.panel.hidden && changes > 5);
  for (let i = 0; i < 100; i++) panel.apply({ state: "running", progress: i / 100 });
  t("the history is bounded", panel.history.length === C.CalibrationPanel.HISTORY);
}
