// libwayland-client's interface description structs (wayland-util.h, a stable ABI since
// 1.0), declared here so no Wayland header is needed at build time.
#ifndef REMOTION_WAYLAND_PROTOCOLS_H
#define REMOTION_WAYLAND_PROTOCOLS_H

struct rw_interface;
struct rw_message {
    const char *name;
    const char *signature;
    const struct rw_interface **types;
};
struct rw_interface {
    const char *name;
    int version;
    int method_count;
    const struct rw_message *methods;
    int event_count;
    const struct rw_message *events;
};

extern const struct rw_interface rw_virtual_pointer_manager_interface;
extern const struct rw_interface rw_virtual_pointer_interface;
extern const struct rw_interface rw_virtual_keyboard_manager_interface;
extern const struct rw_interface rw_virtual_keyboard_interface;
extern const struct rw_interface rw_xdg_output_manager_interface;
extern const struct rw_interface rw_xdg_output_interface;

extern const struct rw_interface rw_layer_shell_interface;
extern const struct rw_interface rw_layer_surface_interface;

/// Fills the tables' references to libwayland-client's wl_seat and wl_output.
void rw_protocols_link(const struct rw_interface *seat, const struct rw_interface *output);
/// Fills the layer shell's references to wl_surface and wl_output.
void rw_layer_shell_link(const struct rw_interface *surface, const struct rw_interface *output);

#endif
