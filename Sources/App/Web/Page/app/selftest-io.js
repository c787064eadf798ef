// selftest-io.js — self-checks of the parts that do I/O, run against fakes: the connection
// state machine (fake WebSocket, clock and timers) and the motion streamer (fake window).
// No DOM access. Imported by selftest.js.

import { Connection, backoffDelayMs, median, CONNECT_TIMEOUT_MS } from "./connection.js";
import { MotionStreamer, NO_DATA_AFTER_MS } from "./streamer.js";
import { ButtonState, HoldSet } from "./buttons.js";
import { decodeMotion } from "./protocol.js";
import { attitudeFromDeviceOrientation } from "./orientation.js";

// Fake clock + timers + sockets for the connection state machine.
function harness() {
  let now = 0, nextId = 1;
  const pending = new Map();   // id -> {at, fn, every}
  const timers = {
    setTimeout: (fn, ms) => { const id = nextId++; pending.set(id, { at: now + ms, fn, every: 0 }); return id; },
    clearTimeout: (id) => pending.delete(id),
    setInterval: (fn, ms) => { const id = nextId++; pending.set(id, { at: now + ms, fn, every: ms }); return id; },
    clearInterval: (id) => pending.delete(id),
  };
  const advance = (ms) => {
    const end = now + ms;
    for (let guard = 0; guard < 100000; guard++) {
      let best = null;
      for (const [id, p] of pending) if (p.at <= end && (!best || p.at < best[1].at)) best = [id, p];
      if (!best) break;
      const [id, p] = best;
      now = p.at;
      if (p.every) p.at += p.every; else pending.delete(id);
      p.fn();
    }
    now = end;
  };
  const sockets = [];
  class FakeSocket {
    constructor(url) { this.url = url; this.readyState = 0; this.sent = []; this.bufferedAmount = 0; sockets.push(this); }
    send(d) { this.sent.push(d); }
    close() { this.readyState = 3; }
    // host side
    accept() { this.readyState = 1; this.onopen && this.onopen(); }
    text(obj) { this.onmessage && this.onmessage({ data: typeof obj === "string" ? obj : JSON.stringify(obj) }); }
    binary(buf) { this.onmessage && this.onmessage({ data: buf }); }
    drop(reason = "") { this.readyState = 3; this.onclose && this.onclose({ code: 1006, reason }); }
  }
  const states = [];
  const conn = new Connection({ url: "wss://h:7476/ws", device: { id: "0123456789abcdef", credential: "c".repeat(43) },
                                createSocket: (u) => new FakeSocket(u), now: () => now, timers,
                                onState: (s) => states.push(s.status) });
  return { conn, sockets, advance, states, get now() { return now; } };
}
const welcome = { type: "welcome", host: "studio", session: "0a0b0c0d", mode: "pointer", timeout: 2.5 };

