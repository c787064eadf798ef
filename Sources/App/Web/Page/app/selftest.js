// selftest.js — checks of the page's pure modules: orientation math, frame encoding,
// button state, pairing helpers; selftest-io.js adds the connection state machine and the
// motion streamer (fake socket, window and clock).
// `run()` resolves to [{name, ok, detail}]. Used by selftest.html and, under node, by
// test/run-selftest.mjs. No DOM access.

import { transportChecks } from "./selftest-transport.js";
import { laneChecks } from "./selftest-lanes.js";
import * as O from "./orientation.js";
import * as P from "./protocol.js";
import { profileNote } from "./profile.js";
import { ButtonState, HoldSet } from "./buttons.js";
import { connectionChecks, streamerChecks } from "./selftest-io.js";
import { modeChecks, feedbackChecks, noticeChecks } from "./selftest-modes.js";
import { calibrationChecks } from "./selftest-calibration.js";
import { parsePairFragment, sanitizeName, proposeDeviceName, loadDevice, saveDevice, pair, STORAGE_KEY } from "./pairing.js";

const D = Math.PI / 180;

// ── independent reference math: plain 3×3 matrices, no quaternions ─────────────────────────
function mul(a, b) {
  const r = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) r[i][j] += a[i][k] * b[k][j];
  return r;
}
const Rx = (t) => [[1, 0, 0], [0, Math.cos(t), -Math.sin(t)], [0, Math.sin(t), Math.cos(t)]];
const Ry = (t) => [[Math.cos(t), 0, Math.sin(t)], [0, 1, 0], [-Math.sin(t), 0, Math.cos(t)]];
const Rz = (t) => [[Math.cos(t), -Math.sin(t), 0], [Math.sin(t), Math.cos(t), 0], [0, 0, 1]];
/** W3C: R = Rz(α)Rx(β)Ry(γ), then the screen frame: R·Rz(−θ). */
const w3cScreenMatrix = (a, b, g, th) => mul(mul(mul(Rz(a * D), Rx(b * D)), Ry(g * D)), Rz(-th * D));
/** CoreMotion attitude → matrix Rz(yaw)Rx(pitch)Ry(roll). */
const attitudeMatrix = (t) => mul(mul(Rz(t.yaw), Rx(t.pitch)), Ry(t.roll));
const maxDiff = (a, b) => Math.max(...a.flat().map((v, i) => Math.abs(v - b.flat()[i])));
const angleDiff = (a, b) => Math.abs(O.wrapPi(a - b));

