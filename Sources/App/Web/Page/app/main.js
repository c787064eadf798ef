// main.js — the Remotion phone controller page: wires pairing, the motion streamer, buttons,
// the modes and the connection to the DOM. The page's state has one owner (page-state.js):
// the transports and the modes write it, render() and the test hook read it.
// Protocol: docs/WEB-CONTROLLER.md. No framework, no CDN.

import { encodeButton } from "./protocol.js";
import { Connection } from "./connection.js";
import { TransportChooser } from "./transport.js";
import { ButtonState, HoldSet, bindButtons } from "./buttons.js";
import { parsePairFragment, proposeDeviceName, sanitizeName, loadDevice, saveDevice, forgetDevice, pair } from "./pairing.js";
import { sensorSupport, WakeLock } from "./sensors.js";
import { MotionStreamer } from "./streamer.js";
import { renderModes, setupModes } from "./controls.js";
import { PageState } from "./page-state.js";
import { parseButtonsMessage, parseLaserMessage, parseUntypedMessage } from "./modes.js";
import { Feedback, parseFeedbackMessage } from "./feedback.js";
import { profileNote } from "./profile.js";
import { CalibrationPanel, parseCalibrationMessage } from "./calibration.js";
import { Notices, escapeHtml, sensorProblemHtml, insecureContextHtml, certificateHintHtml, refusalHtml } from "./notices.js";

const $ = (id) => document.getElementById(id);
const HTTPS_PORT = 7476;

const storage = safeStorage();
const buttons = new ButtonState();
const clutch = new HoldSet();
// A game's rumble and light (the host's "feedback" messages): the phone's motor, the bar's dot.
const feedback = new Feedback({
  vibrate: (p) => { if (typeof navigator.vibrate === "function") navigator.vibrate(p); },
  show: (colour) => {
    const dot = $("lightbar");
    dot.hidden = colour === null;
    if (colour !== null) { dot.style.background = dot.style.color = colour; dot.title = `the game's light: ${colour}`; }
  },
});
const wake = new WakeLock(navigator, document);
const notices = new Notices($("notice"));
const state = new PageState();
const streamer = new MotionStreamer({
  win: window, buttons, clutch, onStatus: onSensorStatus,
  send: (frame) => !!conn && (!modes || modes.wantsMotion) && conn.sendBinary(frame, true),
});

let conn = null;                 // the connection (connection.js): writes state.conn through onConnState
let pad = null;                  // the buttons (buttons.js)
let modes = null;                // the page's modes (controls.js)
let calibration = null;          // the menu's Calibrate: its panel (calibration.js)

// ── buttons ─────────────────────────────────────────────────────────────────────────────
function sendButtonEdge(edge) {
  if (conn && conn.sendBinary(encodeButton(edge.index, edge.down, edge.state))) state.sentButtons++;
}

function releaseEverything() {
  feedback.stop();                            // no rumble or light outlives the session
  if (pad) pad.releaseAll();                  // sends the up edges while still connected
  if (modes) modes.releaseAll();              // touchpad drag, held clicks, the laser
  if (clutch.releaseAll()) paintClutch();
  if (modes) modes.rearm();                   // a ratchet gyro button's rest is "aiming"
}

// ── sensors ─────────────────────────────────────────────────────────────────────────────
const START_HINT = { asking: "Asking for motion access…", waiting: "Waiting for the sensors…" };

function onSensorStatus(status, detail) {
  $("start").disabled = status === "asking";
  $("start").hidden = status === "on" || state.screen !== "controller" || (modes && !modes.needsMotion);
  $("start-hint").textContent = START_HINT[status] || "Tap to try again";
  if (status === "on") notices.hide("sensors");
  else if (!(status in START_HINT)) showSensorProblem(status, detail);
  render();
}

function showSensorProblem(kind, detail) {
  notices.show("sensors", sensorProblemHtml(kind, detail, window.isSecureContext, location.hostname, HTTPS_PORT),
               kind !== "nodata");
}

function secureContextNotice() {
  if (!window.isSecureContext) notices.show("secure", insecureContextHtml(location.hostname, HTTPS_PORT), true);
}

function certificateHint(s) {
  // iOS Safari refuses wss to an untrusted certificate even after the page warning was accepted.
  if (s && !s.everConnected && s.attempts >= 3 && (s.status === "disconnected" || s.status === "timed-out")) {
    notices.show("cert", certificateHintHtml());
  } else if (s && s.everConnected) {
    notices.hide("cert");
  }
}

