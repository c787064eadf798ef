// The dashboard's profile editor (docs/DASHBOARD.md, docs/MOTION.md "Profiles"): config.toml's
// [[profile]] tables, each with its app, the kind of controller it is for and its rows of
// key = value (the [mapping] keys, the button letters A–P, pad), added, removed and reordered
// here and saved as the whole list (PUT /api/profiles, token-protected like every write). The
// host checks them with the file's own rules: an error is one line in #profiles-status and
// nothing changes. While nothing is being edited, the list follows the snapshot (`profiles`).
// Uses TOKEN, WRITE_HEADERS and $ from dashboard.js; renderProfiles is called from there.
"use strict";

const PROFILE_KINDS = [["", "every controller"], ["phone", "phone"], ["dsu", "dsu"], ["local-pad", "local-pad"], ["udp", "udp"]];
const BUTTON_KEYS = "ABCDEFGHIJKLMNOP".split("");
let profileDrafts = [];         // what the editor shows: [{app, controller, entries: [{key, value}]}]
let profilesShown = "";         // the snapshot's profiles the editor was last filled from (JSON)
let profilesDirty = false;      // edited since: the snapshot does not overwrite the editor
let profileKeys = [];           // the [mapping] keys (GET /api/settings), then A–P and pad
let profileSnapshot = { profiles: [], focused: null, controllers: [] };   // the newest snapshot's

function profileKeyChoices() { return [...profileKeys, ...BUTTON_KEYS, "pad"]; }

/** From the snapshot: the profiles (unless being edited), who each is in force for, the focused app. */
function renderProfiles(profiles, focused, controllers) {
  profileSnapshot = { profiles, focused, controllers };
  $("focused-app").textContent = focused || "none";
  const shown = JSON.stringify(profiles);
  if (!profilesDirty && shown !== profilesShown) {
    profilesShown = shown;
    profileDrafts = profiles.map((p) => ({ app: p.app, controller: p.controller || "", line: p.line,
      entries: (p.entries || []).map((e) => ({ key: e.key, value: e.value })) }));
    drawProfileEditor();
  }
  document.querySelectorAll("#profiles-list .profile").forEach((box, i) => {
    const p = profileDrafts[i];
    const using = p ? controllers.filter((c) => c.profile === p.app).map((c) => c.name || c.address) : [];
    box.querySelector(".in-force").textContent = using.length ? `in force for ${using.join(", ")}` : "";
  });
}

function profileEdited() { profilesDirty = true; $("profiles").dataset.dirty = "yes"; }

function profileEl(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;   // app names and values: text only, never HTML
  return e;
}

function profileButton(cls, label, onClick) {
  const b = profileEl("button", cls, label);
  b.type = "button";
  b.addEventListener("click", () => { onClick(); profileEdited(); drawProfileEditor(); });
  return b;
}

function drawProfileEditor() {
  const list = $("profiles-list");
  list.replaceChildren(...profileDrafts.map((p, i) => {
    const box = profileEl("li", "profile");
    box.dataset.index = String(i);
    const head = profileEl("div", "profile-head");
    const app = profileEl("input", "app");
    app.type = "text"; app.placeholder = "app (WM_CLASS or app_id)"; app.value = p.app; app.spellcheck = false;
    app.addEventListener("input", () => { p.app = app.value; profileEdited(); });
    const kind = profileEl("select", "controller");
    kind.replaceChildren(...PROFILE_KINDS.map(([v, label]) => new Option(label, v)));
    kind.value = p.controller || "";
    kind.addEventListener("change", () => { p.controller = kind.value; profileEdited(); });
    head.append(app, kind,
      profileButton("up", "↑", () => { if (i > 0) profileDrafts.splice(i - 1, 0, ...profileDrafts.splice(i, 1)); }),
      profileButton("down", "↓", () => { if (i + 1 < profileDrafts.length) profileDrafts.splice(i + 1, 0, ...profileDrafts.splice(i, 1)); }),
      profileButton("remove-profile", "Remove", () => { profileDrafts.splice(i, 1); }));
    const rows = profileEl("div", "rows");
    p.entries.forEach((entry, j) => {
      const row = profileEl("div", "row");
      const key = profileEl("select", "key");
      const choices = profileKeyChoices();
      if (!choices.includes(entry.key)) choices.unshift(entry.key);
      key.replaceChildren(...choices.map((k) => new Option(k, k)));
      key.value = entry.key;
      key.addEventListener("change", () => { entry.key = key.value; profileEdited(); });
      const value = profileEl("input", "value");
      value.type = "text"; value.value = entry.value; value.spellcheck = false;
      value.addEventListener("input", () => { entry.value = value.value; profileEdited(); });
      row.append(key, profileEl("span", "eq", "="), value, profileButton("remove-row", "×", () => { p.entries.splice(j, 1); }));
      rows.appendChild(row);
    });
    const foot = profileEl("div", "profile-foot");
    foot.append(profileButton("add-row", "Add a row", () => { p.entries.push({ key: "mode", value: "" }); }),
      profileEl("span", "hint", p.line ? `config.toml line ${p.line}` : ""), profileEl("span", "hint in-force"));
    box.append(head, rows, foot);
    return box;
  }));
}

async function saveProfiles() {
  const status = $("profiles-status");
  const body = { profiles: profileDrafts.map((p) => ({ app: p.app, controller: p.controller || null,
    entries: p.entries.map((e) => ({ key: e.key, value: e.value })) })) };
  try {
    const response = await fetch("/api/profiles", { method: "PUT", headers: WRITE_HEADERS, body: JSON.stringify(body) });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.error || response.statusText);
    status.textContent = `saved ${answer.profiles.length} profile${answer.profiles.length === 1 ? "" : "s"}`;
    status.className = "hint";
    profilesDirty = false;
    delete $("profiles").dataset.dirty;
    // The profiles now in force, as the file holds them; the snapshots say the same from now on.
    renderProfiles(answer.profiles, profileSnapshot.focused, profileSnapshot.controllers);
  } catch (e) {
    status.textContent = e.message;
    status.className = "hint error";
  }
}

$("profiles-add").addEventListener("click", () => {
  profileDrafts.push({ app: "", controller: "", entries: [{ key: "mode", value: "fps" }] });
  profileEdited();
  drawProfileEditor();
});
$("profiles-save").addEventListener("click", saveProfiles);
$("profiles-revert").addEventListener("click", () => {
  profilesDirty = false;
  delete $("profiles").dataset.dirty;
  profilesShown = "";
  $("profiles-status").textContent = "";
  renderProfiles(profileSnapshot.profiles, profileSnapshot.focused, profileSnapshot.controllers);
});
fetch("/api/settings").then((r) => r.json()).then((view) => { profileKeys = view.keys || []; drawProfileEditor(); }).catch(() => {});