function mulberry32(seed) {
  return () => {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hex(s) { return s.replace(/\s+/g, " ").trim(); }

// ── the checks ────────────────────────────────────────────────────────────────────────────
function orientationChecks(t) {
  const att = (a, b, g, th = 0) => O.attitudeFromDeviceOrientation(a, b, g, th);
  const expectDeg = (name, got, roll, pitch, yaw, tol = 1e-9) => {
    const ok = got && angleDiff(got.roll, roll * D) < tol && angleDiff(got.pitch, pitch * D) < tol && angleDiff(got.yaw, yaw * D) < tol;
    t(name, ok, got ? `got roll ${(got.roll / D).toFixed(4)} pitch ${(got.pitch / D).toFixed(4)} yaw ${(got.yaw / D).toFixed(4)}; want ${roll} ${pitch} ${yaw}` : "got null");
  };
  expectDeg("flat, screen up, portrait → 0/0/0", att(0, 0, 0), 0, 0, 0);
  expectDeg("alpha 30 → yaw +30° (turned left)", att(30, 0, 0), 0, 0, 30);
  expectDeg("alpha 350 → yaw −10°", att(350, 0, 0), 0, 0, -10);
  expectDeg("beta 20 → pitch +20° (top edge up)", att(0, 20, 0), 0, 20, 0);
  expectDeg("gamma −40 → roll −40°", att(0, 0, -40), -40, 0, 0);
  expectDeg("alpha 30 beta 20 gamma −40 → roll −40 pitch 20 yaw 30", att(30, 20, -40), -40, 20, 30);
  expectDeg("beta 120 gamma 10 (screen facing down) → other branch: roll −170 pitch 60 yaw 180", att(0, 120, 10), -170, 60, 180);
  expectDeg("alpha 90 beta −150 → roll 180 pitch −30 yaw −90", att(90, -150, 0), 180, -30, -90);
  expectDeg("gimbal lock beta 90, alpha 40 → roll 0 pitch 90 yaw 40", att(40, 90, 0), 0, 90, 40);
  expectDeg("landscape (angle 90), flat → yaw −90°", att(0, 0, 0, 90), 0, 0, -90);
  expectDeg("landscape (angle 270), flat → yaw +90°", att(0, 0, 0, 270), 0, 0, 90);
  expectDeg("window.orientation −90 ≡ 270", att(0, 0, 0, -90), 0, 0, 90);
  expectDeg("upside down (angle 180), beta 20 → pitch −20 yaw 180", att(0, 20, 0, 180), 0, -20, 180);
  expectDeg("landscape 90, gamma −20 (screen's top edge up) → pitch +20", att(0, 0, -20, 90), 0, 20, -90);
  expectDeg("landscape 90, beta 20 (screen's left edge up) → roll +20", att(0, 20, 0, 90), 20, 0, -90);
  t("beta or gamma null → no attitude", att(10, null, 3) === null && att(10, 4, null) === null);
  expectDeg("alpha null → yaw 0 (no heading source)", att(null, 10, 0), 0, 10, 0);

  // Property: the attitude's matrix equals the W3C matrix (independent 3×3 code), ranges hold.
  const rnd = mulberry32(20261123);
  let worst = 0, rangeOk = true, n = 0;
  for (let i = 0; i < 3000; i++) {
    const a = rnd() * 360, b = rnd() * 360 - 180, g = rnd() * 180 - 90, th = [0, 90, 180, 270][i % 4];
    const r = att(a, b, g, th);
    worst = Math.max(worst, maxDiff(attitudeMatrix(r), w3cScreenMatrix(a, b, g, th)));
    rangeOk = rangeOk && Math.abs(r.pitch) <= Math.PI / 2 && r.roll > -Math.PI && r.roll <= Math.PI &&
              r.yaw > -Math.PI && r.yaw <= Math.PI;
    n++;
  }
  t(`${n} random poses: Rz(yaw)Rx(pitch)Ry(roll) = Rz(α)Rx(β)Ry(γ)Rz(−θ)`, worst < 1e-9, `max |Δ| = ${worst.toExponential(2)}`);
  t("ranges: pitch ∈ [−π/2, π/2], roll and yaw ∈ (−π, π]", rangeOk);

  // Near the lock the reconstruction still matches.
  let worstLock = 0;
  for (const b of [89.9999, 90, 90.0001, -89.9999, -90]) {
    for (const g of [-30, 0, 45]) worstLock = Math.max(worstLock, maxDiff(attitudeMatrix(att(25, b, g)), w3cScreenMatrix(25, b, g, 0)));
  }
  t("near gimbal lock (|beta| ≈ 90) the matrix still matches", worstLock < 1e-6, `max |Δ| = ${worstLock.toExponential(2)}`);

  // Gyro and acceleration frames.
  const v = (got, want) => got && got.every((x, i) => Math.abs(x - want[i]) < 1e-12);
  const rate = { alpha: 10, beta: 20, gamma: 30 };
  t("rotationRate alpha/beta/gamma (deg/s about x/y/z) → gyro [x, y, z] rad/s, portrait", v(O.gyroFromRotationRate(rate, 0), [10 * D, 20 * D, 30 * D]));
  t("gyro, landscape 90: x_S = −y_D, y_S = x_D", v(O.gyroFromRotationRate(rate, 90), [-20 * D, 10 * D, 30 * D]));
  t("gyro, angle 180", v(O.gyroFromRotationRate(rate, 180), [-10 * D, -20 * D, 30 * D]));
  t("gyro, angle 270", v(O.gyroFromRotationRate(rate, 270), [20 * D, -10 * D, 30 * D]));
  t("gyro null / partial → null", O.gyroFromRotationRate(null, 0) === null && O.gyroFromRotationRate({ alpha: 1, beta: null, gamma: 2 }, 0) === null);
  t("accelerationIncludingGravity 9.80665 m/s² on z → 1 g", v(O.accelFromIncludingGravity({ x: 0, y: 0, z: 9.80665 }, 0), [0, 0, 1]));
  t("acceleration keeps the browser's sign, rotated like the gyro (angle 90)",
    v(O.accelFromIncludingGravity({ x: 9.80665, y: -19.6133, z: 0 }, 90), [2, 1, 0]));

  // Consistency: gyro in the screen frame is the angular velocity of the screen attitude.
  let worstW = 0;
  const rnd2 = mulberry32(7);
  for (let i = 0; i < 200; i++) {
    const a = rnd2() * 360, b = rnd2() * 160 - 80, g = rnd2() * 160 - 80, th = [0, 90, 180, 270][i % 4];
    const wD = [rnd2() * 4 - 2, rnd2() * 4 - 2, rnd2() * 4 - 2];          // rad/s, device frame
    const dt = 1e-4, q0 = O.quatFromDeviceOrientation(a, b, g);
    const ang = Math.hypot(...wD) * dt, ax = wD.map((x) => x / Math.hypot(...wD));
    const step = { w: Math.cos(ang / 2), x: ax[0] * Math.sin(ang / 2), y: ax[1] * Math.sin(ang / 2), z: ax[2] * Math.sin(ang / 2) };
    const q1 = O.quatMultiply(q0, step);                                  // body-frame rotation
    const s0 = O.quatToScreen(q0, th), s1 = O.quatToScreen(q1, th);
    const d = O.quatMultiply({ w: s0.w, x: -s0.x, y: -s0.y, z: -s0.z }, s1);
    const wS = [d.x, d.y, d.z].map((x) => (2 * x * Math.sign(d.w || 1)) / dt);
    const want = O.vectorToScreen(wD, th);
    worstW = Math.max(worstW, ...want.map((x, k) => Math.abs(x - wS[k])));
  }
  t("gyro_S = Rz(θ)·gyro_D is the screen attitude's angular velocity (200 cases)", worstW < 1e-6, `max |Δ| = ${worstW.toExponential(2)} rad/s`);
}

function protocolChecks(t) {
  const m = P.encodeMotion({ seq: 5, timeMs: 1000, buttons: 0b101, clutch: true,
                             attitude: { roll: 0.5, pitch: -0.25, yaw: 1 }, gyro: [1, -2, 0.5], accel: [0, 0, 1] });
  const want = hex(`01 0f 05 00 05 00 00 00  00 00 00 00 00 40 8f 40
    00 00 00 3f  00 00 80 be  00 00 80 3f   00 00 80 3f  00 00 00 c0  00 00 00 3f
    00 00 00 00  00 00 00 00  00 00 80 3f`);
  t("MOTION golden (52 bytes, flags 0x0f, A+C, seq 5, t 1000 ms)", m.byteLength === 52 && P.toHex(m) === want, P.toHex(m));
  const bare = P.encodeMotion({ seq: 0xffffffff, timeMs: 0, buttons: 0x8000 });
  t("MOTION without blocks: flags 0, zeros, P = bit 15, seq u32 max",
    P.toHex(bare) === hex("01 00 00 80 ff ff ff ff" + " 00".repeat(44)), P.toHex(bare));
  const pad = P.encodeMotion({ seq: 1, timeMs: 0, buttons: 0, analog: { lx: 1, ly: -1, rx: 0, ry: -1.5, l2: 0, r2: 1 } });
  t("MOTION with the Gamepad mode's sticks and triggers: 64 bytes, flag 0x10 (the host's golden; −1.5 clamped)",
    pad.byteLength === 64 && P.toHex(pad) === hex("01 10 00 00 01 00 00 00" + " 00".repeat(44) + " ff 7f 01 80 00 00 01 80 00 00 ff ff"),
    P.toHex(pad));
  const both = P.encodeMotion({ seq: 1, timeMs: 0, buttons: 0, analog: { lx: 1, ly: -1, rx: 0, ry: -1.5, l2: 0, r2: 1 },
                                touch: [{ id: 1, x: 1, y: 1 }, { id: 130, x: -1, y: 0 }] });
  t("MOTION with the touchpad's two fingers: 76 bytes, flags 0x30, after the analog block (the host's golden; −1 clamped, id 7 bits)",
    both.byteLength === 76 && P.toHex(both) === hex("01 30 00 00 01 00 00 00" + " 00".repeat(44)
      + " ff 7f 01 80 00 00 01 80 00 00 ff ff" + " 81 00 ff ff ff ff 82 00 00 00 00 00"), P.toHex(both));
  const finger = P.encodeMotion({ seq: 1, timeMs: 0, buttons: 0, touch: [{ id: 3, x: 0.5, y: 0 }] });
  t("MOTION with one finger and no sticks: 64 bytes, flag 0x20, the block right after the base",
    finger.byteLength === 64 && P.toHex(finger) === hex("01 20 00 00 01 00 00 00" + " 00".repeat(44)
      + " 83 00 00 80 00 00 00 00 00 00 00 00"), P.toHex(finger));
  const second = P.encodeMotion({ seq: 1, timeMs: 0, buttons: 0, touch: [null, { id: 5, x: 1, y: 0.5 }] });
  t("MOTION with the second slot's finger alone (the first lifted): the first slot all zeros",
    second.byteLength === 64 && P.toHex(second) === hex("01 20 00 00 01 00 00 00" + " 00".repeat(44)
      + " 00 00 00 00 00 00 85 00 ff ff 00 80"), P.toHex(second));
  const d = P.decodeMotion(m);
  t("MOTION decodes back", d && d.seq === 5 && d.buttons === 5 && d.clutch && d.timeMs === 1000 &&
    d.attitude.pitch === -0.25 && d.gyro[1] === -2 && d.accel[2] === 1);
  t("BUTTON golden: C down, state A+C", P.toHex(P.encodeButton(2, true, 5)) === "02 02 01 00 05 00 00 00");
  t("BUTTON golden: P up, state 0", P.toHex(P.encodeButton(15, false, 0)) === "02 0f 00 00 00 00 00 00");
  let threw = false;
  try { P.encodeButton(16, true, 0); } catch { threw = true; }
  t("BUTTON index 16 is rejected", threw);
  const ping = P.encodePing(0x01020304, 1.5);
  t("PING golden: nonce 0x01020304, 1.5 ms", P.toHex(ping) === "03 00 00 00 04 03 02 01 00 00 00 00 00 00 f8 3f", P.toHex(ping));
  const pingRtt = P.encodePing(7, 2.0, 1.25);
  t("PING carries the page's RTT in 0.1 ms (1.25 ms → 13 = 0x000d)", P.toHex(pingRtt).startsWith("03 00 0d 00 07 00 00 00"), P.toHex(pingRtt));
  const pong = new Uint8Array(ping.slice(0)); pong[0] = 0x83;
  const pd = P.decodePong(pong.buffer);
  t("PONG (ping echoed with 0x83) decodes", pd && pd.nonce === 0x01020304 && pd.timeMs === 1.5);
  t("a PING is not a PONG; short frames rejected", P.decodePong(ping) === null && P.decodePong(new ArrayBuffer(8)) === null);
  t("hello JSON", P.helloMessage("0123456789abcdef", "Zm9v") === '{"type":"hello","v":1,"id":"0123456789abcdef","credential":"Zm9v"}');
  t("commands JSON", P.recenterCommand() === '{"type":"command","command":"recenter"}' &&
    P.modeCommand("fps") === '{"type":"command","command":"mode","mode":"fps"}');
  const w = P.parseHostMessage('{"type":"welcome","host":"studio","session":"0a0b0c0d","mode":"fps","timeout":2.5}');
  t("welcome parsed", w.type === "welcome" && w.host === "studio" && w.mode === "fps" && w.timeout === 2.5 && w.session === "0a0b0c0d");
  const r = P.parseHostMessage('{"type":"refused","reason":"revoked","message":"removed on the host"}');
  t("refused parsed", r.type === "refused" && r.reason === "revoked" && r.message === "removed on the host");
  t("mode / closing / junk", P.parseHostMessage('{"type":"mode","mode":"pointer"}').mode === "pointer" &&
    P.parseHostMessage('{"type":"closing","reason":"shutdown","message":"bye"}').reason === "shutdown" &&
    P.parseHostMessage("not json").type === "invalid" && P.parseHostMessage('{"type":"mode","mode":"x"}').type === "invalid");
  const pr = P.parseHostMessage('{"type":"profile","v":1,"app":"firefox","mode":"fps","sets_mode":true}');
  t("profile parsed (v 1)", pr.type === "profile" && pr.app === "firefox" && pr.mode === "fps" && pr.setsMode === true);
  const none = P.parseHostMessage('{"type":"profile","v":1,"app":null,"mode":"pointer","sets_mode":false}');
  t("… none in force", none.type === "profile" && none.app === null && none.mode === "pointer" && none.setsMode === false);
  t("… another version, a bad mode or app: not a profile",
    P.parseHostMessage('{"type":"profile","v":2,"app":"a","mode":"fps"}').type === "invalid" &&
    P.parseHostMessage('{"type":"profile","app":"a","mode":"fps"}').type === "invalid" &&
    P.parseHostMessage('{"type":"profile","v":1,"app":"a","mode":"seed"}').type === "invalid" &&
    P.parseHostMessage('{"type":"profile","v":1,"app":7,"mode":"fps"}').type === "invalid");
  t("the profile's note: the app and the mode it set, or that it is in force, or nothing",
    profileNote({ app: "firefox", setsMode: true }, "fps") === "FPS mode: set by the host's profile for firefox" &&
    profileNote({ app: "gimp", setsMode: false }, "pointer") === "The host's profile for gimp is in force" &&
    profileNote(null, "fps") === "");
}

function buttonChecks(t) {
  const s = new ButtonState();
  const e1 = s.press("p1", 0), e2 = s.press("p2", 2), e3 = s.press("p3", 0);
  t("hold A, tap C: two down edges, state A+C", e1.down && e1.state === 1 && e2.index === 2 && e2.state === 5 && e3 === null);
  t("release of one of two fingers on A: no edge", s.release("p1") === null && s.bits === 5);
  const u = s.release("p3");
  t("last finger off A: up edge, state C", u && !u.down && u.index === 0 && u.state === 4);
  t("same pointer cannot press twice; unknown pointer release is ignored", s.press("p2", 5) === null && s.release("zz") === null);
  s.press("p9", 15);
  const all = s.releaseAll();
  t("releaseAll: up edges C then P, state 0", all.length === 2 && all[0].index === 2 && all[1].index === 15 && all[1].state === 0 && s.bits === 0);
  const h = new HoldSet();
  t("clutch: held while any pointer holds it", h.press("a") === true && h.press("b") === false && h.release("a") === false &&
    h.held && h.release("b") === true && !h.held);
}

async function pairingChecks(t) {
  const secret = "AAECAwQFBgcICQoLDA0ODw"; // 16 bytes base64url (22 chars)
  const f = parsePairFragment(`#pair=${secret}&fp=0A1B-2c3d-4e5f-6071-8293-a4b5-c6d7-e8f9`);
  t("fragment → secret + fingerprint (lower-case)", f && f.secret === secret && f.fingerprint === "0a1b-2c3d-4e5f-6071-8293-a4b5-c6d7-e8f9");
  t("short / bad secrets rejected", parsePairFragment("#pair=abc") === null && parsePairFragment("#pair=" + "a".repeat(21) + "+") === null &&
    parsePairFragment("") === null && parsePairFragment("#fp=0a1b") === null);
  t("bad fingerprint kept as null", parsePairFragment(`#pair=${secret}&fp=zz`).fingerprint === null);
  t("name: trimmed, control chars gone, ≤ 64 code points", sanitizeName("  My\u0007 phone \n") === "My phone" &&
    Array.from(sanitizeName("😀".repeat(80))).length === 64 && sanitizeName("   ") === "Web controller");
  t("proposed names", proposeDeviceName("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)") === "iPhone" &&
    proposeDeviceName("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit") === "Pixel 8" &&
    proposeDeviceName("Mozilla/5.0 (Linux; Android 10; K) AppleWebKit") === "Android phone" &&
    proposeDeviceName("Mozilla/5.0 (X11; Linux x86_64)") === "Web controller");
  const mem = new Map();
  const store = { getItem: (k) => (mem.has(k) ? mem.get(k) : null), setItem: (k, v) => mem.set(k, v), removeItem: (k) => mem.delete(k) };
  const dev = { id: "0123456789abcdef", credential: "q".repeat(43), host: "studio" };
  t("device stored under remotion.device and loaded back", saveDevice(store, dev) && JSON.parse(mem.get(STORAGE_KEY)).id === dev.id &&
    loadDevice(store).credential === dev.credential);
  mem.set(STORAGE_KEY, '{"id":"xyz","credential":"a"}');
  t("invalid stored device → null", loadDevice(store) === null);

  let seen = null;
  const ok = await pair({ secret, name: "Phone" }, async (url, o) => {
    seen = { url, o, body: JSON.parse(o.body) };
    return { status: 200, json: async () => ({ id: dev.id, credential: dev.credential, host: "studio" }) };
  });
  t("POST /api/pair: JSON body {secret, name}, 200 → device", ok.ok && ok.device.host === "studio" && seen.url === "/api/pair" &&
    seen.o.method === "POST" && seen.o.headers["Content-Type"] === "application/json" && seen.body.secret === secret && seen.body.name === "Phone");
  const no = await pair({ secret, name: "x" }, async () => ({ status: 403, json: async () => ({ error: "expired pairing code" }) }));
  t("403 → the host's one-line error", !no.ok && no.error.startsWith("expired pairing code"));
  const down = await pair({ secret, name: "x" }, async () => { throw new TypeError("Failed to fetch"); });
  t("network failure → a sentence", !down.ok && /Cannot reach the host/.test(down.error));
  // The computer must accept the phone: 202 + ticket, polls until 200 (or 403 refused).
  const calls = [];
  let waitingCode = null;
  const answers = [
    { status: 202, json: async () => ({ ticket: "T1", code: "4821" }) },
    { status: 202, json: async () => ({ code: "4821" }) },
    { status: 200, json: async () => ({ id: dev.id, credential: dev.credential, host: "studio" }) },
  ];
  const waited = await pair({ secret, name: "Phone" }, async (url, o) => { calls.push([url, JSON.parse(o.body)]); return answers.shift(); },
                             "/api/pair", { onWaiting: (c) => { waitingCode = c; }, sleep: async () => {} });
  t("202 → waits for the computer (code shown), polls /api/pair/wait with the ticket, 200 → device",
    waited.ok && waitingCode === "4821" && calls.length === 3 && calls[1][0] === "/api/pair/wait" && calls[2][1].ticket === "T1");
  const refusedAnswers = [
    { status: 202, json: async () => ({ ticket: "T2", code: "0007" }) },
    { status: 403, json: async () => ({ error: "the computer said no to this phone" }) },
  ];
  const refused = await pair({ secret, name: "Phone" }, async () => refusedAnswers.shift(), "/api/pair", { sleep: async () => {} });
  t("the computer refuses → its sentence", !refused.ok && refused.error.startsWith("the computer said no"));
}

export async function run() {
  const results = [];
  const t = (name, ok, detail = "") => results.push({ name, ok: !!ok, detail: String(detail) });
  const groups = [["orientation", orientationChecks], ["protocol", protocolChecks], ["buttons", buttonChecks],
                  ["pairing", pairingChecks], ["connection", connectionChecks], ["streamer", streamerChecks],
                  ["modes", modeChecks], ["feedback", feedbackChecks], ["transport", transportChecks],
                  ["lanes", laneChecks], ["calibration", calibrationChecks], ["notices", noticeChecks]];
  for (const [group, fn] of groups) {
    try {
      await fn((name, ok, detail) => t(`${group}: ${name}`, ok, detail));
    } catch (e) {
      t(`${group}: threw`, false, (e && e.stack) || e);
    }
  }
  return results;
}