function refusalNotice(s) {
  if (s.status === "refused" && s.retryInMs === null) notices.show("refused", refusalHtml(s), true);
  else notices.hide("refused");
}

// ── rendering ───────────────────────────────────────────────────────────────────────────
const STATE_LABEL = { idle: "idle", connecting: "connecting", connected: "connected", "timed-out": "timed out",
                      disconnected: "disconnected", refused: "refused", stopped: "stopped" };

/** The status line: [announced part (role=status), changing part (not announced)]. */
function statusText(s) {
  const host = `<b>${escapeHtml(s.host || location.host)}</b>`;
  const retry = s.retryInMs !== null ? `Retrying in ${(s.retryInMs / 1000).toFixed(1)} s.` : "";
  const why = s.message ? ": " + escapeHtml(s.message) : "";
  switch (s.status) {
    case "connecting": return [`Connecting to ${host}…`, s.attempts > 1 ? `(attempt ${s.attempts})` : ""];
    case "connected": {
      if (state.flash.until > performance.now()) return [escapeHtml(state.flash.text), ""];
      const motion = streamer.status === "on" ? `· motion ${streamer.rate}/s` : "· motion off";
      return [`Connected to ${host} · ${s.mode === "fps" ? "FPS" : "pointer"} mode`, motion];
    }
    case "timed-out": return [`Timed out${why}.`, retry];
    case "disconnected": return [`Disconnected${why}.`, retry];
    case "refused": return [`Refused by ${host}${why}.`, retry];
    case "stopped": return ["Stopped.", ""];
    default: return ["", ""];
  }
}

function setHtml(el, html) { if (el.innerHTML !== html) el.innerHTML = html; }
function setText(el, text) { if (el.textContent !== text) el.textContent = text; }

const TRANSPORT_LABEL = { webrtc: "data channel", websocket: "WebSocket" };

function render() {
  if (state.screen !== "controller") return;
  const s = conn ? conn.snapshot() : null;
  state.conn = s;
  if (!s) return;
  const device = state.device;
  const pill = $("conn");
  pill.dataset.state = s.status;
  document.body.dataset.conn = s.status;
  pill.textContent = STATE_LABEL[s.status] || s.status;
  $("host-name").textContent = s.host || device.host || location.hostname;
  $("rtt").textContent = Number.isFinite(s.rttMs) && s.status === "connected" ? `${fmtMs(s.rttMs)} ms` : "– ms";
  $("transport").textContent = TRANSPORT_LABEL[s.transport] || "";
  const [said, extra] = statusText(s);
  setHtml($("status-live"), said);
  setText($("status-extra"), extra);
  certificateHint(s);
  refusalNotice(s);
  const pending = state.hostModePendingUntil > performance.now();
  for (const seg of document.querySelectorAll(".mode-seg")) seg.toggleAttribute("data-pending", pending);
  for (const b of document.querySelectorAll(".mode-seg [data-mode]")) {
    b.setAttribute("aria-pressed", String(s.mode === b.dataset.mode));
    b.disabled = s.status !== "connected";
  }
  paintProfile(s);
  for (const b of document.querySelectorAll(".recenter")) b.disabled = s.status !== "connected";
  $("calibrate").disabled = s.status !== "connected";
  $("start").hidden = streamer.status === "on" || (modes && !modes.needsMotion);
  $("d-host").textContent = s.host || "–";
  $("d-session").textContent = s.session || "–";
  $("d-device").textContent = device ? device.id : "–";
  $("d-motion").textContent = `${streamer.status}, ${streamer.rate}/s, sent ${streamer.sent} frames, ${state.sentButtons} edges`;
  const att = streamer.lastAttitude;
  $("d-attitude").textContent = att
    ? ["roll", "pitch", "yaw"].map((k) => `${(att[k] * 180 / Math.PI).toFixed(1)}°`).join(" / ") : "–";
  $("d-wake").textContent = !wake.supported ? "not supported" : wake.held ? "yes" : wake.error ? `no (${wake.error})` : "no";
  const pad = state.pad;
  $("d-pad").textContent = (!pad ? "–" : !pad.available ? "none on this computer" : pad.on ? "virtual DualSense" : "none")
    + (state.gyroStick && state.gyroStick !== "off" ? `, gyro as its ${state.gyroStick} stick` : "");
}

