// transport.js — how the page reaches the host (docs/WEB-CONTROLLER.md, "Transports").
// Preferred: WebRTC data channels, so a lost or late motion frame never holds back a newer
// one: "motion" is unordered with no retransmissions, "control" (hello, buttons, pings,
// commands) is reliable and in order. Fallback: the WebSocket, when the browser has no
// RTCPeerConnection, the host answers 503 (no WebRTC there) or the channels do not open
// in time (UDP blocked). Both look like a WebSocket to connection.js (readyState, send,
// bufferedAmount, onopen/onmessage/onclose), so its state machine is the same for both.
// The WebSocket comes with a second one, its motion lane (lanes.js).
// No DOM; fetch, RTCPeerConnection, WebSocket and the timers are parameters.

import { LanedSocket } from "./lanes.js";

export const RTC_OPEN_TIMEOUT_MS = 2500;        // offer → both channels open
export const RTC_GATHER_TIMEOUT_MS = 1000;      // waiting for the browser's own candidates
export const RTC_RETRY_AFTER_MS = 30000;        // after a failure, WebSocket only for this long
export const MOTION_QUEUE_LIMIT = 2 * 52;       // more than this unsent: skip motion (newest wins)
export const STALL_AFTER_MS = 150;              // no MOTION-ACK for this long: the path is stalled
export const PROBE_EVERY_MS = 50;               // while stalled, one motion frame this often

/** A WebSocket-shaped object over two data channels; `transport` is "webrtc". */
export class RtcSocket {
  constructor(o) {
    this.transport = "webrtc";
    this.readyState = 0;
    this.bufferedAmount = 0;
    this.binaryType = "arraybuffer";
    this.onopen = this.onmessage = this.onerror = this.onclose = null;
    this.skipped = 0;
    this.lastAckAt = null;     // null until the host's first MOTION-ACK
    this.lastProbeAt = -Infinity;
    this.o = o;
    this.pc = null;
    this.closed = false;
    this.timer = o.timers.setTimeout(() => this.fail("data channels did not open in time"), RTC_OPEN_TIMEOUT_MS + RTC_GATHER_TIMEOUT_MS);
    this.start().catch((e) => this.fail(String(e && e.message || e)));
  }

  async start() {
    const o = this.o;
    const pc = new o.RTCPeerConnection({ iceServers: [] });
    this.pc = pc;
    const control = pc.createDataChannel("control");
    const motion = pc.createDataChannel("motion", { ordered: false, maxRetransmits: 0 });
    this.control = control;
    this.motion = motion;
    for (const ch of [control, motion]) {
      ch.binaryType = "arraybuffer";
      ch.onopen = () => this.maybeOpen();
      ch.onclose = () => this.fail("data channel closed");
    }
    control.onmessage = (e) => { if (!this.closed && this.onmessage) this.onmessage({ data: e.data }); };
    // MOTION-ACK (0x84): the host got motion recently.
    motion.onmessage = (e) => {
      if (e.data instanceof ArrayBuffer && e.data.byteLength === 8 && new Uint8Array(e.data)[0] === 0x84) this.lastAckAt = this.o.now();
    };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === "failed" || pc.connectionState === "closed") this.fail("connection " + pc.connectionState);
    };
    await pc.setLocalDescription(await pc.createOffer());
    await gathered(pc, o.timers);
    if (this.closed) return;
    const r = await o.fetch(o.signalUrl, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ id: o.device.id, credential: o.device.credential, sdp: pc.localDescription.sdp }),
    });
    let body = {};
    try { body = await r.json(); } catch { /* not JSON: treated as unavailable */ }
    if (this.closed) return;
    if (r.status === 403) {
      // Unknown or revoked phone: what the WebSocket's hello would have been told.
      this.refused = true;
      this.deliverText(JSON.stringify({ type: "refused", reason: "unknown", message: body.error || "refused" }));
      return this.fail("refused");
    }
    if (!r.ok || typeof body.sdp !== "string") return this.fail(body.error || "no data channels (HTTP " + r.status + ")");
    await pc.setRemoteDescription({ type: "answer", sdp: body.sdp });
  }

  maybeOpen() {
    if (this.closed || this.readyState === 1) return;
    if (this.control.readyState !== "open" || this.motion.readyState !== "open") return;
    this.o.timers.clearTimeout(this.timer);
    this.readyState = 1;
    if (this.onopen) this.onopen();
  }

  deliverText(text) { if (this.onmessage) this.onmessage({ data: text }); }

  send(data) {
    if (this.readyState !== 1) return;
    if (typeof data !== "string") {
      const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      if (bytes[0] === 0x01) {
        // Motion: never queue behind older motion (the host keeps the newest anyway).
        if (this.motion.bufferedAmount > MOTION_QUEUE_LIMIT) { this.skipped++; return; }
        // Stalled (no ack lately): only a probe now and then, so SCTP's window is free
        // the moment the network returns (else the next frame waits for its backed-off
        // retransmission timer, 100-200 ms measured).
        const now = this.o.now();
        if (this.lastAckAt !== null && now - this.lastAckAt > STALL_AFTER_MS) {
          if (now - this.lastProbeAt < PROBE_EVERY_MS) { this.skipped++; return; }
          this.lastProbeAt = now;
        }
        this.motion.send(data);
        return;
      }
    }
    this.control.send(data);
    this.bufferedAmount = this.control.bufferedAmount;
  }

  fail(why) {
    if (this.closed) return;
    const wasOpen = this.readyState === 1;
    this.close();
    this.reason = why;
    if (this.onclose) this.onclose({ reason: why, wasOpen });
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.readyState = 3;
    this.o.timers.clearTimeout(this.timer);
    try { if (this.pc) this.pc.close(); } catch { /* already closed */ }
  }
}

