// protocol.js — the web controller's wire format (docs/WEB-CONTROLLER.md, "Protocol").
// Pure ES module: encoders/decoders only, no DOM, no sockets. Little-endian throughout.

export const PROTOCOL_VERSION = 1;
export const MOTION = 0x01, BUTTON = 0x02, PING = 0x03, PONG = 0x83;
export const MOTION_SIZE = 52, MOTION_ANALOG_SIZE = 64, BLOCK_SIZE = 12, BUTTON_SIZE = 8, PING_SIZE = 16;

/** MOTION flag bits. */
export const FLAG_ATTITUDE = 1 << 0, FLAG_GYRO = 1 << 1, FLAG_ACCEL = 1 << 2, FLAG_CLUTCH = 1 << 3, FLAG_ANALOG = 1 << 4,
  FLAG_TOUCH = 1 << 5;

/** Button letters in index order: A = 0 … P = 15. */
export const BUTTON_NAMES = "ABCDEFGHIJKLMNOP".split("");

/**
 * MOTION, 52 bytes: [0]=0x01 [1]=flags [2..3] u16 buttons [4..7] u32 seq [8..15] f64 time ms
 * [16..27] f32 roll, pitch, yaw [28..39] f32 gyro x, y, z [40..51] f32 accel x, y, z.
 * Absent blocks are written as zeros and their flag bit is clear. With `analog` (the Gamepad
 * mode's sticks and triggers) the frame is 64 bytes and flag bit 4 is set: [52..59] i16 left
 * x, left y, right x, right y (−32767…32767 is −1…1, x right, y down) [60..63] u16 L2, R2
 * (0…65535 is 0…1), as in the UDP motion packet's analog block. With `touch` (the Gamepad mode's
 * touchpad while a finger is on it: its two slots, each a finger {id 0…127, x, y}, 0…1 of the pad
 * left to right and top to bottom, or null) flag bit 5 is set and 12 bytes follow the analog
 * block, or the base when there is none: per slot [u8 0x80 | id] [u8 0] [u16 x] [u16 y]
 * (0…65535 is 0…1), a slot with no finger all zeros. A frame without the block has no finger down.
 * @param {{seq:number, timeMs:number, buttons:number, clutch?:boolean,
 *          attitude?:{roll:number,pitch:number,yaw:number}|null,
 *          gyro?:number[]|null, accel?:number[]|null,
 *          analog?:{lx:number,ly:number,rx:number,ry:number,l2:number,r2:number}|null,
 *          touch?:({id:number,x:number,y:number}|null)[]|null}} m
 */
export function encodeMotion(m) {
  const touchAt = MOTION_SIZE + (m.analog ? BLOCK_SIZE : 0);
  const buf = new ArrayBuffer(touchAt + (m.touch ? BLOCK_SIZE : 0)), v = new DataView(buf);
  let flags = 0;
  v.setUint8(0, MOTION);
  v.setUint16(2, m.buttons & 0xffff, true);
  v.setUint32(4, m.seq >>> 0, true);
  v.setFloat64(8, m.timeMs, true);
  if (m.attitude) {
    flags |= FLAG_ATTITUDE;
    v.setFloat32(16, m.attitude.roll, true);
    v.setFloat32(20, m.attitude.pitch, true);
    v.setFloat32(24, m.attitude.yaw, true);
  }
  if (m.gyro) {
    flags |= FLAG_GYRO;
    for (let i = 0; i < 3; i++) v.setFloat32(28 + 4 * i, m.gyro[i], true);
  }
  if (m.accel) {
    flags |= FLAG_ACCEL;
    for (let i = 0; i < 3; i++) v.setFloat32(40 + 4 * i, m.accel[i], true);
  }
  if (m.clutch) flags |= FLAG_CLUTCH;
  if (m.analog) {
    flags |= FLAG_ANALOG;
    const axis = (x) => Math.round(Math.max(-1, Math.min(1, Number(x) || 0)) * 32767);
    const pull = (x) => Math.round(Math.max(0, Math.min(1, Number(x) || 0)) * 65535);
    [m.analog.lx, m.analog.ly, m.analog.rx, m.analog.ry].forEach((x, i) => v.setInt16(52 + 2 * i, axis(x), true));
    v.setUint16(60, pull(m.analog.l2), true);
    v.setUint16(62, pull(m.analog.r2), true);
  }
  if (m.touch) {
    flags |= FLAG_TOUCH;
    const unit = (x) => Math.round(Math.max(0, Math.min(1, Number(x) || 0)) * 65535);
    m.touch.slice(0, 2).forEach((f, i) => {
      if (!f) return;
      const o = touchAt + 6 * i;
      v.setUint8(o, 0x80 | (f.id & 0x7f));
      v.setUint16(o + 2, unit(f.x), true);
      v.setUint16(o + 4, unit(f.y), true);
    });
  }
  v.setUint8(1, flags);
  return buf;
}

/** BUTTON, 8 bytes: [0]=0x02 [1]=index [2]=1 down/0 up [3]=0 [4..5] u16 state after the edge [6..7]=0. */
export function encodeButton(index, down, state) {
  if (!(index >= 0 && index < 16)) throw new RangeError("button index must be 0…15");
  const buf = new ArrayBuffer(BUTTON_SIZE), v = new DataView(buf);
  v.setUint8(0, BUTTON);
  v.setUint8(1, index);
  v.setUint8(2, down ? 1 : 0);
  v.setUint16(4, state & 0xffff, true);
  return buf;
}

/**
 * PING, 16 bytes: [0]=0x03 [1]=0 [2..3] u16 the page's current round-trip time in 0.1 ms
 * (0 = none yet; lets the host turn sample times into one-way latency) [4..7] u32 nonce
 * [8..15] f64 page time ms.
 */