export function connectionChecks(t) {
  t("backoff 0.5 s doubling to 5 s", [1, 2, 3, 4, 5, 6, 20].map(backoffDelayMs).join(",") === "500,1000,2000,4000,5000,5000,5000");
  t("median", median([5, 1, 3]) === 3 && median([4, 1, 3, 2]) === 2.5 && Number.isNaN(median([])));

  { // happy path, ping/pong, then a silent host → timed out → reconnect after 0.5 s
    const h = harness();
    h.conn.start();
    const ws = h.sockets[0];
    t("start → connecting, socket to the /ws URL", h.conn.status === "connecting" && ws.url === "wss://h:7476/ws");
    ws.accept();
    const hello = JSON.parse(ws.sent[0]);
    t("first message is the hello (v 1, id, credential)", hello.type === "hello" && hello.v === 1 && hello.id === "0123456789abcdef" && hello.credential.length === 43);
    ws.text(welcome);
    const s = h.conn.snapshot();
    t("welcome → connected, host and mode shown", s.status === "connected" && s.host === "studio" && s.mode === "pointer" && s.session === "0a0b0c0d");
    const ping = ws.sent[1];
    t("a ping goes out at once", ping instanceof ArrayBuffer && new Uint8Array(ping)[0] === 0x03 && ping.byteLength === 16);
    h.advance(12);
    const echo = new Uint8Array(ping.slice(0)); echo[0] = 0x83;
    ws.binary(echo.buffer);
    t("pong after 12 ms → rtt 12 ms", h.conn.snapshot().rttMs === 12);
    h.advance(500);
    t("pings every 0.5 s", ws.sent.filter((d) => d instanceof ArrayBuffer).length === 2);
    ws.text({ type: "mode", mode: "fps" });
    t("mode message → mode fps", h.conn.snapshot().mode === "fps");
    t("motion is sent while connected", h.conn.sendBinary(new ArrayBuffer(52), true) === true);
    ws.bufferedAmount = 20000;
    t("motion is dropped while the socket is backed up; buttons are not",
      h.conn.sendBinary(new ArrayBuffer(52), true) === false && h.conn.sendBinary(new ArrayBuffer(8)) === true);
    ws.bufferedAmount = 0;
    h.advance(2000);                       // t = 2512: 2.5 s since the last pong at t = 12 ms
    t("no pong for 2.5 s → timed out", h.conn.status === "timed-out" && h.conn.snapshot().retryInMs === 500, `${h.conn.status} ${h.conn.snapshot().retryInMs}`);
    h.advance(499);
    t("…no new socket before 0.5 s", h.sockets.length === 1);
    h.advance(1);
    t("…reconnects after 0.5 s", h.sockets.length === 2 && h.conn.status === "connecting");
    // failures back off: 1 s, 2 s, 4 s, 5 s, 5 s
    const delays = [];
    for (let i = 0; i < 5; i++) {
      h.sockets[h.sockets.length - 1].drop();
      delays.push(h.conn.snapshot().retryInMs);
      h.advance(h.conn.snapshot().retryInMs);
    }
    t("repeated failures back off 1, 2, 4, 5, 5 s", delays.join(",") === "1000,2000,4000,5000,5000", delays.join(","));
    const last = h.sockets[h.sockets.length - 1];
    last.accept(); last.text(welcome);
    last.drop("gone");
    t("a welcome resets the backoff to 0.5 s", h.conn.status === "disconnected" && h.conn.snapshot().retryInMs === 500);
  }
  { // the host's [[profile]] in force: it may come before the welcome; a new socket forgets it
    const h = harness();
    h.conn.start();
    const ws = h.sockets[0];
    ws.accept();
    ws.text({ type: "profile", v: 1, app: "firefox", mode: "fps", sets_mode: true });
    ws.text({ ...welcome, mode: "fps" });
    let s = h.conn.snapshot();
    t("a profile before the welcome is kept: its app, and the mode it set",
      s.status === "connected" && s.mode === "fps" && s.profile && s.profile.app === "firefox" && s.profile.setsMode === true);
    ws.text({ type: "profile", v: 1, app: null, mode: "pointer", sets_mode: false });
    s = h.conn.snapshot();
    t("no profile: none shown, the page's own mode back", s.profile === null && s.mode === "pointer");
    ws.text({ type: "profile", v: 2, app: "gimp", mode: "fps", sets_mode: true });
    t("a profile message of another version is passed by", h.conn.snapshot().profile === null && h.conn.snapshot().mode === "pointer");
    ws.text({ type: "profile", v: 1, app: "gimp", mode: "pointer", sets_mode: false });
    ws.drop("gone");
    h.advance(h.conn.snapshot().retryInMs);
    t("a new socket: no profile until the host says", h.sockets.length === 2 && h.conn.snapshot().profile === null);
  }
  { // connect deadline
    const h = harness();
    h.conn.start();
    h.advance(CONNECT_TIMEOUT_MS - 1);
    t("socket not open yet → still connecting", h.conn.status === "connecting");
    h.advance(1);
    t("no welcome within 5 s → timed out, retry", h.conn.status === "timed-out" && h.conn.snapshot().retryInMs === 500);
  }
  for (const [reason, retries] of [["unknown", false], ["revoked", false], ["bad-hello", false], ["full", true]]) {
    const h = harness();
    h.conn.start();
    h.sockets[0].accept();
    h.sockets[0].text({ type: "refused", reason, message: "no: " + reason });
    const first = h.conn.snapshot();
    h.sockets[0].drop();
    h.advance(20000);
    const s = h.conn.snapshot();
    t(`refused (${reason}) → ${retries ? "retries" : "stays refused"} with the host's message`,
      first.status === "refused" && first.message === "no: " + reason && first.reason === reason &&
      (retries ? h.sockets.length > 1 && first.retryInMs === 500 : h.sockets.length === 1 && s.status === "refused"),
      `${s.status} sockets ${h.sockets.length}`);
  }
  { // host closing
    const h = harness();
    h.conn.start(); h.sockets[0].accept(); h.sockets[0].text(welcome);
    h.sockets[0].text({ type: "closing", reason: "shutdown", message: "host is stopping" });
    h.sockets[0].drop();
    const s = h.conn.snapshot();
    t("closing (shutdown) then close → disconnected with the message, retry", s.status === "disconnected" && s.message === "host is stopping" && s.retryInMs === 500);
    const h2 = harness();
    h2.conn.start(); h2.sockets[0].accept(); h2.sockets[0].text(welcome);
    h2.sockets[0].text({ type: "closing", reason: "revoked", message: "device removed" });
    h2.sockets[0].drop();
    h2.advance(20000);
    t("closing (revoked) → refused, no retry", h2.conn.status === "refused" && h2.sockets.length === 1 && h2.conn.message === "device removed");
  }
  { // stop() ends everything
    const h = harness();
    h.conn.start(); h.sockets[0].accept(); h.sockets[0].text(welcome);
    h.conn.stop();
    h.advance(20000);
    t("stop → stopped, socket closed, no retry", h.conn.status === "stopped" && h.sockets[0].readyState === 3 && h.sockets.length === 1);
  }
}


