// What remotion_wayland.c shares with remotion_wayland_overlay.c: libwayland-client's
// functions (loaded at run time), the connection's fields, and two helpers. Not a public API.
#ifndef REMOTION_WAYLAND_INTERNAL_H
#define REMOTION_WAYLAND_INTERNAL_H

#include "remotion_wayland.h"
#include "remotion_wayland_protocols.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef void proxy;

struct rw_api {
    proxy *(*wl_display_connect)(const char *name);
    void (*wl_display_disconnect)(proxy *display);
    int (*wl_display_get_fd)(proxy *display);
    int (*wl_display_flush)(proxy *display);
    int (*wl_display_prepare_read)(proxy *display);
    void (*wl_display_cancel_read)(proxy *display);
    int (*wl_display_read_events)(proxy *display);
    int (*wl_display_dispatch_pending)(proxy *display);
    int (*wl_display_get_error)(proxy *display);
    uint32_t (*wl_display_get_protocol_error)(proxy *display, const struct rw_interface **interface, uint32_t *id);
    void (*wl_proxy_marshal)(proxy *p, uint32_t opcode, ...);
    proxy *(*wl_proxy_marshal_constructor)(proxy *p, uint32_t opcode, const struct rw_interface *interface, ...);
    proxy *(*wl_proxy_marshal_constructor_versioned)(proxy *p, uint32_t opcode, const struct rw_interface *interface,
                                                     uint32_t version, ...);
    int (*wl_proxy_add_listener)(proxy *p, void (**implementation)(void), void *data);
    void (*wl_proxy_destroy)(proxy *p);
    uint32_t (*wl_proxy_get_version)(proxy *p);
    void (*wl_log_set_handler_client)(void (*handler)(const char *format, va_list args));
    const struct rw_interface *wl_registry_interface;
    const struct rw_interface *wl_callback_interface;
    const struct rw_interface *wl_seat_interface;
    const struct rw_interface *wl_output_interface;
    const struct rw_interface *wl_compositor_interface;
    const struct rw_interface *wl_surface_interface;
    const struct rw_interface *wl_region_interface;
    const struct rw_interface *wl_shm_interface;
    const struct rw_interface *wl_shm_pool_interface;
    const struct rw_interface *wl_buffer_interface;
};
extern struct rw_api rw_api;

/// The laser's layer surface on one output (remotion_wayland_overlay.c).
typedef struct {
    proxy *buffer, *surface, *layer;
    int output_index;        // the output its surface is on; -1 when there is none
    int configured, closed;  // the compositor's first configure arrived; it closed the surface
    int32_t diameter;
} rw_overlay_state;

enum { MAX_GLOBALS = 96, MAX_OUTPUTS = 16, NAME_SIZE = 64 };

typedef struct {
    proxy *output, *xdg;
    uint32_t global;
    int gone;
    rw_output info;
    int32_t mode_width, mode_height;
    uint32_t *generation;   // the connection's outputs_generation, counted on each xdg-output done
} output_slot;

struct rw_connection {
    proxy *display, *registry, *seat, *pointer_manager, *keyboard_manager, *xdg_manager;
    proxy *compositor, *shm, *layer_shell;
    rw_overlay_state overlay;   // the laser's layer surface (remotion_wayland_overlay.c)
    proxy *pointer, *keyboard;
    uint32_t pointer_manager_version;
    struct { char name[NAME_SIZE]; uint32_t id, version; } globals[MAX_GLOBALS];
    size_t global_count;
    output_slot outputs[MAX_OUTPUTS];
    size_t output_count;
    uint32_t outputs_generation;   // counts outputs added, gone or described anew
};


void rw_say(char *why, size_t size, const char *text);
/// -1, with `why` saying how the connection was lost.
int rw_lost(rw_connection *c, char *why, size_t size);

#endif
