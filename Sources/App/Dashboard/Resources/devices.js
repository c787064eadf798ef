// The dashboard's pairing card (docs/DASHBOARD.md): the phones waiting to pair (name, address, the
// code the phone shows, time left) with Accept and Deny, and the paired phones and
// controllers with Revoke and the typing switch. Reads GET /api/devices every second (and
// at once after each answer); answers are token-protected POSTs (docs/SECURITY.md §5.3) to
// the same request `remotion devices --accept` and the terminal view answer: whoever answers
// first wins, and the others see it gone. Uses TOKEN, WRITE_HEADERS and $ from dashboard.js.
"use strict";

(() => {
  const waitingBox = $("waiting-phones");
  const phonesList = $("paired-phones");
  const controllersList = $("paired-controllers");
  const status = $("devices-status");

  function say(text, error) {
    status.textContent = text;
    status.className = error ? "hint error" : "hint";
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;   // names come from phones: text only, never HTML
    return e;
  }

  function button(cls, label, onClick) {
    const b = el("button", cls, label);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  async function post(path, body) {
    const response = await fetch(path, { method: "POST", headers: WRITE_HEADERS, body: JSON.stringify(body) });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.error || response.statusText);
    return answer;
  }

  async function act(path, body, done) {
    try {
      say(done(await post(path, body)), false);
    } catch (e) {
      say(e.message, true);
    }
    refresh();
  }

  // Keyed updates: an element stays while its item does, so a click never lands on a
  // rebuilt row that now means another phone.
  function sync(container, items, key, make, update) {
    const keep = new Set(items.map(key));
    for (const child of [...container.children]) {
      if (!keep.has(child.dataset.key)) child.remove();
    }
    for (const item of items) {
      let row = [...container.children].find((c) => c.dataset.key === key(item));
      if (!row) {
        row = make(item);
        row.dataset.key = key(item);
        container.appendChild(row);
      }
      update(row, item);
    }
  }

  function waitingCard(w) {
    const card = el("article", "waiting");
    card.dataset.request = w.request;
    const who = el("div");
    who.append("phone ", el("b", "name", w.name), " at ", el("span", "address", w.address), " asks to pair");
    const code = el("div");
    code.append("code ", el("span", "code", w.code), " · ", el("span", "seconds-left", ""), " s left");
    const hint = el("div", "hint", "Accept only if the phone shows the same code.");
    card.append(who, code, hint,
      button("accept", "Accept", () => act("/api/web-pairing/answer", { request: w.request, accept: true },
        (a) => `accepted phone '${a.name}' at ${a.address}: it pairs now`)),
      button("deny", "Deny", () => act("/api/web-pairing/answer", { request: w.request, accept: false },
        (a) => `refused phone '${a.name}' at ${a.address}: nothing was stored`)));
    return card;
  }

  // A card's buttons wait SETTLE_MS after it appears or moves (a card above it went), as
  // the terminal view's keys wait after its prompt changes: a click meant for what was under
  // the pointer a moment ago does not answer the phone that slid there. The host refuses an
  // answer sooner than that after the phone asked, too.
  const SETTLE_MS = 1000;
  function settle(card) {
    const top = String(card.offsetTop);
    if (card.dataset.top === top) return;
    card.dataset.top = top;
    card.classList.add("settling");
    for (const b of card.querySelectorAll("button")) b.disabled = true;
    clearTimeout(card.settleTimer);
    card.settleTimer = setTimeout(() => {
      card.classList.remove("settling");
      for (const b of card.querySelectorAll("button")) b.disabled = false;
    }, SETTLE_MS);
  }

  function phoneRow(p) {
    const row = el("li");
    row.dataset.phone = p.id;
    const typing = el("input", "typing");
    typing.type = "checkbox";
    typing.title = "may type text and keys (Return, Tab …) into the focused window";
    typing.addEventListener("change", () => act("/api/devices/typing", { phone: p.id, typing: typing.checked },
      (a) => `'${a.name}' ${a.typing ? "may type" : "may not type"}`));
    const label = el("label", "typing-label");
    label.append(typing, " may type");
    row.append(el("span", "name", p.name), el("span", "id", p.id), label,
      button("revoke", "Revoke", () => act("/api/devices/revoke", { phone: p.id },
        (a) => `revoked phone '${a.name}': it is dropped within a second`)));
    return row;
  }

  function controllerRow(c) {
    const row = el("li");
    row.dataset.controller = c.fingerprint;
    row.append(el("span", "name", c.name), el("span", "id", c.fingerprint.slice(0, 19)),
      button("revoke", "Revoke", () => act("/api/devices/revoke", { controller: c.fingerprint },
        (a) => `revoked controller '${a.name}': its session ends`)));
    return row;
  }

  function render(view) {
    sync(waitingBox, view.waiting, (w) => w.request, waitingCard, (card, w) => {
      card.querySelector(".seconds-left").textContent = w.seconds;
    });
    sync(phonesList, view.phones, (p) => p.id, phoneRow, (row, p) => {
      const box = row.querySelector(".typing");
      if (document.activeElement !== box) box.checked = p.typing;
      row.querySelector(".name").textContent = p.name;
    });
    sync(controllersList, view.controllers, (c) => c.fingerprint, controllerRow, () => {});
    phonesList.dataset.count = view.phones.length;
    controllersList.dataset.count = view.controllers.length;
    waitingBox.dataset.count = view.waiting.length;
    for (const card of waitingBox.children) settle(card);
  }

  let busy = false;
  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      const response = await fetch("/api/devices", { cache: "no-store" });
      if (response.ok) render(await response.json());
    } catch (e) {
      // The host is gone or restarting: keep what is shown, try again next second.
    } finally {
      busy = false;
    }
  }

  refresh();
  setInterval(() => { if (document.visibilityState !== "hidden") refresh(); }, 1000);
})();
