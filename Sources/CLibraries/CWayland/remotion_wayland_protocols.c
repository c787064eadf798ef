// The interface tables libwayland-client marshals with, declared by hand (no
// wayland-scanner, no XML at build time: the wlr protocols are not packaged in Debian 12).
// Request and event order, signatures and versions follow the published XML exactly:
//   wlr-virtual-pointer-unstable-v1 (version 2), virtual-keyboard-unstable-v1 (version 1),
//   xdg-output-unstable-v1 (version 3), wlr-layer-shell-unstable-v1 (version 1, what the
//   laser overlay binds).
// A signature's leading digit is the version a message appeared in; `?` nullable; `o`
// object, `n` new id, `u` uint, `i` int, `f` fixed, `h` fd, `s` string.
// The core interfaces they refer to (wl_seat, wl_output) live in libwayland-client and
// are filled in by rw_protocols_link once it is loaded.
#include "remotion_wayland_protocols.h"

#include <stddef.h>

static const struct rw_interface *pointer_manager_types[3];     // wl_seat, wl_output, virtual pointer
static const struct rw_interface *keyboard_manager_types[2];    // wl_seat, virtual keyboard
static const struct rw_interface *xdg_manager_types[2];         // xdg output, wl_output
static const struct rw_interface *no_types[5];

static const struct rw_message virtual_pointer_requests[] = {
    { "motion", "uff", no_types },
    { "motion_absolute", "uuuuu", no_types },
    { "button", "uuu", no_types },
    { "axis", "uuf", no_types },
    { "frame", "", no_types },
    { "axis_source", "u", no_types },
    { "axis_stop", "uu", no_types },
    { "axis_discrete", "uufi", no_types },
    { "destroy", "", no_types },
};
const struct rw_interface rw_virtual_pointer_interface = {
    "zwlr_virtual_pointer_v1", 2, 9, virtual_pointer_requests, 0, NULL,
};

// create_virtual_pointer(seat: ?wl_seat, id: new_id), destroy(),
// create_virtual_pointer_with_output(seat: ?wl_seat, output: ?wl_output, id: new_id) since 2.
static const struct rw_interface *create_pointer_types[2];
static const struct rw_message pointer_manager_requests[] = {
    { "create_virtual_pointer", "?on", create_pointer_types },
    { "destroy", "", no_types },
    { "create_virtual_pointer_with_output", "2?o?on", pointer_manager_types },
};
const struct rw_interface rw_virtual_pointer_manager_interface = {
    "zwlr_virtual_pointer_manager_v1", 2, 3, pointer_manager_requests, 0, NULL,
};

// keymap(format: uint, fd: fd, size: uint), key(time, key, state), modifiers(depressed,
// latched, locked, group), destroy().
static const struct rw_message virtual_keyboard_requests[] = {
    { "keymap", "uhu", no_types },
    { "key", "uuu", no_types },
    { "modifiers", "uuuu", no_types },
    { "destroy", "", no_types },
};
const struct rw_interface rw_virtual_keyboard_interface = {
    "zwp_virtual_keyboard_v1", 1, 4, virtual_keyboard_requests, 0, NULL,
};

// create_virtual_keyboard(seat: wl_seat, id: new_id).
static const struct rw_message keyboard_manager_requests[] = {
    { "create_virtual_keyboard", "on", keyboard_manager_types },
};
const struct rw_interface rw_virtual_keyboard_manager_interface = {
    "zwp_virtual_keyboard_manager_v1", 1, 1, keyboard_manager_requests, 0, NULL,
};

// zxdg_output_v1: destroy(); events logical_position(x, y), logical_size(w, h), done(),
// name(string) since 2, description(string) since 2.
static const struct rw_message xdg_output_requests[] = {
    { "destroy", "", no_types },
};
static const struct rw_message xdg_output_events[] = {
    { "logical_position", "ii", no_types },
    { "logical_size", "ii", no_types },
    { "done", "", no_types },
    { "name", "2s", no_types },
    { "description", "2s", no_types },
};
const struct rw_interface rw_xdg_output_interface = {
    "zxdg_output_v1", 3, 1, xdg_output_requests, 5, xdg_output_events,
};

// zxdg_output_manager_v1: destroy(), get_xdg_output(id: new_id, output: wl_output).
static const struct rw_message xdg_manager_requests[] = {
    { "destroy", "", no_types },
    { "get_xdg_output", "no", xdg_manager_types },
};
const struct rw_interface rw_xdg_output_manager_interface = {
    "zxdg_output_manager_v1", 3, 2, xdg_manager_requests, 0, NULL,
};

void rw_protocols_link(const struct rw_interface *seat, const struct rw_interface *output) {
    create_pointer_types[0] = seat;
    create_pointer_types[1] = &rw_virtual_pointer_interface;
    pointer_manager_types[0] = seat;
    pointer_manager_types[1] = output;
    pointer_manager_types[2] = &rw_virtual_pointer_interface;
    keyboard_manager_types[0] = seat;
    keyboard_manager_types[1] = &rw_virtual_keyboard_interface;
    xdg_manager_types[0] = &rw_xdg_output_interface;
    xdg_manager_types[1] = output;
}

// zwlr_layer_surface_v1 (version 1): set_size(w, h), set_anchor(anchor), set_exclusive_zone(zone),
// set_margin(top, right, bottom, left), set_keyboard_interactivity(k), get_popup(popup: xdg_popup;
// never sent, so its type is not needed), ack_configure(serial), destroy(); events
// configure(serial, width, height), closed().
static const struct rw_message layer_surface_requests[] = {
    { "set_size", "uu", no_types },
    { "set_anchor", "u", no_types },
    { "set_exclusive_zone", "i", no_types },
    { "set_margin", "iiii", no_types },
    { "set_keyboard_interactivity", "u", no_types },
    { "get_popup", "o", no_types },
    { "ack_configure", "u", no_types },
    { "destroy", "", no_types },
};
static const struct rw_message layer_surface_events[] = {
    { "configure", "uuu", no_types },
    { "closed", "", no_types },
};
const struct rw_interface rw_layer_surface_interface = {
    "zwlr_layer_surface_v1", 1, 8, layer_surface_requests, 2, layer_surface_events,
};

// zwlr_layer_shell_v1 (version 1): get_layer_surface(id: new_id, surface: wl_surface,
// output: ?wl_output, layer: uint, namespace: string).
static const struct rw_interface *layer_shell_types[5];
static const struct rw_message layer_shell_requests[] = {
    { "get_layer_surface", "no?ous", layer_shell_types },
};
const struct rw_interface rw_layer_shell_interface = {
    "zwlr_layer_shell_v1", 1, 1, layer_shell_requests, 0, NULL,
};

void rw_layer_shell_link(const struct rw_interface *surface, const struct rw_interface *output) {
    layer_shell_types[0] = &rw_layer_surface_interface;
    layer_shell_types[1] = surface;
    layer_shell_types[2] = output;
}
