// selftest-modes.js — checks of modes.js and page-modes.js (pure): the mode table, mode memory per host, labels for the host's
// map, the touchpad's gestures, scrolling direction, the timer text, the messages; the notices.
// Used by selftest.js; never served (the host skips files named selftest*).

import * as M0 from "./modes.js";
import * as PM from "./page-modes.js";
const M = { ...M0, ...PM };
import { buzz } from "./buttons.js";
import * as FB from "./feedback.js";
import * as N from "./notices.js";

export function modeChecks(t) {
  const seen = [];
  buzz(12, { vibrate: (ms) => seen.push(ms) });
  t("a press vibrates where the browser can (Android)", seen.length === 1 && seen[0] === 12);
  let threw = false;
  try { buzz(12, {}); buzz(12, undefined); buzz(12, { vibrate() { throw new Error("not allowed"); } }); } catch { threw = true; }
  t("no vibrate (iOS), none at all, or a refusing one: nothing breaks", !threw);
  const mem = new Map();
  const store = { getItem: (k) => (mem.has(k) ? mem.get(k) : null), setItem: (k, v) => mem.set(k, String(v)) };
  t("no remembered mode → pointer", M.loadMode(store, "pc:7476") === "pointer");
  M.saveMode(store, "pc:7476", "presenter");
  M.saveMode(store, "other:7476", "gamepad");
  t("the mode is remembered per host", M.loadMode(store, "pc:7476") === "presenter" && M.loadMode(store, "other:7476") === "gamepad");
  t("an unknown stored mode → pointer", (mem.set(M.modeKey("x"), "bogus"), M.loadMode(store, "x")) === "pointer");
  t("blocked storage → pointer, no throw", M.loadMode({ getItem() { throw new Error("blocked"); } }, "h") === "pointer");
  t("the mode table: four modes, each with a title, its own pane and bindings",
    M.MODES.join() === "pointer,presenter,touchpad,gamepad" &&
    PM.PAGE_MODES.every((m) => m.title && m.pane.includes(`data-pane="${m.id}"`) && typeof m.bind === "function"));
  t("… the modes that aim with motion", [...M.MOTION_MODES].join() === "pointer,presenter,gamepad");
  const pushed = { lx: 0.5, ly: -0.25, rx: 0, ry: 0, l2: 0, r2: 0.55 };
  t("the Gamepad mode's analog block: the state while a stick or trigger is off rest",
    JSON.stringify(M.analogBlock(pushed, 0)) === JSON.stringify(pushed) && M.analogBlock(pushed, 1e6) !== pushed);
  t("… explicit zeros for 300 ms after it came to rest (the host keeps a stick where the last block put it)",
    JSON.stringify(M.analogBlock(M.ANALOG_REST, 0)) === JSON.stringify(M.ANALOG_REST) &&
    JSON.stringify(M.analogBlock({ ...M.ANALOG_REST }, 299.9)) === JSON.stringify(M.ANALOG_REST));
  t("… then none", M.analogBlock(M.ANALOG_REST, 300) === null && M.analogBlock(null, Infinity) === null);
  t("… each pane has its own section, no two ids alike",
    new Set(PM.PAGE_MODES.flatMap((m) => [...m.pane.matchAll(/ id="([^"]+)"/g)].map((x) => x[1]))).size ===
    PM.PAGE_MODES.flatMap((m) => [...m.pane.matchAll(/ id="([^"]+)"/g)]).length);

  const labels = [["left", "Left click"], ["right", "Right click"], ["key:Left", "←"], ["key:i", "I"],
                  ["key:ctrl+shift+i", "Ctrl+Shift+I"], ["wheel:up", "Scroll ↑"], ["action:recenter", "Recenter"],
                  ["none", "—"], ["key:Page_Down", "Page ↓"], ["key:Control_L+Shift_L+i", "Ctrl+Shift+I"]];
  for (const [a, want] of labels) t(`label of ${a} → ${want}`, M.actionLabel(a) === want, M.actionLabel(a));
  const msg = JSON.stringify({ type: "buttons", buttons: Array(16).fill("none").map((x, i) => (i === 0 ? "left" : x)) });
  t("buttons message → 16 actions", (M.parseButtonsMessage(msg) || [])[0] === "left" && M.parseButtonsMessage(msg).length === 16);
  t("a short buttons list is refused", M.parseButtonsMessage('{"type":"buttons","buttons":["left"]}') === null);
  t("untyped message parsed", M.parseUntypedMessage('{"type":"untyped","text":"é","message":"m"}').text === "é");
  t("laser message (no dot here) parsed", M.parseLaserMessage('{"type":"laser","dot":false,"message":"moves the pointer"}') === "moves the pointer");
  t("a laser message without dot:false is refused", M.parseLaserMessage('{"type":"laser","message":"x"}') === null);

  t("natural scrolling: fingers up → wheel down", M.scrollFromFingers(0, -30, true).dy === -30);
  t("normal scrolling: fingers up → wheel up", M.scrollFromFingers(0, -30, false).dy === 30);
  t("natural scrolling: fingers left → wheel right", M.scrollFromFingers(-10, 0, true).dx === 10);
  t("timer text", M.formatTimer(0) === "00:00" && M.formatTimer(65_400) === "01:05" && M.formatTimer(3_725_000) === "1:02:05");

  const texts = M.textMessages("é".repeat(450));
  t("long text → messages of ≤ 200 characters", texts.length === 3 && JSON.parse(texts[2]).text.length === 50);
  t("emoji kept whole across a split", JSON.parse(M.textMessages("😀".repeat(201))[1]).text === "😀");
  t("click message with and without an edge", JSON.parse(M.clickMessage("left")).down === undefined &&
    JSON.parse(M.clickMessage("right", false)).down === false);

  let g = new M.TouchGestures();
  g.down(1, 100, 100, 0);
  const moved = g.move(1, 110, 95, 16);
  t("one finger moving → pad delta", moved.length === 1 && moved[0].pad.dx === 10 && moved[0].pad.dy === -5 && moved[0].pad.ms === 16);
  t("…then lifted: no click", g.up(1, 400).length === 0);
  g = new M.TouchGestures();
  g.down(1, 50, 50, 0);
  t("a quick still tap → left click", JSON.stringify(g.up(1, 120)) === '[{"click":"left"}]');
  g = new M.TouchGestures();
  g.down(1, 50, 50, 0); g.down(2, 90, 50, 20);
  g.up(1, 100);
  t("a two-finger tap → right click", JSON.stringify(g.up(2, 130)) === '[{"click":"right"}]');
  g = new M.TouchGestures();
  g.down(1, 50, 50, 0); g.down(2, 90, 50, 5);
  const s1 = g.move(1, 50, 30, 20), s2 = g.move(2, 90, 30, 21);
  t("two fingers moving → scroll by their mean", s1[0].scroll.dy === -10 && s2[0].scroll.dy === -10);
  g.up(1, 60); 
  t("…no click after a scroll", g.up(2, 70).length === 0);
  g = new M.TouchGestures();
  g.down(1, 50, 50, 0);
  t("holding still less than holdMs: no drag yet", g.tick(300).length === 0);
  t("held still → left button down (drag)", JSON.stringify(g.tick(500)) === '[{"press":"left","down":true}]');
  t("a drag moves the pointer", g.move(1, 80, 50, 520)[0].pad.dx === 30);
  t("lifting ends the drag (left up), no click", JSON.stringify(g.up(1, 900)) === '[{"press":"left","down":false}]');
  g.down(1, 0, 0, 1000); g.tick(1600);
  t("cancel during a drag releases it", JSON.stringify(g.cancel()) === '[{"press":"left","down":false}]');
}

/** feedback.js: the host's rumble and light, on a fake vibrate and a fake light. */
export function feedbackChecks(t) {
  const F = FB;
  t("a feedback message parses; others and bad values do not",
    JSON.stringify(F.parseFeedbackMessage('{"type":"feedback","rumble":[255,128],"lightbar":"#0040ff"}')) ===
      JSON.stringify({ heavy: 255, light: 128, lightbar: "#0040ff" }) &&
    F.parseFeedbackMessage('{"type":"feedback","rumble":[0,0],"lightbar":null}').lightbar === null &&
    F.parseFeedbackMessage('{"type":"feedback","rumble":[256,0]}') === null &&
    F.parseFeedbackMessage('{"type":"feedback","rumble":[1]}') === null &&
    F.parseFeedbackMessage('{"type":"mode","mode":"pointer"}') === null && F.parseFeedbackMessage("not json") === null);
  t("full rumble vibrates for the whole second; none stops",
    JSON.stringify(F.vibrationPattern(255, 0)) === "[1000]" && F.vibrationPattern(0, 0) === 0);
  const half = F.vibrationPattern(0, 128);
  t("half rumble: on 25 ms of every 50 for a second",
    half.length === 40 && half[0] === 25 && half[1] === 25 && half.reduce((a, b) => a + b, 0) === 1000);
  t("the faintest rumble is still felt (5 ms of 50)", F.vibrationPattern(1, 0)[0] === 5);
  const calls = [], shown = [];
  const fb = new F.Feedback({ vibrate: (p) => calls.push(p), show: (c) => shown.push(c) });
  fb.apply({ heavy: 0, light: 0, lightbar: null });
  t("no rumble and no light: nothing touched", calls.length === 0 && shown.length === 0);
  fb.apply({ heavy: 255, light: 0, lightbar: "#ff0000" });
  fb.apply({ heavy: 255, light: 0, lightbar: "#ff0000" });
  t("a running rumble is renewed with each message; the light painted once",
    calls.length === 2 && JSON.stringify(calls[1]) === "[1000]" && shown.join() === "#ff0000");
  fb.apply({ heavy: 0, light: 0, lightbar: "#ff0000" });
  t("rumble 0 stops the motor at once", calls.at(-1) === 0);
  fb.apply({ heavy: 100, light: 0, lightbar: "#ff0000" });
  fb.stop();
  t("the session's end stops the motor and clears the light", calls.at(-1) === 0 && shown.at(-1) === null);
  let threw = false;
  try { new F.Feedback({ vibrate() { throw new Error("no gesture"); } }).apply({ heavy: 9, light: 0, lightbar: null }); } catch { threw = true; }
  t("a browser that refuses vibrate breaks nothing", !threw);
}

/** Notices on a stand-in element and a manual clock: a flashed note comes back with each new
 *  event, after a dismissal too, and only the latest event's timer takes it away. */
export function noticeChecks(t) {
  let now = 0, onClose = null;
  const pending = new Set();
  const timers = {
    setTimeout: (fn, ms) => { const x = { at: now + ms, fn }; pending.add(x); return x; },
    clearTimeout: (x) => pending.delete(x),
  };
  const advance = (ms) => {
    now += ms;
    for (const x of [...pending].sort((a, b) => a.at - b.at)) if (x.at <= now) { pending.delete(x); x.fn(); }
  };
  const el = { hidden: true, innerHTML: "", classList: { toggle() {} },
               firstChild: { addEventListener: (_, fn) => { onClose = fn; } } };
  const n = new N.Notices(el, timers);
  n.flash("pad", "<p>no pads</p>", 8000);
  t("a flashed note shows", !el.hidden && el.innerHTML.includes("no pads"));
  advance(7000);
  el.hidden = true;                                  // put away by hand (the browser tests do)
  n.flash("pad", "<p>no pads</p>", 8000);
  t("the same note flashed again before it expired shows again", !el.hidden);
  advance(2000);
  t("… and the first event's timer does not take it away early", !el.hidden);
  onClose();
  t("the close button dismisses it", el.hidden);
  n.flash("pad", "<p>no pads</p>", 8000);
  t("a new event shows a dismissed flashed note again", !el.hidden);
  advance(8000);
  t("it goes 8 s after the latest event", el.hidden && pending.size === 0);
  n.show("sensors", "<p>no motion</p>");
  onClose();
  n.show("sensors", "<p>no motion</p>");
  t("a standing note stays dismissed while its text is the same", el.hidden);
  n.show("sensors", "<p>motion denied</p>");
  t("… and shows when its text changes", !el.hidden && el.innerHTML.includes("denied"));
}
