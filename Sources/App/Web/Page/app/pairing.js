// pairing.js — QR fragment → POST /api/pair → localStorage["remotion.device"].
// No DOM at import time; `fetch` and the storage are parameters.
//
// The QR code carries https://HOST:7476/#pair=<secret base64url>&fp=<16 bytes hex, 4-grouped>.
// The secret stays in the fragment (never sent in a request line, log or Referer); the page
// removes it from the address bar (history.replaceState) as soon as it has read it.

export const STORAGE_KEY = "remotion.device";
export const MAX_NAME_LENGTH = 64;

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const FINGERPRINT = /^[0-9a-f]{4}(?:-[0-9a-f]{4}){7}$/;

/**
 * Reads `#pair=…&fp=…`. Returns {secret, fingerprint} (fingerprint lower-case, or null when
 * absent or malformed), or null when there is no usable secret (≥ 22 base64url chars = 128 bits).
 */
export function parsePairFragment(hash) {
  if (typeof hash !== "string" || !hash.startsWith("#")) return null;
  const params = new URLSearchParams(hash.slice(1));
  const secret = params.get("pair");
  if (!secret || secret.length < 22 || secret.length > 512 || !BASE64URL.test(secret)) return null;
  const fp = (params.get("fp") || "").toLowerCase();
  return { secret, fingerprint: FINGERPRINT.test(fp) ? fp : null };
}

/** A default device name from the user agent string. */
export function proposeDeviceName(userAgent) {
  const ua = String(userAgent || "");
  if (/iPhone/.test(ua)) return "iPhone";
  if (/iPad/.test(ua) || (/Macintosh/.test(ua) && /Mobile\//.test(ua))) return "iPad";
  const android = /Android[^;)]*;\s*([^;)]+?)(?:\s+Build\/[^;)]*)?\)/.exec(ua);
  if (android && android[1] && android[1] !== "K" && !/^wv$/.test(android[1])) return android[1].trim();
  if (/Android/.test(ua)) return "Android phone";
  return "Web controller";
}

/** Trims, drops control characters, keeps at most 64 characters (code points); never empty. */
export function sanitizeName(name, fallback = "Web controller") {
  // eslint-disable-next-line no-control-regex
  const cleaned = String(name ?? "").replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "").trim();
  const chars = Array.from(cleaned).slice(0, MAX_NAME_LENGTH).join("").trim();
  return chars || fallback;
}

/** Checks a stored or received device record: {id: 16 hex, credential: base64url, host}. */
export function validDevice(d) {
  return !!d && typeof d === "object" && typeof d.id === "string" && /^[0-9a-f]{16}$/i.test(d.id) &&
    typeof d.credential === "string" && d.credential.length >= 22 && BASE64URL.test(d.credential) &&
    (d.host === undefined || typeof d.host === "string");
}

export function loadDevice(storage) {
  try {
    const d = JSON.parse(storage.getItem(STORAGE_KEY) || "null");
    return validDevice(d) ? { id: d.id, credential: d.credential, host: d.host || "" } : null;
  } catch {
    return null;
  }
}

/** Stores the device; returns false when storage refuses (private mode, quota). */
export function saveDevice(storage, d) {
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify({ id: d.id, credential: d.credential, host: d.host || "" }));
    return true;
  } catch {
    return false;
  }
}

export function forgetDevice(storage) {
  try { storage.removeItem(STORAGE_KEY); } catch { /* nothing stored */ }
}

function post(fetchFn, url, payload) {
  return fetchFn(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(payload),
    cache: "no-store",
    credentials: "same-origin",
    referrerPolicy: "no-referrer",
  });
}

/**
 * POST /api/pair, then wait for the person at the computer: the host answers 202 with a
 * ticket and a 4-digit code (the computer shows the same code); the page polls
 * /api/pair/wait with the ticket every `pollMs` until the computer accepts (200: the
 * device) or refuses or the request expires (403). `onWaiting(code)` is called once the
 * request is made. Resolves to {ok: true, device} or {ok: false, error} (a sentence).
 * @param {{secret:string, name:string}} req
 * @param {typeof fetch} fetchFn
 */
export async function pair(req, fetchFn, url = "/api/pair",
                           { onWaiting = () => {}, pollMs = 1000, sleep = (ms) => new Promise((r) => setTimeout(r, ms)) } = {}) {
  let res;
  try {
    res = await post(fetchFn, url, { secret: req.secret, name: sanitizeName(req.name) });
  } catch (e) {
    return { ok: false, error: "Cannot reach the host (" + ((e && e.message) || e) + "). Is it still running?" };
  }
  let body = null;
  try { body = await res.json(); } catch { /* not JSON */ }
  if (res.status === 202 && body && typeof body.ticket === "string") {
    const ticket = body.ticket;
    onWaiting(String(body.code || ""));
    const waitURL = url + "/wait";
    for (let i = 0; i < 600; i++) {          // the host forgets a request after 120 s
      await sleep(pollMs);
      try { res = await post(fetchFn, waitURL, { ticket }); } catch { continue; }   // a blip: poll again
      body = null;
      try { body = await res.json(); } catch { /* not JSON */ }
      if (res.status !== 202) break;
    }
  }
  if (res.status === 200 && body && validDevice(body)) {
    return { ok: true, device: { id: body.id, credential: body.credential, host: String(body.host || "") } };
  }
  if (res.status === 200) return { ok: false, error: "The host answered with an unexpected reply." };
  const msg = body && typeof body.error === "string" ? body.error.slice(0, 200) : "HTTP " + res.status;
  return { ok: false, error: res.status === 403 ? msg + " — scan a fresh QR code." : msg };
}