/** Resolves when the browser has its candidates (or after RTC_GATHER_TIMEOUT_MS). */
function gathered(pc, timers) {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const t = timers.setTimeout(resolve, RTC_GATHER_TIMEOUT_MS);
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState === "complete") { timers.clearTimeout(t); resolve(); }
    });
  });
}

/**
 * The socket factory connection.js calls for each attempt: data channels first, and within
 * the same attempt the WebSocket when they fail before opening. After a failure it uses
 * the WebSocket alone for RTC_RETRY_AFTER_MS, then tries data channels again at the next
 * (re)connect. `transport` says what the last socket used.
 */
export class TransportChooser {
  constructor(o) {
    this.o = o;   // {device, signalUrl, fetch, RTCPeerConnection, WebSocket, timers, now, onTransport}
    this.rtcFailedAt = -Infinity;
    this.transport = "";
    this.lastRtcError = "";
  }

  get rtcAvailable() { return typeof this.o.RTCPeerConnection === "function" && typeof this.o.fetch === "function"; }

  createSocket(url) {
    const o = this.o;
    const useRtc = this.rtcAvailable && o.now() - this.rtcFailedAt >= RTC_RETRY_AFTER_MS;
    if (!useRtc) return this.webSocket(url);
    return new FallbackSocket(this, url);
  }

  webSocket(url) {
    const o = this.o;
    // With a motion lane (lanes.js) unless told not to (o.lanes === false).
    const ws = o.lanes === false ? new o.WebSocket(url)
      : new LanedSocket({ url, device: o.device, WebSocket: o.WebSocket, timers: o.timers, now: o.now });
    ws.transport = "websocket";
    this.note("websocket");
    return ws;
  }

  note(transport) { this.transport = transport; if (this.o.onTransport) this.o.onTransport(transport); }
}

/** Data channels, and the WebSocket in their place if they fail before opening. */
class FallbackSocket {
  constructor(chooser, url) {
    this.chooser = chooser;
    this.url = url;
    this.readyState = 0;
    this.binaryType = "arraybuffer";
    this.onopen = this.onmessage = this.onerror = this.onclose = null;
    this.transport = "webrtc";
    chooser.note("webrtc");
    this.inner = new RtcSocket({ ...chooser.o, timers: chooser.o.timers });
    this.bind(this.inner);
  }

  get bufferedAmount() { return this.inner.bufferedAmount; }
  get stats() { return this.inner.stats; }            // the WebSocket's motion lane (lanes.js)
  get laneReady() { return this.inner.laneReady; }

  bind(inner) {
    inner.binaryType = "arraybuffer";
    inner.onopen = () => { this.readyState = 1; if (this.onopen) this.onopen(); };
    inner.onmessage = (e) => { if (this.onmessage) this.onmessage(e); };
    inner.onerror = (e) => { if (this.onerror) this.onerror(e); };
    inner.onclose = (e) => {
      const beforeOpen = this.readyState === 0;
      if (inner.transport === "webrtc" && beforeOpen && !inner.refused && !this.closed) {
        this.chooser.rtcFailedAt = this.chooser.o.now();
        this.chooser.lastRtcError = e && e.reason || "";
        this.transport = "websocket";
        this.inner = this.chooser.webSocket(this.url);
        this.bind(this.inner);
        return;
      }
      this.readyState = 3;
      if (this.onclose) this.onclose(e);
    };
  }

  send(data) { this.inner.send(data); }

  close(code) {
    this.closed = true;
    this.readyState = 3;
    try { this.inner.close(code); } catch { /* already closed */ }
  }
}