/** The note under the mode bar: which of the host's [[profile]]s is in force, and whether it set the mode. */
function paintProfile(s) {
  const note = $("profile-note");
  const text = s.status === "connected" ? profileNote(s.profile, s.mode) : "";
  note.hidden = !text;
  setText(note, text);
  for (const seg of document.querySelectorAll(".mode-seg")) seg.toggleAttribute("data-profile", !!(s.profile && s.profile.setsMode));
}

function onConnState(s) {
  const was = state.conn;
  if (s.status !== "connected" && was && was.status === "connected") releaseEverything();
  if (s.status === "connected" && s.host && state.device && s.host !== state.device.host) {
    state.device = { ...state.device, host: s.host };
    saveDevice(storage, state.device);
  }
  if (s.mode !== (was && was.mode)) state.hostModePendingUntil = 0;
  wake.want(s.status === "connected");
  state.update({ conn: s });
}

function setStatus(text) { setText($("status-live"), text); setText($("status-extra"), ""); }

function paintClutch() { for (const el of document.querySelectorAll("[data-clutch]")) el.classList.toggle("down", clutch.held); }

function fmtMs(ms) { return ms < 10 ? ms.toFixed(1) : String(Math.round(ms)); }

// ── screens ─────────────────────────────────────────────────────────────────────────────
function showScreen(name) {
  state.screen = name;
  document.body.dataset.screen = name;
  $("pair-screen").hidden = name !== "pair";
  $("unpaired-screen").hidden = name !== "unpaired";
  $("pad").hidden = name !== "controller";
  $("modes").hidden = name !== "controller";
  $("start").hidden = name !== "controller" || streamer.status === "on";
  $("rtt").hidden = name !== "controller";
  $("menu-button").hidden = name !== "controller";
  if (name !== "controller") {
    $("conn").dataset.state = "idle";
    $("conn").textContent = name === "pair" ? "pairing" : "not paired";
  }
}

function showPairing(frag) {
  showScreen("pair");
  $("host-name").textContent = location.hostname;
  setStatus("Pair this phone with the computer that showed the QR code.");
  // The CA's SHA-256 from the server, not the link's fp= (that is what the host printed, so
  // comparing it with the host's terminal always agrees). What the person can really check
  // is this value against the phone's own certificate details screen (docs/SECURITY.md §9).
  $("pair-fp").textContent = "…";
  fetch("/ca.sha256", { cache: "no-store" }).then(r => r.ok ? r.text() : Promise.reject(r.status))
    .then(t => { $("pair-fp").textContent = formatCAFingerprint(t); })
    .catch(() => { $("pair-fp").textContent = "(could not read the CA fingerprint)"; });
  const name = $("pair-name");
  name.value = proposeDeviceName(navigator.userAgent);
  const go = $("pair-go");
  const submit = async () => {
    go.disabled = true;
    $("pair-error").textContent = "";
    go.textContent = "Pairing…";
    const r = await pair({ secret: frag.secret, name: sanitizeName(name.value, proposeDeviceName(navigator.userAgent)) },
                         (u, o) => fetch(u, o), "/api/pair", {
                           onWaiting: (code) => {
                             go.textContent = "Waiting for the computer…";
                             $("pair-wait").hidden = false;
                             $("pair-code").textContent = code;
                           },
                         });
    $("pair-wait").hidden = true;
    go.textContent = "Pair";
    if (!r.ok) { go.disabled = false; $("pair-error").textContent = r.error; return; }
    state.device = r.device;
    if (!saveDevice(storage, state.device)) {
      notices.show("storage", "<p>This browser will not remember the pairing (private mode?). " +
                            "You will need to scan the QR code again next time.</p>");
    }
    frag.secret = "";
    startController();
  };
  go.onclick = submit;
  name.onkeydown = (e) => { if (e.key === "Enter") { e.preventDefault(); if (!go.disabled) submit(); } };
}

function startController() {
  showScreen("controller");
  if (conn) conn.stop();
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const device = state.device;
  const chooser = new TransportChooser({
    device, signalUrl: "/api/rtc", fetch: globalThis.fetch && globalThis.fetch.bind(globalThis),
    RTCPeerConnection: globalThis.RTCPeerConnection, WebSocket: globalThis.WebSocket, timers: globalThis,
    now: () => performance.now(), lanes: storage.getItem("remotion.lanes") !== "off" });   // "off": one WebSocket (measurements)
  conn = new Connection({ url: `${scheme}//${location.host}/ws`, device, host: device.host, onState: onConnState,
                          onMessage: onHostMessage, createSocket: (u) => chooser.createSocket(u) });
  conn.start();
}

