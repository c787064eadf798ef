// A Wayland client for injection on wlroots compositors (sway, Hyprland, labwc, river,
// Wayfire): zwlr_virtual_pointer_v1 and zwp_virtual_keyboard_v1, with libwayland-client
// loaded at run time (dlopen, like GIO for notifications: no -dev package at build time,
// and the .deb's dependencies stay as they are). The protocols' interface tables are
// declared by hand in remotion_wayland_protocols.c from the published XML.
//
// One connection has one owner: no function may be called from two threads at once.
// Every function that talks to the compositor returns 0 on success and -1 when the
// connection is lost (the compositor went away or sent a protocol error); `why` says which.
#ifndef REMOTION_WAYLAND_H
#define REMOTION_WAYLAND_H

#include <stddef.h>
#include <stdint.h>

typedef struct rw_connection rw_connection;

/// One output as the compositor describes it (layout coordinates are logical pixels).
typedef struct {
    char name[64];          // xdg-output's name ("HEADLESS-1", "DP-1"); "" when not offered
    int32_t x, y;           // logical position in the layout
    int32_t width, height;  // logical size (xdg-output), else the mode's size over the scale
    int32_t scale;
} rw_output;

/// Connects to `display` (a socket name or path; NULL: $WAYLAND_DISPLAY) and reads the
/// compositor's globals and outputs, waiting at most `timeout_ms` for each answer. NULL
/// with `why` set when libwayland-client is missing, no socket answers, or what answers
/// is not a Wayland compositor.
rw_connection *rw_connect(const char *display, int timeout_ms, char *why, size_t why_size);
void rw_disconnect(rw_connection *c);

/// The globals the compositor offers: `index` from 0; NULL past the last.
const char *rw_global_name(const rw_connection *c, size_t index, uint32_t *version);
int rw_has_global(const rw_connection *c, const char *interface);
size_t rw_output_count(const rw_connection *c);
/// Changes each time an output is added, goes away or is described anew (read after rw_flush).
uint32_t rw_outputs_generation(const rw_connection *c);
/// 0 and `out` filled, or -1 when `index` is past the last output.
int rw_output_get(const rw_connection *c, size_t index, rw_output *out);

/// Creates the virtual pointer (on output `output_index`, or the whole layout when -1)
/// and the virtual keyboard on the first seat.
int rw_create_devices(rw_connection *c, int output_index, char *why, size_t why_size);

/// A new virtual pointer in place of the old one (which is destroyed): on output
/// `output_index`, or the whole layout when -1 (the outputs changed under it).
int rw_pointer_rebind(rw_connection *c, int output_index, char *why, size_t why_size);

int rw_pointer_motion_absolute(rw_connection *c, uint32_t time_ms, uint32_t x, uint32_t y,
                               uint32_t x_extent, uint32_t y_extent);
/// Relative motion in logical pixels (|dx|, |dy| below 2^23).
int rw_pointer_motion(rw_connection *c, uint32_t time_ms, int32_t dx, int32_t dy);
/// `button`: a Linux BTN_* code; `pressed` 1 or 0.
int rw_pointer_button(rw_connection *c, uint32_t time_ms, uint32_t button, uint32_t pressed);
/// Wheel steps on `axis` (0 vertical, 1 horizontal), positive down / right.
int rw_pointer_wheel(rw_connection *c, uint32_t time_ms, uint32_t axis, int32_t steps);
int rw_pointer_frame(rw_connection *c);
/// Uploads an XKB keymap (text format v1, NUL not included in `size`).
int rw_keyboard_keymap(rw_connection *c, const char *keymap, size_t size, char *why, size_t why_size);
/// `key`: an evdev key code (the keymap's keycode minus 8).
int rw_keyboard_key(rw_connection *c, uint32_t time_ms, uint32_t key, uint32_t pressed);
int rw_keyboard_modifiers(rw_connection *c, uint32_t depressed, uint32_t latched, uint32_t locked, uint32_t group);

/// The presenter's laser dot as a zwlr_layer_shell_v1 surface on the overlay layer: `diameter`
/// pixels square, a disc of `argb` (premultiplied ARGB8888, wl_shm: no GPU), an empty input
/// region (click-through), no keyboard, exclusive zone -1. 0, or -1 with `why` when the
/// compositor offers no layer shell, wl_compositor or wl_shm (nothing is created then).
int rw_overlay_prepare(rw_connection *c, int32_t diameter, uint32_t argb, char *why, size_t why_size);
/// Shows the dot on output `output_index` with its top-left corner at (left, top) in that
/// output's logical pixels: a new surface when the output changed or none is shown, else
/// the old one moved. -1 when the connection is lost or the output is gone.
int rw_overlay_show(rw_connection *c, int output_index, int32_t left, int32_t top, char *why, size_t why_size);
/// Hides the dot (its surface is destroyed); -1 when the connection is lost.
int rw_overlay_hide(rw_connection *c, char *why, size_t why_size);

/// Sends what is queued and reads what the compositor sent, without blocking. -1 when
/// the connection is lost (`why` says how).
int rw_flush(rw_connection *c, char *why, size_t why_size);
/// Waits until the compositor has handled every request sent so far (tests, read-backs).
int rw_roundtrip(rw_connection *c, int timeout_ms, char *why, size_t why_size);

#endif
