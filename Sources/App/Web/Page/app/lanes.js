// lanes.js — the WebSocket fallback with a motion lane (docs/WEB-CONTROLLER.md, "The motion
// lane"). Over one TCP stream a lost segment holds back every later frame until TCP resends
// it (200 ms or more), and after an outage TCP's backed-off timer keeps it silent long after
// the network is back. So the page keeps a second WebSocket warm (the lane: same device
// credential, joined to the session the first one's welcome named) and sends each MOTION
// frame on a socket with no unacknowledged motion; the host acknowledges every motion
// frame (MOTION-ACK, 0x84) on the socket it came on and keeps the newest. Buttons, pings,
// commands and text stay on the primary socket, in order. No DOM; WebSocket, timers and
// the clock are parameters.

export const LANE_NUDGE_MS = 25;        // a socket this long unacknowledged also gets the next frame
export const LANE_STALL_MS = 200;       // the lane this long unacknowledged is replaced by a new one
export const LANE_CONNECT_MS = 100;     // while the primary waits for an ack (the network looks down),
                                        // a lane not joined by then is abandoned and tried again
export const LANE_CONNECT_SLOW_MS = 2000;  // otherwise (a slow machine, not a dead network)
export const LANE_PING_MS = 500;        // keeps the lane warm (and the host's watchdog fed)
export const LANE_RETRY_MAX_MS = 5000;  // backoff between lanes the host refused or closed

/** Serial comparison of two u32 sequences (RFC 1982): a ≥ b. */
export function serialAtLeast(a, b) { return ((a - b) | 0) >= 0; }

/**
 * Where each motion frame goes (pure; times in ms). Each lane is {ready, waitingSince,
 * lastSeq, lastUsedAt}: waitingSince is when its oldest unacknowledged frame left (null:
 * nothing in flight). The frame goes on a ready lane with nothing in flight (the one used
 * least recently, so both stay warm); when none is free, on the one that has waited longest.
 * Any other lane waiting more than LANE_NUDGE_MS gets the frame too: a later segment lets
 * its TCP find the lost one and resend it at once instead of at its timer. Returns indexes.
 */
export function chooseLanes(lanes, now) {
  const ready = lanes.map((l, i) => [l, i]).filter(([l]) => l && l.ready);
  if (!ready.length) return [];
  const free = ready.filter(([l]) => l.waitingSince === null).sort((a, b) => a[0].lastUsedAt - b[0].lastUsedAt);
  const main = free.length ? free[0] : ready.slice().sort((a, b) => a[0].waitingSince - b[0].waitingSince)[0];
  const out = [main[1]];
  for (const [l, i] of ready) {
    if (i !== main[1] && l.waitingSince !== null && now - l.waitingSince > LANE_NUDGE_MS) out.push(i);
  }
  return out;
}

/** A frame with `seq` left on `lane` at `now`. */
export function laneSent(lane, seq, now) {
  if (lane.waitingSince === null) lane.waitingSince = now;
  lane.lastSeq = seq;
  lane.lastUsedAt = now;
}

/** A MOTION-ACK for `seq` came back on `lane`: free once it covers the last frame sent there. */
export function laneAcked(lane, seq, now) {
  if (lane.waitingSince === null) return;
  lane.waitingSince = serialAtLeast(seq, lane.lastSeq) ? null : now;
}

const newLane = () => ({ ready: false, waitingSince: null, lastSeq: 0, lastUsedAt: -Infinity });
const isAck = (d) => d instanceof ArrayBuffer && d.byteLength === 8 && new Uint8Array(d)[0] === 0x84;
const ackSeq = (d) => new DataView(d).getUint32(4, true);

/** The primary WebSocket plus its motion lane, shaped like one WebSocket for connection.js. */
export class LanedSocket {
  constructor(o) {
    this.o = o;   // {url, device, WebSocket, timers, now}
    this.transport = "websocket";
    this.binaryType = "arraybuffer";
    this.onopen = this.onmessage = this.onerror = this.onclose = null;
    this.primary = new o.WebSocket(o.url);
    this.primary.binaryType = "arraybuffer";
    this.lanes = [Object.assign(newLane(), { ready: false }), newLane()];
    this.lane = null;          // the lane's WebSocket
    this.session = "";
    this.closed = false;
    this.timer = null;         // the lane's connect deadline or retry
    this.pinger = null;
    this.failures = 0;
    this.stats = { lanesOpened: 0, lanesReplaced: 0, onLane: 0, onPrimary: 0, nudges: 0, recent: [] };
    this.primary.onopen = () => { this.lanes[0].ready = true; if (this.onopen) this.onopen(); };
    this.primary.onerror = (e) => { if (this.onerror) this.onerror(e); };
    this.primary.onclose = (e) => { this.shutLane(); if (this.onclose) this.onclose(e); };
    this.primary.onmessage = (e) => this.fromPrimary(e);
  }

  get readyState() { return this.closed ? 3 : this.primary.readyState; }
  get bufferedAmount() { return this.primary.bufferedAmount; }
  get laneReady() { return this.lanes[1].ready; }

