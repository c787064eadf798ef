// connection.js — the controller's connection (a WebSocket, or data channels that look like
// one: transport.js): hello/welcome, ping/pong, timeouts, reconnect.
// No DOM. The socket factory, clock and timers are parameters, so the state machine runs
// under node with a fake socket and a fake clock (see selftest.js).
//
// States: "connecting" → "connected"; then, on trouble, "timed-out" (no welcome or pong in
// time), "disconnected" (socket closed / failed, host closing) or "refused" (host said no);
// the first two retry after a backoff of 0.5 s doubling to 5 s (reset by a welcome).
// "refused" retries only for reason "full". "stopped" after stop().

import { encodePing, decodePong, helloMessage, parseHostMessage, modeCommand, recenterCommand, padCommand, gyroStickCommand, calibrateCommand } from "./protocol.js";

export const PING_INTERVAL_MS = 500;
export const DEFAULT_TIMEOUT_MS = 2500;
export const CONNECT_TIMEOUT_MS = 5000;       // socket open + welcome
export const MAX_BUFFERED_BYTES = 16 * 1024;  // above this, droppable (motion) frames are skipped
const RETRY_REFUSALS = new Set(["full"]);

/** Backoff before retry number `failures` (1-based): 0.5, 1, 2, 4, 5, 5, … seconds. */
export function backoffDelayMs(failures) {
  const n = Math.max(1, Math.floor(failures));
  return Math.min(5000, 500 * 2 ** Math.min(n - 1, 10));
}

/** Median of a list of numbers (mean of the middle two for even lengths); NaN if empty. */
export function median(values) {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b), m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The last `size` round-trip times. */
export class RttWindow {
  constructor(size = 9) { this.size = size; this.values = []; }
  add(ms) { this.values.push(ms); if (this.values.length > this.size) this.values.shift(); }
  clear() { this.values = []; }
  get median() { return median(this.values); }
}

export class Connection {
  /**
   * @param {object} o
   * @param {string} o.url                 wss://host:port/ws
   * @param {{id:string, credential:string}} o.device
   * @param {string} [o.host]               host name known from pairing (until a welcome)
   * @param {(url:string)=>WebSocket} [o.createSocket]
   * @param {()=>number} [o.now]            ms, same clock as event timeStamps
   * @param {{setTimeout:Function, clearTimeout:Function, setInterval:Function, clearInterval:Function}} [o.timers]
   * @param {(snapshot:object)=>void} [o.onState]
   */
  constructor(o) {
    this.url = o.url;
    this.device = o.device;
    this.createSocket = o.createSocket || ((u) => new WebSocket(u));
    this.now = o.now || (() => performance.now());
    this.timers = o.timers || globalThis;
    this.onState = o.onState || (() => {});
    this.onMessage = o.onMessage || (() => {});   // host text messages this file does not handle
    this.ws = null;
    this.status = "idle";
    this.host = o.host || "";
    this.session = "";
    this.mode = null;
    this.profile = null;       // the host's [[profile]] in force: {app, setsMode}, null: none
    this.message = "";
    this.reason = "";
    this.attempts = 0;         // sockets opened in total
    this.failures = 0;         // consecutive failures since the last welcome
    this.everConnected = false;
    this.retryAt = null;
    this.timeoutMs = DEFAULT_TIMEOUT_MS;
    this.rtt = new RttWindow(9);
    this.nonce = 0;
    this.lastPongAt = 0;
    this.timer = null;         // connect deadline or retry
    this.pinger = null;
    this.pongDeadline = null;
    this.sent = { ping: 0, droppedMotion: 0 };
  }

  snapshot() {
    return { status: this.status, host: this.host, session: this.session, mode: this.mode, profile: this.profile,
             message: this.message, reason: this.reason, attempts: this.attempts,
             failures: this.failures, everConnected: this.everConnected,
             retryInMs: this.retryAt === null ? null : Math.max(0, this.retryAt - this.now()),
             rttMs: this.rtt.median,
             transport: (this.ws && this.ws.transport) || "" };
  }

  start() { if (!this.ws && this.timer === null) this.open(); }

  /** Closes for good (page closing, device forgotten). */
  stop() {
    this.teardown();
    this.setStatus("stopped", "", "");
  }

  /** Skips the backoff wait (a "retry now" tap). */
  retryNow() {
    if (this.status === "connected" || this.status === "connecting") return;
    this.teardown();
    this.open();
  }

  get connected() { return this.status === "connected"; }

  /** Sends binary; droppable frames are skipped while the socket is backed up. */
  sendBinary(buf, droppable = false) {
    const ws = this.ws;
    if (!ws || !this.connected || ws.readyState !== 1) return false;
    if (droppable && ws.bufferedAmount > MAX_BUFFERED_BYTES) { this.sent.droppedMotion++; return false; }
    ws.send(buf);
    return true;
  }

  /** Sends one JSON text message (the modes' touchpad, typing and laser messages). */
  sendText(text) {
    const ws = this.ws;
    if (!ws || !this.connected || ws.readyState !== 1) return false;
    ws.send(text);
    return true;
  }

