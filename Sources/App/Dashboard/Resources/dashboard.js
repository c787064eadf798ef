// Remotion host dashboard: renders the host's snapshots (WebSocket /ws, 20 Hz at most),
// sends mapping changes (POST /api/settings) and gyro calibration requests
// (POST /api/calibrate). No framework, no CDN.
"use strict";

const EDGES_MS = [0, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64];
const $ = (id) => document.getElementById(id);
const cards = new Map();       // session -> card element
let uptimeBase = 0;            // the host's uptime in the last snapshot (s)
let uptimeAt = 0;              // when that snapshot arrived (performance.now(), ms)
let lastLocalEdit = 0;         // ms timestamp of the user's last settings edit
let settingsFilled = false;

// This start's token (docs/SECURITY.md §5.3): `remotion dashboard` opens the page with it in
// the fragment (never sent in a request line); the page keeps it for the tab and drops it
// from the address bar. Writes send it as X-Remotion-Token, the WebSocket on its URL.
const TOKEN = (() => {
  const m = location.hash.match(/token=([A-Za-z0-9_-]+)/);
  if (m) {
    sessionStorage.setItem("remotion-dashboard-token", m[1]);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem("remotion-dashboard-token") || "";
})();
const WRITE_HEADERS = { "Content-Type": "application/json", "X-Remotion-Token": TOKEN };
// The tokened address opened in a tab that already shows the page changes only its fragment:
// start over with the token.
window.addEventListener("hashchange", () => { if (/token=/.test(location.hash)) location.reload(); });

function fmt(n, digits) { return Number.isFinite(n) ? n.toFixed(digits) : "-"; }

function duration(seconds) {
  const s = Math.floor(seconds), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  return (h ? h + "h " : "") + (h || m ? m + "m " : "") + (s % 60) + "s";
}

// Seed 002 (the rotating cube): eulerAngles = (-pitch, yaw, roll).
function turnCube(cube, attitude) {
  const [roll, pitch, yaw] = attitude || [0, 0, 0];
  cube.style.transform = `rotateX(${-pitch}rad) rotateY(${yaw}rad) rotateZ(${roll}rad)`;
  cube.dataset.roll = String(roll);
  cube.dataset.pitch = String(pitch);
  cube.dataset.yaw = String(yaw);
}

function cardFor(session) {
  let card = cards.get(session);
  if (!card) {
    card = $("controller-template").content.firstElementChild.cloneNode(true);
    card.dataset.session = session;
    card.querySelector(".cube").dataset.session = session;
    const hist = card.querySelector(".histogram");
    EDGES_MS.forEach((edge, i) => {
      const bar = document.createElement("div");
      bar.className = "bar";
      bar.title = i + 1 < EDGES_MS.length ? `${edge}–${EDGES_MS[i + 1]} ms` : `≥ ${edge} ms`;
      const label = document.createElement("span");
      label.textContent = i + 1 < EDGES_MS.length ? String(edge) : `${edge}+`;
      bar.appendChild(label);
      hist.appendChild(bar);
    });
    card.querySelector(".calibrate").addEventListener("click", () => calibrate(session));
    card.querySelector(".pad-toggle").addEventListener("click", () => setPad(session, card.dataset.pad !== "on"));
    $("controllers").appendChild(card);
    cards.set(session, card);
  }
  return card;
}

function renderController(c) {
  const card = cardFor(c.session);
  const q = (sel) => card.querySelector(sel);
  q(".name").textContent = c.name || "";
  q(".session").textContent = "session " + c.session;
  q(".state").textContent = c.state;
  card.dataset.state = c.state;
  q(".address").textContent = c.address;
  q(".rate").textContent = fmt(c.packetRate, 0) + "/s";
  q(".loss").textContent = fmt(c.lossPercent, 2) + " %";
  // null: not measured (no shared or estimated clock, e.g. a DSU app).
  q(".p50").textContent = c.latencyP50Ms == null ? "not measured" : fmt(c.latencyP50Ms, 2) + " ms";
  q(".p99").textContent = c.latencyP99Ms == null ? "not measured" : fmt(c.latencyP99Ms, 2) + " ms";
  const a = c.attitude;
  q(".attitude").textContent = a ? a.map((r) => fmt(r * 180 / Math.PI, 1) + "°").join(" / ") + " (roll/pitch/yaw)" : "-";
  q(".buttons").textContent = c.buttons || "-";
  q(".held").textContent = (c.held && c.held.length) ? c.held.join(" ") : "-";
  const gyro = q(".gyro");
  gyro.textContent = gyroSummary(c.gyro);
  gyro.dataset.calibration = c.gyro ? c.gyro.calibration : "none";
  q(".calibrate").disabled = !c.gyro || c.gyro.calibration === "off";
  // Residual drift at rest (°/min) and the calibration's age (s); absent until known.
  const drift = q(".drift");
  drift.textContent = driftSummary(c.gyro);
  drift.dataset.driftDegreesPerMinute = c.gyro && c.gyro.residualDriftDegreesPerMinute != null
    ? String(c.gyro.residualDriftDegreesPerMinute) : "";
  drift.dataset.calibrationAgeSeconds = c.gyro && c.gyro.calibrationAgeSeconds != null
    ? String(c.gyro.calibrationAgeSeconds) : "";
  // null: this host makes no pads (no --gamepad).
  q(".pad-row").hidden = c.pad == null;
  card.dataset.pad = c.pad ? "on" : "off";
  q(".pad").textContent = c.pad ? "virtual DualSense" : "none";
  q(".pad-toggle").textContent = c.pad ? "Take the pad" : "Give a pad";
  turnCube(q(".cube"), a);
  // The sample the attitude came from: its own time (controller's clock) and the host's.
  q(".cube").dataset.sampleMicros = c.sampleTimestampMicros == null ? "" : String(c.sampleTimestampMicros);
  q(".cube").dataset.sampleHostMicros = c.sampleHostMicros == null ? "" : String(c.sampleHostMicros);
  const counts = c.latencyHistogram || [];
  const top = Math.max(1, ...counts);
  q(".hist-max").textContent = String(Math.max(0, ...counts, 0));
  q(".histogram").querySelectorAll(".bar").forEach((bar, i) => {
    const n = counts[i] || 0;
    bar.style.height = (100 * n / top) + "%";
    bar.dataset.count = String(n);
  });
}

// The same words as the terminal view (GyroStatus.summary).
function gyroSummary(g) {
  if (!g) return "-";
  const pct = (f) => Math.floor(Math.min(Math.max(f, 0), 1) * 100) + "%";
  const signed = (v) => (v <= -0.005 ? "-" : "+") + Math.abs(v).toFixed(2);
  const parts = [{ off: "calibration off", uncalibrated: "uncalibrated",
    calibrating: "calibrating " + pct(g.progress), calibrated: "calibrated " + pct(g.confidence) }[g.calibration]];
  if (g.calibration === "calibrated") parts.push("bias " + g.biasDegreesPerSecond.map(signed).join(" ") + " °/s");
  if (g.still) parts.push("still");
  if (!g.clutchEngaged) parts.push("clutch off");
  if (g.fused) parts.push("fused on host");
  return parts.join(" · ");
}

// The same words as the terminal view's second gyro line (GyroStatus.driftSummary).
function driftSummary(g) {
  if (!g) return "-";
  const parts = [];
  if (g.residualDriftDegreesPerMinute != null) parts.push("drift " + fmt(g.residualDriftDegreesPerMinute, 2) + " °/min at rest");
  if (g.calibrationAgeSeconds != null) parts.push("calibrated " + age(g.calibrationAgeSeconds) + " ago");
  return parts.length ? parts.join(" · ") : "-";
}

// "12 s", "3 min", "5 h", "2 d" (GyroStatus.age).
function age(seconds) {
  const s = Math.max(0, seconds);
  if (s < 60) return Math.floor(s) + " s";
  if (s < 3600) return Math.floor(s / 60) + " min";
  if (s < 86400) return Math.floor(s / 3600) + " h";
  return Math.floor(s / 86400) + " d";
}

// "Pair a phone": the host opens a pairing window on its web controller and answers the
// link and its QR code (a PNG data URL).
async function pairPhone() {
  const url = $("pair-url");
  try {
    const response = await fetch("/api/web-pairing", {
      method: "POST", headers: WRITE_HEADERS, body: "{}",
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    $("pair-qr").src = body.qr;
    $("pair-qr").hidden = false;
    url.textContent = body.url;
    url.className = "hint url";
  } catch (e) {
    url.textContent = e.message;
    url.className = "hint error";
  }
}

async function calibrate(session) {
  const status = $("settings-status");
  try {
    const response = await fetch("/api/calibrate", {
      method: "POST", headers: WRITE_HEADERS, body: JSON.stringify({ session }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    status.textContent = `calibrating ${session}: hold it still`;
    status.className = "hint";
  } catch (e) {
    status.textContent = e.message;
    status.className = "hint error";
  }
}

async function setPad(session, on) {
  const status = $("settings-status");
  try {
    const response = await fetch("/api/pad", {
      method: "POST", headers: WRITE_HEADERS, body: JSON.stringify({ session, on }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    status.textContent = `${session}: ${body.pad ? "has a virtual DualSense" : "no pad"}`;
    status.className = "hint";
  } catch (e) {
    status.textContent = e.message;
    status.className = "hint error";
  }
}

const TRAIL_COLORS = ["#4fb3ff", "#ffb14f", "#4cd387", "#ff6b9d", "#c18bff"];

function drawTrails(controllers) {
  const canvas = $("trail"), ctx = canvas.getContext("2d");
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  let w = 1920, h = 1080;
  for (const c of controllers) for (const [x, y] of c.trail || []) { w = Math.max(w, x); h = Math.max(h, y); }
  const sx = canvas.width / w, sy = canvas.height / h;
  controllers.forEach((c, k) => {
    const trail = c.trail || [];
    if (!trail.length) return;
    ctx.strokeStyle = TRAIL_COLORS[k % TRAIL_COLORS.length];
    ctx.lineWidth = 2;
    ctx.beginPath();
    trail.forEach(([x, y], i) => (i ? ctx.lineTo(x * sx, y * sy) : ctx.moveTo(x * sx, y * sy)));
    ctx.stroke();
    const [x, y] = trail[trail.length - 1];
    ctx.fillStyle = ctx.strokeStyle;
    ctx.beginPath(); ctx.arc(x * sx, y * sy, 5, 0, 2 * Math.PI); ctx.fill();
  });
  canvas.dataset.points = String(controllers.reduce((n, c) => n + (c.trail || []).length, 0));
}

function renderSnapshot(s, generation) {
  document.body.dataset.generation = String(generation);
  $("host-name").textContent = s.hostName || "";
  $("host-listen").textContent = s.listen || "-";
  $("host-injector").textContent = s.injector || "-";
  uptimeBase = s.uptime || 0;
  uptimeAt = performance.now();
  showUptime();
  $("host-drops").textContent = String(Object.values(s.drops || {}).reduce((a, b) => a + b, 0));
  $("host-refused").textContent = String(Object.values(s.dashboardRefusals || {}).reduce((a, b) => a + b, 0));
  const controllers = s.controllers || [];
  $("controller-count").textContent = String(controllers.length);
  $("no-controllers").hidden = controllers.length > 0;
  const present = new Set(controllers.map((c) => c.session));
  for (const [session, card] of cards) if (!present.has(session)) { card.remove(); cards.delete(session); }
  controllers.forEach(renderController);
  drawTrails(controllers);
  renderLocalPads(s.localPads);
  renderProfiles(s.profiles || [], s.focusedApp, controllers);   // profiles.js: the editor
}

/** `remotion host --local-pads`: the pads read, and the nodes skipped with why and the fix. */
function renderLocalPads(pads) {
  $("local-pads").hidden = !pads;
  if (!pads) return;
  const item = (text, cls) => { const li = document.createElement("li"); li.textContent = text; if (cls) li.className = cls; return li; };
  const reading = (pads.reading || []).map((p) => item(`${p.name}: ${p.motionNode}` + (p.gamepadNode ? ` and ${p.gamepadNode}` : "")
    + ` (${p.driver} axes${p.grabbed ? ", only Remotion reads it" : ""}${p.rumble ? ", rumble" : ", no rumble"})`));
  $("local-pads-reading").replaceChildren(...(reading.length ? reading : [item("No gamepad with motion sensors is read.", "hint")]));
  $("local-pads-skipped").replaceChildren(...(pads.skipped || []).map((k) => item(`Not read: ${k.node} (${k.name}): ${k.reason}`, "skipped")));
}

// The host publishes only while something changes; the page keeps counting between snapshots.
function showUptime() {
  $("host-uptime").textContent = duration(uptimeBase + (uptimeAt ? (performance.now() - uptimeAt) / 1000 : 0));
}
setInterval(showUptime, 1000);

function fillSelect(select, choices, value) {
  if (select.options.length !== choices.length) {
    select.replaceChildren(...choices.map((c) => new Option(c, c)));
  }
  select.value = value;
}

function renderSettings(view) {
  if (!view) return;
  if (settingsFilled && Date.now() - lastLocalEdit < 1000) return;  // the user is editing
  settingsFilled = true;
  document.querySelectorAll("#settings select").forEach((el) =>
    fillSelect(el, view.choices[el.dataset.key] || [], view.values[el.dataset.key]));
  document.querySelectorAll("#settings input[type=text], #settings input[type=number]").forEach((el) => {
    if (document.activeElement !== el) el.value = view.values[el.dataset.key];
  });
  const slider = $("setting-sensitivity");
  if (document.activeElement !== slider) slider.value = view.values.sensitivity;
  $("sensitivity-value").textContent = view.values.sensitivity;
  document.body.dataset.sensitivity = view.values.sensitivity;
}

async function sendSetting(key, value) {
  lastLocalEdit = Date.now();
  const status = $("settings-status");
  try {
    const response = await fetch("/api/settings", {
      method: "POST", headers: WRITE_HEADERS,
      body: JSON.stringify({ key, value: String(value) }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    status.textContent = `${key} = ${body.values[key]}`;
    status.className = "hint";
    lastLocalEdit = 0;
    renderSettings(body);
  } catch (e) {
    status.textContent = e.message;
    status.className = "hint error";
  }
}

function connect() {
  const link = $("link");
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?token=${TOKEN}`);
  ws.onopen = () => { link.textContent = "live"; link.className = "link up"; link.dataset.state = "open"; };
  ws.onmessage = (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "snapshot") { renderSnapshot(m.snapshot, m.generation); renderSettings(m.settings); }
    else if (m.type === "settings") renderSettings(m.settings);
    else if (m.type === "error") { $("settings-status").textContent = m.error; $("settings-status").className = "hint error"; }
  };
  ws.onclose = () => {
    if (!TOKEN) {
      link.textContent = "open with `remotion dashboard`"; link.className = "link down"; link.dataset.state = "no-token";
      return;
    }
    link.textContent = "reconnecting…"; link.className = "link down"; link.dataset.state = "closed";
    setTimeout(connect, 1000);
  };
}

document.querySelectorAll("#settings select, #settings input[type=text], #settings input[type=number]").forEach((el) =>
  el.addEventListener("change", () => sendSetting(el.dataset.key, el.value)));
const slider = $("setting-sensitivity");
slider.addEventListener("input", () => { lastLocalEdit = Date.now(); $("sensitivity-value").textContent = slider.value; });
slider.addEventListener("change", () => sendSetting("sensitivity", slider.value));
fetch("/api/settings").then((r) => r.json()).then(renderSettings).catch(() => {});
$("pair-phone").addEventListener("click", pairPhone);
connect();