  fromPrimary(e) {
    if (isAck(e.data)) return laneAcked(this.lanes[0], ackSeq(e.data), this.o.now());
    if (typeof e.data === "string" && e.data.includes('"welcome"')) {
      let m = {};
      try { m = JSON.parse(e.data); } catch { /* connection.js reports it */ }
      if (m.type === "welcome" && typeof m.session === "string") {
        this.session = m.session;
        this.failures = 0;
        this.openLane();
      }
    }
    if (this.onmessage) this.onmessage(e);
  }

  send(data) {
    if (this.closed) return;
    const bytes = typeof data === "string" ? null
      : data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (!bytes || bytes[0] !== 0x01 || bytes.length < 8) { this.primary.send(data); return; }
    const seq = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
    const now = this.o.now();
    const l = this.lanes[1];
    if (l.ready && l.waitingSince !== null && now - l.waitingSince > LANE_STALL_MS) this.replaceLane();
    const targets = chooseLanes(this.lanes, now);
    if (targets.length > 1) this.stats.nudges++;
    for (const i of targets) {
      (i === 0 ? this.primary : this.lane).send(data);
      laneSent(this.lanes[i], seq, now);
      this.stats[i === 0 ? "onPrimary" : "onLane"]++;
    }
  }

  openLane() {
    if (this.closed || !this.session || this.lane) return;
    this.clearTimer();
    const ws = new this.o.WebSocket(this.o.url);
    ws.binaryType = "arraybuffer";
    this.lane = ws;
    this.note("connect");
    this.lanes[1] = newLane();
    const p = this.lanes[0], now = this.o.now();
    const down = p.waitingSince !== null && now - p.waitingSince > LANE_NUDGE_MS;
    this.timer = this.o.timers.setTimeout(() => { this.timer = null; this.note("abandoned"); this.dropLane(ws, false); },
                                          down ? LANE_CONNECT_MS : LANE_CONNECT_SLOW_MS);
    ws.onopen = () => {
      if (this.lane !== ws) return;
      const d = this.o.device;
      this.note("open");
      ws.send(JSON.stringify({ type: "lane", v: 1, id: d.id, credential: d.credential, session: this.session }));
    };
    ws.onmessage = (e) => {
      if (this.lane !== ws) return;
      if (isAck(e.data)) return laneAcked(this.lanes[1], ackSeq(e.data), this.o.now());
      if (typeof e.data !== "string") return;   // pongs: the lane is alive, nothing to do
      let m = {};
      try { m = JSON.parse(e.data); } catch { return; }
      if (m.type === "lane" && !this.lanes[1].ready) {
        this.clearTimer();
        this.failures = 0;
        this.lanes[1].ready = true;
        this.stats.lanesOpened++;
        this.note("joined");
        this.pingLane();
      } else if (m.type === "refused") {
        this.dropLane(ws, true, m.reason === "unknown");
      }
    };
    ws.onclose = () => this.dropLane(ws, true);
  }

  /** A PING on the lane (the primary's pings measure the round trip; these keep it warm). */
  pingLane() {
    this.pinger = null;
    if (!this.lane || !this.lanes[1].ready) return;
    this.pinger = this.o.timers.setTimeout(() => this.pingLane(), LANE_PING_MS);
    const b = new ArrayBuffer(16), v = new DataView(b);
    v.setUint8(0, 0x03);
    v.setFloat64(8, this.o.now(), true);
    this.lane.send(b);
  }

  /** The lane waited too long for an ack: a new TCP connection, not its backed-off timer. */
  replaceLane() {
    this.stats.lanesReplaced++;
    this.note("stalled");
    const ws = this.lane;
    this.dropLane(ws, false);
  }

  /** Ends `ws` as the lane; a new one follows now (abandoned or stalled) or after a backoff. */
  dropLane(ws, backoff, forGood = false) {
    if (this.lane !== ws) return;
    this.shutLane();
    if (this.closed || forGood || this.primary.readyState !== 1) return;
    if (!backoff) { this.openLane(); return; }
    this.failures++;
    const delay = Math.min(LANE_RETRY_MAX_MS, 250 * 2 ** Math.min(this.failures - 1, 5));
    this.timer = this.o.timers.setTimeout(() => { this.timer = null; this.openLane(); }, delay);
  }

  shutLane() {
    this.clearTimer();
    if (this.pinger !== null) { this.o.timers.clearTimeout(this.pinger); this.pinger = null; }
    const ws = this.lane;
    this.lane = null;
    this.lanes[1] = newLane();
    if (ws) {
      ws.onopen = ws.onmessage = ws.onerror = ws.onclose = null;
      try { ws.close(1000); } catch { /* already closed */ }
    }
  }

  /** The lane's last 16 events (page time, what), for tests and the ⋯ menu's details. */
  note(what) {
    const r = this.stats.recent;
    r.push([Math.round(this.o.now()), what]);
    if (r.length > 16) r.shift();
  }

  clearTimer() { if (this.timer !== null) { this.o.timers.clearTimeout(this.timer); this.timer = null; } }

  close(code) {
    this.closed = true;
    this.shutLane();
    try { this.primary.close(code); } catch { /* already closed */ }
  }
}