  sendCommand(command, mode) {
    const ws = this.ws;
    if (!ws || !this.connected || ws.readyState !== 1) return false;
    ws.send(command === "mode" ? modeCommand(mode) : command === "pad" ? padCommand(mode)
      : command === "gyro-stick" ? gyroStickCommand(mode) : command === "calibrate" ? calibrateCommand() : recenterCommand());
    return true;
  }

  // ── internals ─────────────────────────────────────────────────────────────────────────
  open() {
    this.retryAt = null;
    this.attempts++;
    this.setStatus("connecting", "", "");
    this.profile = null;       // a new session: the host says again (it may say before its welcome)
    let ws;
    try {
      ws = this.createSocket(this.url);
    } catch (e) {
      this.fail("disconnected", "", "cannot open " + this.url + ": " + (e && e.message || e));
      return;
    }
    this.ws = ws;
    ws.binaryType = "arraybuffer";
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      this.fail("timed-out", "", "no answer from the host");
    }, CONNECT_TIMEOUT_MS);
    let opened = false;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      opened = true;
      ws.send(helloMessage(this.device.id, this.device.credential));
    };
    ws.onmessage = (e) => { if (this.ws === ws) this.receive(e.data); };
    ws.onerror = () => { /* onclose follows and carries the outcome */ };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      const why = e && e.reason ? e.reason : "";
      this.fail("disconnected", this.reason, this.message || why || (opened ? "connection closed" : "could not connect"));
    };
  }

  receive(data) {
    if (typeof data === "string") return this.receiveText(data);
    const pong = decodePong(data);
    if (!pong) return;
    const now = this.now();
    if (pong.nonce > this.nonce || this.nonce - pong.nonce > 64) return;   // not one of ours
    this.lastPongAt = now;
    this.armPongDeadline();
    this.rtt.add(Math.max(0, now - pong.timeMs));
    this.emit();
  }

  receiveText(text) {
    const m = parseHostMessage(text);
    switch (m.type) {
      case "welcome":
        this.clearTimer();
        this.failures = 0;
        this.everConnected = true;
        this.host = m.host || this.host;
        this.session = m.session;
        this.mode = m.mode;
        this.timeoutMs = Math.round(m.timeout * 1000);
        this.lastPongAt = this.now();
        this.rtt.clear();
        this.armPongDeadline();
        this.pinger = this.timers.setInterval(() => this.ping(), PING_INTERVAL_MS);
        this.setStatus("connected", "", "");
        this.ping();
        break;
      case "refused":
        this.fail("refused", m.reason, m.message || "the host refused this controller",
                  RETRY_REFUSALS.has(m.reason));
        break;
      case "mode":
        this.mode = m.mode;
        this.emit();
        break;
      case "profile":
        this.mode = m.mode;
        this.profile = m.app === null ? null : { app: m.app, setsMode: m.setsMode };
        this.emit();
        break;
      case "closing":
        // The close follows; remember why. A revoked device must not retry.
        this.reason = m.reason;
        this.message = m.message || "the host is closing the connection";
        if (m.reason === "revoked") this.fail("refused", "revoked", this.message, false);
        break;
      default:
        this.onMessage(text);
        break;
    }
  }

  /** "timed out" when no pong arrives for `timeout` seconds (reset by each pong). */
  armPongDeadline() {
    if (this.pongDeadline !== null) this.timers.clearTimeout(this.pongDeadline);
    this.pongDeadline = this.timers.setTimeout(() => {
      this.pongDeadline = null;
      this.fail("timed-out", "", "no answer from the host for " + (this.timeoutMs / 1000) + " s");
    }, this.timeoutMs);
  }

  ping() {
    if (!this.connected) return;
    this.nonce = (this.nonce + 1) >>> 0;
    if (this.sendBinary(encodePing(this.nonce, this.now(), this.rtt.median))) this.sent.ping++;
  }

  fail(status, reason, message, retry = status !== "refused") {
    this.teardown();
    this.setStatus(status, reason, message, false);
    if (retry) {
      this.failures++;
      const delay = backoffDelayMs(this.failures);
      this.retryAt = this.now() + delay;
      this.timer = this.timers.setTimeout(() => { this.timer = null; this.open(); }, delay);
    }
    this.emit();
  }

  teardown() {
    this.clearTimer();
    if (this.pinger !== null) { this.timers.clearInterval(this.pinger); this.pinger = null; }
    if (this.pongDeadline !== null) { this.timers.clearTimeout(this.pongDeadline); this.pongDeadline = null; }
    const ws = this.ws;
    this.ws = null;
    this.retryAt = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onerror = ws.onclose = null;
      try { ws.close(1000); } catch { /* already closed */ }
    }
  }

  clearTimer() {
    if (this.timer !== null) { this.timers.clearTimeout(this.timer); this.timer = null; }
  }

  setStatus(status, reason, message, emit = true) {
    this.status = status;
    this.reason = reason;
    this.message = message;
    if (emit) this.emit();
  }

  emit() { this.onState(this.snapshot()); }
}