/** Host messages for the modes: the button map's labels, text that could not be typed. */
// ── the virtual pad: the Gamepad mode asks the host for one, and gives it back ──────────
let padAsked = null;              // what this connection asked (null: nothing yet)
let stickAsked = null;            // the gyro stick this connection asked for (the menu's choice)
function syncPad() {
  const s = state.conn;
  if (!conn || !s || s.status !== "connected") { padAsked = null; stickAsked = null; return; }
  const stick = modes ? modes.prefs.gyroStick : "host";
  if (stick !== "host" && stickAsked !== stick && conn.sendCommand("gyro-stick", stick)) stickAsked = stick;
  const want = state.pageMode === "gamepad";
  if (padAsked === want || (padAsked === null && !want)) { padAsked = want; return; }
  if (conn.sendCommand("pad", want)) padAsked = want;
}
function parseGyroStickMessage(text) {
  try { const m = JSON.parse(text); return m && m.type === "gyro-stick" && typeof m.target === "string" ? m : null; } catch { return null; }
}
function parsePadMessage(text) {
  try { const m = JSON.parse(text); return m && m.type === "pad" && typeof m.on === "boolean" ? m : null; } catch { return null; }
}

function onHostMessage(text) {
  const calibrating = parseCalibrationMessage(text);
  if (calibrating) { calibration.apply(calibrating); return; }
  const stick = parseGyroStickMessage(text);
  if (stick) { state.update({ gyroStick: stick.target }); return; }
  const pad = parsePadMessage(text);
  if (pad) {
    state.update({ pad: { on: pad.on, available: !!pad.available } });
    if (!pad.available && state.pageMode === "gamepad") {
      notices.flash("pad", "<p>This computer makes no virtual gamepads, so games see the buttons as keys and mouse. " +
        "Start the host with <code>remotion host --gamepad dualsense</code> for a DualSense with gyro.</p>", 8000);
    }
    return;
  }
  const rumble = parseFeedbackMessage(text);
  if (rumble) { feedback.apply(rumble); return; }
  const labels = parseButtonsMessage(text);
  if (labels) { if (modes) modes.setLabels(labels); return; }
  const laserLine = parseLaserMessage(text);
  if (laserLine) {
    // Presenter mode: the computer cannot draw the dot, so the laser moves the pointer.
    if (state.pageMode === "presenter") notices.flash("laser", `<p>${escapeHtml(laserLine)}.</p>`, 8000);
    return;
  }
  const untyped = parseUntypedMessage(text);
  if (untyped) {
    notices.flash("untyped", `<p>Could not type “${escapeHtml(untyped.text)}”: ${escapeHtml(untyped.message)}.</p>`, 6000);
  }
}

