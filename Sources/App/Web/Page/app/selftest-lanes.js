// selftest-lanes.js — self-checks of lanes.js on a fake clock and fake WebSockets: which
// socket each frame takes, acks, the lane's hello, its replacement after a stall, its
// abandoned connects, refusals, and that buttons and text never take the lane.
// Imported by selftest.js.

import { chooseLanes, laneSent, laneAcked, serialAtLeast, LanedSocket,
         LANE_NUDGE_MS, LANE_STALL_MS, LANE_CONNECT_MS, LANE_CONNECT_SLOW_MS, LANE_PING_MS } from "./lanes.js";
import { fakeClock } from "./selftest-clock.js";

function fakes() {
  const clock = fakeClock(), { timers, advance, now } = clock;
  const sockets = [];
  class WS {
    constructor(url) { this.url = url; this.readyState = 0; this.sent = []; this.bufferedAmount = 0; sockets.push(this); }
    send(d) { this.sent.push(d); }
    close() { this.readyState = 3; this.closed = true; }
    open() { this.readyState = 1; this.onopen && this.onopen(); }
    receive(data) { this.onmessage && this.onmessage({ data }); }
  }
  const s = new LanedSocket({ url: "wss://h/ws", device: { id: "0011", credential: "c" }, WebSocket: WS, timers, now });
  return { s, sockets, advance, now };
}

const motion = (seq) => { const b = new ArrayBuffer(52), v = new DataView(b); v.setUint8(0, 1); v.setUint32(4, seq, true); return b; };
const ack = (seq) => { const b = new ArrayBuffer(8), v = new DataView(b); v.setUint8(0, 0x84); v.setUint32(4, seq, true); return b; };
const seqs = (ws) => ws.sent.filter((d) => d instanceof ArrayBuffer && new Uint8Array(d)[0] === 1).map((d) => new DataView(d).getUint32(4, true));

export function laneChecks(t) {
  { // the pure choice
    const lane = () => ({ ready: true, waitingSince: null, lastSeq: 0, lastUsedAt: -Infinity });
    const a = lane(), b = lane();
    t("both free: the one used least recently", chooseLanes([a, b], 0).join() === "0");
    laneSent(a, 1, 0);
    t("one waiting: the free one", chooseLanes([a, b], 10).join() === "1");
    laneSent(b, 2, 10);
    t("both waiting: the one waiting longest", chooseLanes([a, b], 20).join() === "0");
    t("… and the other too once it waited longer than the nudge", chooseLanes([a, b], 11 + LANE_NUDGE_MS).join() === "0,1");
    laneAcked(a, 0, 30);
    t("an ack for an older frame keeps it waiting (from now)", a.waitingSince === 30);
    laneAcked(a, 1, 31);
    t("an ack for its last frame frees it", a.waitingSince === null && chooseLanes([a, b], 32).join() === "0");
    t("a lane not ready takes nothing", chooseLanes([a, { ...b, ready: false }], 40).join() === "0");
    t("serial comparison wraps", serialAtLeast(1, 0xFFFFFFFF) && !serialAtLeast(0xFFFFFFFF, 1));
  }
  { // the socket pair
    const f = fakes(), s = f.s;
    let opened = false, closed = false;
    const got = [];
    s.onopen = () => { opened = true; };
    s.onmessage = (e) => got.push(e.data);
    s.onclose = () => { closed = true; };
    const [primary] = f.sockets;
    primary.open();
    t("the primary's open is the socket's", opened && s.readyState === 1 && f.sockets.length === 1);
    s.send(motion(1));
    t("before the lane: motion on the primary", seqs(primary).join() === "1");
    primary.receive('{"type":"welcome","session":"0000002a"}');
    t("the welcome is passed on and a lane opens", got.length === 1 && f.sockets.length === 2);
    const lane = f.sockets[1];
    lane.open();
    const hello = JSON.parse(lane.sent[0]);
    t("the lane's hello: same credential, the session's label",
      hello.type === "lane" && hello.id === "0011" && hello.credential === "c" && hello.session === "0000002a");
    lane.receive('{"type":"lane","session":"0000002a"}');
    t("joined: the lane is ready and pings", s.laneReady && lane.sent.filter((d) => d instanceof ArrayBuffer).length === 1);
    primary.receive(ack(1));
    t("an ack is not passed on", got.length === 1);
    s.send(motion(2)); f.advance(16);
    lane.receive(ack(2));
    s.send(motion(3)); f.advance(16);
    primary.receive(ack(3));
    t("free sockets take turns", seqs(primary).join() === "1,3" && seqs(lane).join() === "2");
    s.send(motion(4)); f.advance(16);
    s.send(motion(5));
    t("the primary free, the lane waiting: the primary", seqs(primary).join() === "1,3,5" && seqs(lane).join() === "2,4");
    primary.receive(ack(5));
    s.send(new Uint8Array([0x02, 0, 1, 0, 1, 0, 0, 0]).buffer);
    s.send('{"type":"command","command":"recenter"}');
    t("buttons and text take the primary only", primary.sent.length === 5 && lane.sent.filter((d) => typeof d === "string").length === 1);
    f.advance(LANE_STALL_MS);
    s.send(motion(6));
    t("a lane waiting longer than the stall limit is replaced by a new connection",
      lane.closed && f.sockets.length === 3 && s.stats.lanesReplaced === 1 && seqs(primary).includes(6) && !seqs(lane).includes(6));
    const next = f.sockets[2];
    f.advance(LANE_CONNECT_MS + 1);
    t("the primary acknowledged (a slow machine, not a dead network): a new lane gets time to join",
      !next.closed && f.sockets.length === 3);
    f.advance(LANE_CONNECT_SLOW_MS - LANE_CONNECT_MS - 1);
    t("… but not forever: abandoned and tried again", next.closed && f.sockets.length === 4);
    f.advance(LANE_CONNECT_MS + 1);
    t("the primary waiting too (the network looks down): abandoned after LANE_CONNECT_MS and tried again",
      f.sockets[3].closed && f.sockets.length === 5);
    const fourth = f.sockets[4];
    fourth.open();
    fourth.receive('{"type":"lane","session":"0000002a"}');
    f.advance(LANE_PING_MS * 2 + 1);
    t("the lane is pinged every half second", fourth.sent.filter((d) => d instanceof ArrayBuffer).length === 3);
    fourth.receive('{"type":"refused","reason":"unknown","message":"no"}');
    f.advance(10000);
    t("a lane refused as unknown is not tried again", f.sockets.length === 5 && !s.laneReady);
    primary.onclose({ reason: "x" });
    t("the primary's close is the socket's", closed);
  }
  { // the lane closes by itself: a new one after a backoff; the primary's close ends it
    const f = fakes(), s = f.s;
    f.sockets[0].open();
    f.sockets[0].receive('{"type":"welcome","session":"01"}');
    f.sockets[1].open();
    f.sockets[1].onclose({});
    t("a lane closed by the host is reopened after a backoff", f.sockets.length === 2);
    f.advance(300);
    t("… (a quarter second first)", f.sockets.length === 3);
    s.close();
    t("closing the socket closes the lane and the primary", f.sockets[2].closed && f.sockets[0].closed && s.readyState === 3);
  }
}