export function encodePing(nonce, timeMs, rttMs = null) {
  const buf = new ArrayBuffer(PING_SIZE), v = new DataView(buf);
  v.setUint8(0, PING);
  const tenths = rttMs == null || !(rttMs >= 0) ? 0 : Math.min(0xffff, Math.max(1, Math.round(rttMs * 10)));
  v.setUint16(2, tenths, true);
  v.setUint32(4, nonce >>> 0, true);
  v.setFloat64(8, timeMs, true);
  return buf;
}

/** PONG (0x83, 16 bytes) → {nonce, timeMs}, or null if the bytes are not a pong. */
export function decodePong(data) {
  const v = view(data);
  if (!v || v.byteLength !== PING_SIZE || v.getUint8(0) !== PONG) return null;
  return { nonce: v.getUint32(4, true), timeMs: v.getFloat64(8, true) };
}

/** Decodes a MOTION frame (for tests and the fake host); null if malformed. */
export function decodeMotion(data) {
  const v = view(data);
  if (!v || v.byteLength !== MOTION_SIZE || v.getUint8(0) !== MOTION) return null;
  const flags = v.getUint8(1);
  const f = (o) => v.getFloat32(o, true);
  return {
    flags, buttons: v.getUint16(2, true), seq: v.getUint32(4, true), timeMs: v.getFloat64(8, true),
    clutch: (flags & FLAG_CLUTCH) !== 0,
    attitude: flags & FLAG_ATTITUDE ? { roll: f(16), pitch: f(20), yaw: f(24) } : null,
    gyro: flags & FLAG_GYRO ? [f(28), f(32), f(36)] : null,
    accel: flags & FLAG_ACCEL ? [f(40), f(44), f(48)] : null,
  };
}

/** Decodes a BUTTON frame (for tests and the fake host); null if malformed. */
export function decodeButton(data) {
  const v = view(data);
  if (!v || v.byteLength !== BUTTON_SIZE || v.getUint8(0) !== BUTTON) return null;
  return { index: v.getUint8(1), down: v.getUint8(2) === 1, state: v.getUint16(4, true) };
}

// ── Text (JSON) messages ────────────────────────────────────────────────────────────────
export function helloMessage(id, credential) {
  return JSON.stringify({ type: "hello", v: PROTOCOL_VERSION, id, credential });
}
export function recenterCommand() {
  return JSON.stringify({ type: "command", command: "recenter" });
}
/** Ask for a virtual pad (the Gamepad mode) or give it back; the host answers {"type":"pad","on","available"}. */
export function padCommand(on) {
  return JSON.stringify({ type: "command", command: "pad", on: !!on });
}
/** This controller's gyro as a virtual pad stick: off, right or left (the menu's choice). */
export function gyroStickCommand(target) {
  if (!["off", "right", "left"].includes(target)) throw new RangeError("target must be off, right or left");
  return JSON.stringify({ type: "command", command: "gyro-stick", target });
}
/** Calibrate this phone's gyro (the menu's Calibrate); the host answers {"type":"calibration",…}. */
export function calibrateCommand() {
  return JSON.stringify({ type: "command", command: "calibrate" });
}
export function modeCommand(mode) {
  if (mode !== "pointer" && mode !== "fps") throw new RangeError("mode must be pointer or fps");
  return JSON.stringify({ type: "command", command: "mode", mode });
}

/**
 * Parses a host → page text message. Returns {type, ...} for welcome, refused, mode,
 * profile (version 1 only: {app: string or null, mode, setsMode}) and closing (fields
 * checked and defaulted), or {type: "invalid", text} for anything else.
 */
export function parseHostMessage(text) {
  let m;
  try { m = JSON.parse(text); } catch { return { type: "invalid", text: String(text).slice(0, 200) }; }
  if (!m || typeof m !== "object") return { type: "invalid", text: String(text).slice(0, 200) };
  const str = (s, max = 200) => (typeof s === "string" ? s.slice(0, max) : "");
  const mode = (s) => (s === "fps" ? "fps" : s === "pointer" ? "pointer" : null);
  switch (m.type) {
    case "welcome": {
      const t = Number(m.timeout);
      return { type: "welcome", host: str(m.host, 100), session: str(m.session, 16),
               mode: mode(m.mode), timeout: Number.isFinite(t) && t > 0 ? t : 2.5 };
    }
    case "refused":
      return { type: "refused", reason: str(m.reason, 32), message: str(m.message) };
    case "mode":
      return mode(m.mode) ? { type: "mode", mode: mode(m.mode) } : { type: "invalid", text: str(text) };
    case "profile":
      // The [[profile]] in force for this controller (the focus moved); another version: not ours.
      return m.v === 1 && mode(m.mode) && (m.app === null || typeof m.app === "string")
        ? { type: "profile", app: m.app === null ? null : str(m.app, 256), mode: mode(m.mode), setsMode: m.sets_mode === true }
        : { type: "invalid", text: str(text) };
    case "closing":
      return { type: "closing", reason: str(m.reason, 32), message: str(m.message) };
    default:
      return { type: "invalid", text: str(text) };
  }
}

function view(data) {
  if (data instanceof ArrayBuffer) return new DataView(data);
  if (ArrayBuffer.isView(data)) return new DataView(data.buffer, data.byteOffset, data.byteLength);
  return null;
}

/** Lower-case hex of bytes (tests, debugging). */
export function toHex(data) {
  const v = view(data);
  let s = "";
  for (let i = 0; i < v.byteLength; i++) s += (i ? " " : "") + v.getUint8(i).toString(16).padStart(2, "0");
  return s;
}
