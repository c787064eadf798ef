// profile.js — the host's [[profile]] in force for this phone, as the page shows it: the host
// says so (a `profile` message) when the focused application switches profiles, and the mode
// bar shows the mode in force with a note under it naming the profile.

const MODE_NAME = { pointer: "Pointer", fps: "FPS" };

/**
 * The note for a profile in force ({app, setsMode}, null: none) and the mode in force; "" when
 * there is nothing to say (no profile: the page's own choice is in force).
 */
export function profileNote(profile, mode) {
  if (!profile || typeof profile.app !== "string") return "";
  const app = profile.app.slice(0, 64);
  return profile.setsMode && MODE_NAME[mode]
    ? `${MODE_NAME[mode]} mode: set by the host's profile for ${app}`
    : `The host's profile for ${app} is in force`;
}