// A fake window for the streamer: clock, timers, listeners, screen angle, sensor classes.
function fakeWindow({ permission = null, angle = 0, secure = true, sensors = true } = {}) {
  let now = 1000;
  const timers = new Set(), listeners = {};
  const win = {
    isSecureContext: secure,
    performance: { now: () => now },
    setTimeout: (fn, ms) => { const t = { at: now + ms, fn }; timers.add(t); return t; },
    clearTimeout: (t) => timers.delete(t),
    addEventListener: (type, fn) => { (listeners[type] = listeners[type] || []).push(fn); },
    removeEventListener: (type, fn) => { listeners[type] = (listeners[type] || []).filter((f) => f !== fn); },
    screen: { orientation: { angle } },
  };
  if (sensors) {
    win.DeviceOrientationEvent = function DeviceOrientationEvent() {};
    win.DeviceMotionEvent = function DeviceMotionEvent() {};
    if (permission) win.DeviceMotionEvent.requestPermission = () => Promise.resolve(permission);
  }
  return {
    win,
    fire(type, e) { for (const f of listeners[type] || []) f({ timeStamp: now, ...e }); },
    advance(ms) {
      now += ms;
      for (const t of [...timers]) if (t.at <= now) { timers.delete(t); t.fn(); }
    },
    listening: () => (listeners.devicemotion || []).length + (listeners.deviceorientation || []).length,
  };
}

function streamerFor(fw, accept = () => true) {
  const frames = [], statuses = [];
  const buttons = new ButtonState(), clutch = new HoldSet();
  const s = new MotionStreamer({ win: fw.win, buttons, clutch, onStatus: (st) => statuses.push(st),
                                 send: (f) => { const ok = accept(f); if (ok) frames.push(decodeMotion(f)); return ok; } });
  return { s, frames, statuses, buttons, clutch };
}