// ── wiring ──────────────────────────────────────────────────────────────────────────────
function wire() {
  renderModes(document);                      // the mode bar and the panes, from page-modes.js
  pad = bindButtons(document, buttons, sendButtonEdge);
  modes = setupModes({
    doc: document, storage, state, host: location.host, clutch, paintClutch,
    send: (text) => !!conn && conn.sendText(text),
    beforeModeChange: releaseEverything,
    setAnalog: (a) => streamer.setAnalog(a),
    setTouch: (t) => streamer.setTouch(t),
    press: (key, index) => { const e = buttons.press(key, index); if (e) sendButtonEdge(e); },
    release: (key) => { const e = buttons.release(key); if (e) sendButtonEdge(e); },
  });
  state.subscribe(() => { render(); syncPad(); });
  modes.onPrefs(() => syncPad());
  $("start").addEventListener("click", () => { streamer.start(); });   // synchronously in the tap
  for (const b of document.querySelectorAll(".recenter")) b.addEventListener("click", () => {
    if (conn && conn.sendCommand("recenter")) state.update({ flash: { text: "Recentered: this direction is the centre now.", until: performance.now() + 1500 } });
  });
  for (const b of document.querySelectorAll(".mode-seg [data-mode]")) {
    b.addEventListener("click", () => {
      if (!conn || !state.conn || state.conn.mode === b.dataset.mode) return;
      if (conn.sendCommand("mode", b.dataset.mode)) state.update({ hostModePendingUntil: performance.now() + 2000 });
    });
  }
  $("menu-button").addEventListener("click", () => {
    const menu = $("menu"), open = menu.hidden;
    menu.hidden = !open;
    $("menu-button").setAttribute("aria-expanded", String(open));
    render();
  });
  $("retry").addEventListener("click", () => { if (conn) conn.retryNow(); closeMenu(); });
  calibration = new CalibrationPanel({ panel: $("calibration"), title: $("calibration-title"), detail: $("calibration-detail"),
                                       bar: $("calibration-progress"), close: $("calibration-close") }, window, render);
  $("calibrate").addEventListener("click", () => {
    closeMenu();
    if (conn && conn.sendCommand("calibrate")) calibration.asked();   // a second tap: the host goes on with the first
  });
  document.addEventListener("pointerdown", (e) => {
    if (!$("menu").hidden && !$("menu").contains(e.target) && !$("menu-button").contains(e.target)) closeMenu();
  });
  $("forget").addEventListener("click", () => {
    if (!confirm("Forget this computer? You will need to scan its QR code again.")) return;
    if (conn) { releaseEverything(); conn.stop(); conn = null; }
    forgetDevice(storage);
    state.device = null;
    closeMenu();
    showScreen("unpaired");
    setStatus("Not paired.");
  });

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") releaseEverything();
    else wake.visible();
  });
  // Leaving the page: release what is held (the edges go out before the close frame).
  window.addEventListener("pagehide", () => { releaseEverything(); if (conn) conn.stop(); });
  window.addEventListener("pageshow", (e) => { if (e.persisted && conn) conn.retryNow(); });
  window.addEventListener("blur", () => { if (document.visibilityState === "hidden") releaseEverything(); });

  setInterval(() => { streamer.updateRate(performance.now()); render(); }, 250);
}

function closeMenu() {
  $("menu").hidden = true;
  $("menu-button").setAttribute("aria-expanded", "false");
}

function installTestHook() {
  const hook = Object.freeze({
    state() {
      const s = conn ? conn.snapshot() : { status: "idle" };
      return Object.freeze({ ...s, screen: state.screen, buttons: buttons.bits, clutch: clutch.held,
                             pageMode: state.pageMode, labels: state.labels ? [...state.labels] : null,
                             laser: state.laserOn, pad: state.pad ? { ...state.pad } : null, gyroStick: state.gyroStick,
                             calibration: calibration && calibration.state ? { ...calibration.state } : null,
                             calibrationHistory: calibration ? calibration.history.map((c) => ({ ...c })) : [],
                             sensors: streamer.status, seq: streamer.seq, motionRate: streamer.rate, wakeLock: wake.held,
                             lane: conn && conn.ws && conn.ws.stats ? { ready: !!conn.ws.laneReady, ...conn.ws.stats } : null });
    },
    get sent() { return Object.freeze({ motion: streamer.sent, button: state.sentButtons, ...(modes ? modes.counts : {}) }); },
    get lastAttitude() { return streamer.lastAttitude ? Object.freeze({ ...streamer.lastAttitude }) : null; },
  });
  Object.defineProperty(window, "remotionTest", { value: hook, writable: false, configurable: false });
}

function safeStorage() {
  try { const s = window.localStorage; s.getItem("x"); return s; } catch { /* blocked */ }
  const m = new Map();
  return { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k) };
}

function init() {
  wire();
  installTestHook();
  secureContextNotice();
  const support = sensorSupport(window);
  if (!support.orientation && !support.motion) $("start-hint").textContent = "This browser has no motion sensors";
  const hadFragment = location.hash.length > 1;
  const frag = parsePairFragment(location.hash);
  if (hadFragment) history.replaceState(null, "", location.pathname + location.search);
  if (frag) { showPairing(frag); return; }
  state.device = loadDevice(storage);
  if (state.device) { startController(); return; }
  showScreen("unpaired");
  setStatus(hadFragment ? "This link has no valid pairing code. Scan the QR code again." : "Not paired.");
}

init();

/** "AB:CD:…" (32 bytes) → four lines of eight bytes, as easy to compare as the phone's screen. */
function formatCAFingerprint(text) {
  const bytes = text.trim().toUpperCase().split(":").filter(b => /^[0-9A-F]{2}$/.test(b));
  if (bytes.length !== 32) return "(could not read the CA fingerprint)";
  const lines = [];
  for (let i = 0; i < 32; i += 8) lines.push(bytes.slice(i, i + 8).join(":"));
  return lines.join("\n");
}
