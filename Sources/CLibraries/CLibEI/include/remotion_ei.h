// Input through a compositor's EIS (libei): GNOME (mutter) and KDE (KWin) hand an EIS socket
// to a remote-control client (the RemoteDesktop portal's ConnectToEIS; mutter's own
// RemoteDesktop API). libei and libxkbcommon are loaded at run time (dlopen, like the
// Wayland and notification shims): no -dev package at build time, the .deb's Depends
// unchanged, and on a system without libei (Debian 12) the open says so in one line.
//
// One connection: a sender with an absolute pointer (buttons, wheel) and a keyboard bound on
// the compositor's seat. Keys are Linux KEY_* codes read through the keymap the compositor
// gives the keyboard (libei cannot upload one): re_keycode finds the key and level for a
// keysym in it. Not thread-safe: one thread at a time.
#ifndef REMOTION_EI_H
#define REMOTION_EI_H

#include <stddef.h>
#include <stdint.h>

typedef struct re_connection re_connection;

/// Loads libei and libxkbcommon (once per process): 1 when both are there with every
/// function the shim uses, else 0 and `why` says which is missing (`remotion doctor`,
/// `--inject auto`).
int re_available(char *why, size_t why_size);

/// Connects on the EIS socket `fd` (taken over: closed by re_close or on failure) and waits
/// up to `timeout_ms` for an absolute pointer and a keyboard to be resumed. NULL when libei
/// cannot be loaded, the compositor refuses or gives neither device in time; `why` says which.
re_connection *re_open_fd(int fd, int timeout_ms, char *why, size_t why_size);

/// The same on the socket at `path` (NULL: $LIBEI_SOCKET, libei's own variable).
re_connection *re_open_socket(const char *path, int timeout_ms, char *why, size_t why_size);

/// The absolute pointer's regions (the compositor's monitors, in its logical pixels): how
/// many, and region `index`'s place and size (0 when it exists).
size_t re_region_count(re_connection *c);
int re_region(re_connection *c, size_t index, uint32_t *x, uint32_t *y, uint32_t *width, uint32_t *height);

/// Reads what the compositor sent (pauses, resumes, a disconnect) without blocking.
/// -1 once the compositor has ended the connection (`why` says so).
int re_dispatch(re_connection *c, char *why, size_t why_size);

/// Queues input on the devices; re_frame sends it. Dropped while the device is paused
/// (the compositor decides; a paused device is not an error). -1 when the connection is gone.
int re_pointer_absolute(re_connection *c, double x, double y);
int re_button(re_connection *c, uint32_t code, int down);
int re_scroll_discrete(re_connection *c, int32_t x, int32_t y);
int re_key(re_connection *c, uint32_t code, int down);
int re_frame(re_connection *c);

/// The Linux KEY_* code that gives `keysym` in the compositor's keymap (first layout), and
/// whether Shift (level 2) is needed. -1 when the keymap has no key for it at level 1 or 2.
int re_keycode(re_connection *c, uint32_t keysym, uint32_t *code, int *shifted);

/// Closes the connection. Idempotent on NULL.
void re_close(re_connection *c);

#endif
