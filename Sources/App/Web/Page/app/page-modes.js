// page-modes.js — the page's modes as one table (docs/WEB-CONTROLLER.md, "What each control does by default"). A mode is
// one file (mode-*.js: its id, title, whether it aims with motion, its pane's HTML and the
// bindings of that pane) and one entry here; the mode bar, the panes, the mode memory and the
// motion gate all come from this table. Styles live in style.css (.pane-<id>).

import pointer from "./mode-pointer.js";
import presenter from "./mode-presenter.js";
import touchpad from "./mode-touchpad.js";
import gamepad from "./mode-gamepad.js";

export const PAGE_MODES = Object.freeze([pointer, presenter, touchpad, gamepad]);
export const MODES = PAGE_MODES.map((m) => m.id);
export const MODE_TITLES = Object.fromEntries(PAGE_MODES.map((m) => [m.id, m.title]));
/** Modes that aim with the phone's motion (they show Start motion). */
export const MOTION_MODES = new Set(PAGE_MODES.filter((m) => m.motion).map((m) => m.id));

export function modeById(id) { return PAGE_MODES.find((m) => m.id === id) || null; }

/** localStorage key of the mode remembered for a host (`location.host`: name and port). */
export function modeKey(host) { return "remotion.mode." + String(host || "").toLowerCase(); }

/** The mode remembered for `host`, or the first mode. */
export function loadMode(storage, host) {
  let m = null;
  try { m = storage.getItem(modeKey(host)); } catch { /* blocked */ }
  return MODES.includes(m) ? m : MODES[0];
}

export function saveMode(storage, host, mode) {
  if (!MODES.includes(mode)) return false;
  try { storage.setItem(modeKey(host), mode); return true; } catch { return false; }
}
