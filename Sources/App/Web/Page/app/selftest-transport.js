// selftest-transport.js — self-checks of transport.js against fakes (RTCPeerConnection,
// data channels, fetch, WebSocket, timers): which channel each frame takes, the refusal on
// 403, and the fallback to the WebSocket within the same attempt. Imported by selftest.js.

import { TransportChooser, RTC_OPEN_TIMEOUT_MS, RTC_GATHER_TIMEOUT_MS, RTC_RETRY_AFTER_MS, STALL_AFTER_MS, PROBE_EVERY_MS } from "./transport.js";
import { fakeClock } from "./selftest-clock.js";

function fakes({ status = 200, open = true } = {}) {
  const clock = fakeClock(), { timers } = clock, advance = clock.advanceAsync, now = clock.now;
  const pcs = [], sockets = [], posts = [];
  class Channel {
    constructor(label, o) { this.label = label; this.o = o || {}; this.readyState = "connecting"; this.sent = []; this.bufferedAmount = 0; }
    send(d) { this.sent.push(d); }
    open() { this.readyState = "open"; this.onopen && this.onopen(); }
  }
  class PC {
    constructor() { this.channels = []; this.iceGatheringState = "complete"; this.connectionState = "new"; pcs.push(this); }
    createDataChannel(label, o) { const c = new Channel(label, o); this.channels.push(c); return c; }
    async createOffer() { return { type: "offer", sdp: "v=0\r\n" }; }
    async setLocalDescription(d) { this.localDescription = d; }
    async setRemoteDescription(d) { this.remote = d; if (open) for (const c of this.channels) c.open(); }
    addEventListener() {}
    close() { this.closed = true; }
  }
  class WS {
    constructor(url) { this.url = url; this.readyState = 0; this.sent = []; this.bufferedAmount = 0; sockets.push(this); }
    send(d) { this.sent.push(d); }
    close() { this.readyState = 3; }
  }
  const fetch = async (url, o) => {
    posts.push({ url, body: JSON.parse(o.body) });
    return { status, ok: status === 200, json: async () => (status === 200 ? { sdp: "v=0\r\n" } : { error: "no" }) };
  };
  const chooser = new TransportChooser({ device: { id: "0011", credential: "c" }, signalUrl: "/api/rtc", fetch,
                                         RTCPeerConnection: PC, WebSocket: WS, timers, now });
  return { chooser, pcs, sockets, posts, advance };
}

export async function transportChecks(t) {
  { // data channels: motion on the unordered channel, the rest on the reliable one
    const f = fakes();
    const s = f.chooser.createSocket("wss://h/ws");
    let opened = false;
    s.onopen = () => { opened = true; };
    await f.advance(10);
    const [control, motion] = f.pcs[0].channels;
    t("two channels: control reliable, motion unordered without retransmissions",
      control.label === "control" && motion.label === "motion" && motion.o.ordered === false && motion.o.maxRetransmits === 0);
    t("the offer goes to /api/rtc with the device credential", f.posts[0].url === "/api/rtc" && f.posts[0].body.credential === "c");
    t("open once both channels are", opened && s.readyState === 1 && s.transport === "webrtc" && f.chooser.transport === "webrtc");
    s.send('{"type":"hello"}');
    s.send(new Uint8Array([0x01, 0, 0, 0]).buffer);
    s.send(new Uint8Array([0x02, 0, 1, 0]).buffer);
    t("MOTION → motion channel; text and BUTTON → control",
      motion.sent.length === 1 && control.sent.length === 2 && typeof control.sent[0] === "string");
    motion.bufferedAmount = 1000;
    s.send(new Uint8Array([0x01, 0, 0, 0]).buffer);
    t("motion is skipped, not queued, while the channel is backed up", motion.sent.length === 1);
    motion.bufferedAmount = 0;
    const frame = () => s.send(new Uint8Array([0x01, 0, 0, 0]).buffer);
    motion.onmessage({ data: new Uint8Array([0x84, 0, 0, 0, 1, 0, 0, 0]).buffer });
    frame(); frame();
    t("acked lately: every frame goes", motion.sent.length === 3);
    await f.advance(STALL_AFTER_MS + 1);
    frame(); frame(); frame();
    t("no ack for a while: one probe frame …", motion.sent.length === 4);
    await f.advance(PROBE_EVERY_MS);
    frame();
    t("… and the next only after PROBE_EVERY_MS", motion.sent.length === 5);
    motion.onmessage({ data: new Uint8Array([0x84, 0, 0, 0, 2, 0, 0, 0]).buffer });
    frame(); frame();
    t("an ack resumes the full rate", motion.sent.length === 7);
  }
  { // 503: WebSocket in the same attempt; data channels again after RTC_RETRY_AFTER_MS
    const f = fakes({ status: 503 });
    const s = f.chooser.createSocket("wss://h/ws");
    let opened = false;
    s.onopen = () => { opened = true; };
    await f.advance(10);
    t("no data channels (503) → a WebSocket in the same attempt", f.sockets.length === 1 && s.transport === "websocket");
    f.sockets[0].readyState = 1;
    f.sockets[0].onopen();
    t("… which opens the connection", opened && s.readyState === 1 && f.chooser.transport === "websocket");
    f.chooser.createSocket("wss://h/ws");
    t("the next attempt goes straight to the WebSocket", f.pcs.length === 1 && f.sockets.length === 2);
    await f.advance(RTC_RETRY_AFTER_MS);
    f.chooser.createSocket("wss://h/ws");
    t("data channels are tried again later", f.pcs.length === 2);
  }
  { // channels never open (UDP blocked): WebSocket after the deadline
    const f = fakes({ open: false });
    const s = f.chooser.createSocket("wss://h/ws");
    await f.advance(RTC_OPEN_TIMEOUT_MS + RTC_GATHER_TIMEOUT_MS - 1);
    t("waits for the channels …", f.sockets.length === 0);
    await f.advance(2);
    t("… then falls back to the WebSocket", f.sockets.length === 1 && s.transport === "websocket" && f.pcs[0].closed);
  }
  { // 403: refused like a hello would be, no fallback
    const f = fakes({ status: 403 });
    const s = f.chooser.createSocket("wss://h/ws");
    const got = [];
    let closed = false;
    s.onmessage = (e) => got.push(e.data);
    s.onclose = () => { closed = true; };
    await f.advance(10);
    t("403 → a refused message and close, no WebSocket",
      got.length === 1 && JSON.parse(got[0]).type === "refused" && closed && f.sockets.length === 0);
  }
  { // no RTCPeerConnection (old browser): WebSocket
    const f = fakes();
    f.chooser.o.RTCPeerConnection = undefined;
    const s = f.chooser.createSocket("wss://h/ws");
    t("no RTCPeerConnection → the WebSocket", s.transport === "websocket" && f.sockets.length === 1);
  }
}
