// notices.js — the note box under the status line (what to do about certificates, sensors,
// refusals), and the texts. `Notices` needs one element; the text builders are pure.

export function escapeHtml(t) {
  return String(t).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/** Keyed notes shown together. A standing note (`show`: sensors, certificates) stays dismissed
 *  until its text changes; a note about something that just happened (`flash`: the host's
 *  answer, a refused text) is shown again by each new event, for `ms` from the latest. */
export class Notices {
  constructor(el, timers = globalThis) {
    this.el = el; this.timers = timers;
    this.items = new Map();           // key -> {html, bad, dismissed}
    this.expiry = new Map();          // key -> the timer that takes a flashed note away
  }
  show(key, html, bad = false) {
    const old = this.items.get(key);
    if (old && old.html === html) return;
    this.items.set(key, { html, bad, dismissed: false });
    this.paint();
  }
  flash(key, html, ms, bad = false) {
    this.timers.clearTimeout(this.expiry.get(key));
    this.expiry.set(key, this.timers.setTimeout(() => this.hide(key), ms));
    this.items.set(key, { html, bad, dismissed: false });
    this.paint();
  }
  hide(key) {
    this.timers.clearTimeout(this.expiry.get(key));
    this.expiry.delete(key);
    if (this.items.delete(key)) this.paint();
  }
  paint() {
    const list = [...this.items.values()].filter((n) => !n.dismissed);
    this.el.hidden = list.length === 0;
    this.el.classList.toggle("bad", list.some((n) => n.bad));
    this.el.innerHTML = '<button type="button" class="notice-close" aria-label="Dismiss this note">×</button>' +
                        list.map((n) => n.html).join("");
    this.el.firstChild.addEventListener("click", () => {
      for (const n of this.items.values()) n.dismissed = true;
      this.paint();
    });
  }
}

const paras = (list) => list.map((t) => `<p>${t}</p>`).join("");

/** kind: unsupported | denied | insecure | error | nodata. */
export function sensorProblemHtml(kind, detail, secure, hostname, port) {
  const httpsUrl = `https://${hostname}:${port}/`;
  const texts = {
    unsupported: ["This browser has no motion sensor API. Use Safari on iPhone/iPad or Chrome/Firefox on Android.",
                  "The buttons still work."],
    denied: ["Motion access was denied, so the phone cannot aim.",
             "iPhone/iPad: Safari remembers the answer for this site. Close this tab, quit Safari " +
             "(swipe it away), open the link again, tap Start motion and choose Allow. If it still " +
             "says denied: Settings › Apps › Safari › Advanced › Website Data, delete this computer's entry.",
             "The buttons still work."],
    insecure: ["Motion sensors need a secure (https) page: see the note about the certificate."],
    error: ["The browser did not give motion access (" + escapeHtml(detail) + "). Tap Start motion again."],
    nodata: ["No motion data is arriving. This device may have no gyroscope, or the browser blocks " +
             "motion sensors for this site (Chrome: ⋮ › Site settings › Motion sensors).",
             secure ? "The buttons still work."
                    : `This page is not on a secure (https) connection; open <a href="${httpsUrl}">${escapeHtml(httpsUrl)}</a>.`],
  };
  return paras(texts[kind] || [escapeHtml(kind)]);
}

export function insecureContextHtml(hostname, port) {
  const base = `https://${hostname}:${port}`;
  return paras([
    `<b>Not a secure connection.</b> Browsers give motion sensors only to https pages.
     Open <a href="${base}/">${escapeHtml(base)}/</a> (scan the QR code again).`,
    `If the browser warns about the certificate, trust the computer's Remotion CA first:
     Android <a href="${base}/ca.crt">ca.crt</a> (Settings › Security › Encryption &amp; credentials ›
     Install a certificate › CA certificate); iPhone/iPad <a href="${base}/ca.mobileconfig">ca.mobileconfig</a>
     (install the profile, then Settings › General › About › Certificate Trust Settings › enable full trust).`]);
}

export function certificateHintHtml() {
  return paras([`Still not connected. On iPhone/iPad the computer's certificate must be trusted, not just
    accepted: install <a href="/ca.mobileconfig">ca.mobileconfig</a>, then Settings › General ›
    VPN &amp; Device Management › install it, then Settings › General › About › Certificate Trust
    Settings › enable full trust. Android: <a href="/ca.crt">ca.crt</a>.`]);
}

/** For a connection snapshot whose status is "refused". */
export function refusalHtml(s) {
  const lost = s.reason === "unknown" || s.reason === "revoked";
  return paras([
    `<b>${escapeHtml(s.host || "The computer")} refused this phone</b>${s.message ? ": " + escapeHtml(s.message) : ""}.`,
    lost ? "Pair again: on the computer, show the QR code (<code>remotion host</code>) and scan it with this phone."
         : "Tap ⋯ › Reconnect now to try again."]);
}