export async function streamerChecks(t) {
  const near = (a, b) => a && b && Math.abs(a.roll - b.roll) < 1e-6 && Math.abs(a.pitch - b.pitch) < 1e-6 && Math.abs(a.yaw - b.yaw) < 1e-6;
  const motionEvent = { rotationRate: { alpha: 10, beta: 0, gamma: 0 }, accelerationIncludingGravity: { x: 0, y: 0, z: 9.80665 } };
  {
    const fw = fakeWindow({ permission: "granted" });
    const { s, frames, statuses, buttons, clutch } = streamerFor(fw);
    await s.start();
    t("granted → listening, waiting for data", s.status === "waiting" && fw.listening() === 2 && statuses.join() === "asking,waiting");
    fw.fire("deviceorientation", { alpha: 30, beta: 20, gamma: -40 });
    const want = attitudeFromDeviceOrientation(30, 20, -40, 0);
    t("orientation only → a frame per deviceorientation, attitude flag only, its timeStamp",
      s.status === "on" && frames.length === 1 && frames[0].flags === 1 && frames[0].timeMs === 1000 &&
      near(frames[0].attitude, want));
    fw.advance(16);
    fw.fire("devicemotion", motionEvent);
    const f = frames[1];
    t("devicemotion → a frame with gyro + accel + the latest attitude",
      frames.length === 2 && f.flags === 7 && Math.abs(f.gyro[0] - 10 * Math.PI / 180) < 1e-6 && Math.abs(f.accel[2] - 1) < 1e-6 &&
      f.timeMs === 1016 && near(f.attitude, want) && f.seq === 1);
    fw.advance(5);
    fw.fire("deviceorientation", { alpha: 31, beta: 20, gamma: -40 });
    t("while devicemotion flows, deviceorientation only updates the attitude", frames.length === 2);
    fw.advance(11);
    fw.fire("devicemotion", motionEvent);
    t("…which the next devicemotion frame carries", frames.length === 3 && near(frames[2].attitude, attitudeFromDeviceOrientation(31, 20, -40, 0)));
    fw.advance(300);
    fw.fire("deviceorientation", { alpha: 32, beta: 20, gamma: -40 });
    t("devicemotion silent for 250 ms → deviceorientation sends again", frames.length === 4 && frames[3].flags === 1);
    buttons.press("p1", 0); buttons.press("p2", 2); clutch.press("c");
    fw.fire("devicemotion", motionEvent);
    t("frames carry the full button state and the clutch bit", frames[4].buttons === 5 && frames[4].clutch && frames[4].flags === 15);
    fw.win.screen.orientation.angle = 90;
    fw.fire("devicemotion", motionEvent);
    t("a new screen angle applies to the next frame without a new orientation event",
      near(frames[5].attitude, attitudeFromDeviceOrientation(32, 20, -40, 90)) && Math.abs(frames[5].gyro[1] - 10 * Math.PI / 180) < 1e-6);
    fw.fire("devicemotion", { rotationRate: null, accelerationIncludingGravity: null });
    fw.fire("deviceorientation", { alpha: null, beta: null, gamma: null });
    t("empty sensor events send nothing", frames.length === 6);
    t("sequence numbers count frames: 0…5", frames.map((x) => x.seq).join() === "0,1,2,3,4,5" && s.sent === 6);
  }
  {
    const fw = fakeWindow({ permission: "granted" });
    let accept = false;
    const { s, frames } = streamerFor(fw, () => accept);
    await s.start();
    fw.fire("devicemotion", motionEvent);
    accept = true;
    fw.fire("devicemotion", motionEvent);
    t("a frame that could not be sent does not use a sequence number", frames.length === 1 && frames[0].seq === 0 && s.sent === 1);
  }
  {
    const fw = fakeWindow({ permission: "denied" });
    const { s } = streamerFor(fw);
    await s.start();
    t("permission denied → 'denied', no listeners", s.status === "denied" && fw.listening() === 0);
  }
  {
    const fw = fakeWindow();
    const { s } = streamerFor(fw);
    await s.start();
    fw.advance(NO_DATA_AFTER_MS - 1);
    const before = s.status;
    fw.advance(1);
    t("no permission API, no events → 'nodata' after 2.5 s", before === "waiting" && s.status === "nodata");
    fw.fire("devicemotion", motionEvent);
    t("…and 'on' when data comes after all", s.status === "on");
  }
  {
    const fw = fakeWindow({ sensors: false, secure: false });
    const { s } = streamerFor(fw);
    await s.start();
    t("no sensor API on an http page → 'insecure'", s.status === "insecure");
    const fw2 = fakeWindow({ sensors: false });
    const r = streamerFor(fw2);
    await r.s.start();
    t("no sensor API on an https page → 'unsupported'", r.s.status === "unsupported");
  }
}
