// See include/remotion_wayland.h. libwayland-client is opened RTLD_LOCAL at the first
// rw_connect and never closed; its functions are declared here by hand, as the stable
// ABI of wayland-client-core.h (1.21 on Debian 12): proxies and the display are opaque.
#define _GNU_SOURCE
#include "remotion_wayland.h"
#include "remotion_wayland_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

struct rw_api rw_api;

#define SYM(field) { #field, offsetof(struct rw_api, field) }
static const struct { const char *name; size_t offset; } symbols[] = {
    SYM(wl_display_connect), SYM(wl_display_disconnect), SYM(wl_display_get_fd), SYM(wl_display_flush),
    SYM(wl_display_prepare_read), SYM(wl_display_cancel_read), SYM(wl_display_read_events),
    SYM(wl_display_dispatch_pending), SYM(wl_display_get_error), SYM(wl_display_get_protocol_error),
    SYM(wl_proxy_marshal), SYM(wl_proxy_marshal_constructor), SYM(wl_proxy_marshal_constructor_versioned),
    SYM(wl_proxy_add_listener), SYM(wl_proxy_destroy), SYM(wl_proxy_get_version), SYM(wl_log_set_handler_client),
    SYM(wl_registry_interface), SYM(wl_callback_interface), SYM(wl_seat_interface), SYM(wl_output_interface),
    SYM(wl_compositor_interface), SYM(wl_surface_interface), SYM(wl_region_interface), SYM(wl_shm_interface),
    SYM(wl_shm_pool_interface), SYM(wl_buffer_interface),
};
static int loaded;
static char failure[160];
static pthread_once_t once = PTHREAD_ONCE_INIT;

// libwayland-client writes its complaints to stderr by default ("error: XDG_RUNTIME_DIR is
// invalid or not set in the environment."): the host's errors are one line of its own, so
// the last message is kept here instead and joins the `why` of a failed connect.
static char library_said[160];
static void keep_log(const char *format, va_list args) {
    char said[sizeof library_said];
    vsnprintf(said, sizeof said, format, args);
    const char *text = strncmp(said, "error: ", 7) == 0 ? said + 7 : said;
    snprintf(library_said, sizeof library_said, "%s", text);
    size_t n = strlen(library_said);
    while (n > 0 && (library_said[n - 1] == '\n' || library_said[n - 1] == '.')) library_said[--n] = 0;
}

static void load(void) {
    void *handle = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(failure, sizeof failure, "libwayland-client.so.0 not found (install libwayland-client0)");
        return;
    }
    for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++) {
        void *found = dlsym(handle, symbols[i].name);
        if (found == NULL) {
            snprintf(failure, sizeof failure, "libwayland-client.so.0 has no %s (older than 1.20?)", symbols[i].name);
            return;
        }
        *(void **)((char *)&rw_api + symbols[i].offset) = found;
    }
    rw_protocols_link(rw_api.wl_seat_interface, rw_api.wl_output_interface);
    rw_layer_shell_link(rw_api.wl_surface_interface, rw_api.wl_output_interface);
    rw_api.wl_log_set_handler_client(keep_log);
    loaded = 1;
}

void rw_say(char *why, size_t size, const char *text) {
    if (why != NULL && size > 0) snprintf(why, size, "%s", text);
}

// MARK: events

static void ignore(void) {}
static void output_geometry(void *d, proxy *o, int32_t x, int32_t y, int32_t pw, int32_t ph, int32_t subpixel,
                            const char *make, const char *model, int32_t transform) {
    (void)o; (void)pw; (void)ph; (void)subpixel; (void)make; (void)model; (void)transform;
    output_slot *s = d;
    if (s->xdg == NULL) { s->info.x = x; s->info.y = y; }
}
static void output_mode(void *d, proxy *o, uint32_t flags, int32_t w, int32_t h, int32_t refresh) {
    (void)o; (void)refresh;
    output_slot *s = d;
    if (flags & 1) { s->mode_width = w; s->mode_height = h; }   // WL_OUTPUT_MODE_CURRENT
}
static void output_scale(void *d, proxy *o, int32_t factor) {
    (void)o;
    ((output_slot *)d)->info.scale = factor > 0 ? factor : 1;
}
static void output_done(void *d, proxy *o) {   // xdg-output 3 describes changes with wl_output.done
    (void)o;
    output_slot *s = d;
    if (s->generation != NULL) (*s->generation)++;
}
static void (*output_listener[])(void) = {
    (void (*)(void))output_geometry, (void (*)(void))output_mode, (void (*)(void))output_done, (void (*)(void))output_scale,
    ignore, ignore,
};
static void xdg_position(void *d, proxy *x, int32_t px, int32_t py) {
    (void)x;
    ((output_slot *)d)->info.x = px;
    ((output_slot *)d)->info.y = py;
}
static void xdg_size(void *d, proxy *x, int32_t w, int32_t h) {
    (void)x;
    ((output_slot *)d)->info.width = w;
    ((output_slot *)d)->info.height = h;
}
static void xdg_name(void *d, proxy *x, const char *name) {
    (void)x;
    snprintf(((output_slot *)d)->info.name, NAME_SIZE, "%s", name ? name : "");
}
static void xdg_done(void *d, proxy *x) {
    (void)x;
    output_slot *s = d;
    if (s->generation != NULL) (*s->generation)++;
}
static void (*xdg_listener[])(void) = {
    (void (*)(void))xdg_position, (void (*)(void))xdg_size, (void (*)(void))xdg_done, (void (*)(void))xdg_name, ignore,
};

static uint32_t min_version(uint32_t offered, uint32_t ours) { return offered < ours ? offered : ours; }

static proxy *bind_global(rw_connection *c, uint32_t id, const struct rw_interface *interface, uint32_t version) {
    // wl_registry.bind(name: uint, id: new_id of any interface) is "usun" on the wire.
    return rw_api.wl_proxy_marshal_constructor_versioned(c->registry, 0, interface, version, id, interface->name,
                                                      version, NULL);
}

static void attach_xdg(rw_connection *c, output_slot *s) {
    if (c->xdg_manager == NULL || s->xdg != NULL || s->output == NULL) return;
    s->xdg = rw_api.wl_proxy_marshal_constructor(c->xdg_manager, 1, &rw_xdg_output_interface, NULL, s->output);
    if (s->xdg != NULL) rw_api.wl_proxy_add_listener(s->xdg, xdg_listener, s);
}

static void registry_global(void *d, proxy *registry, uint32_t id, const char *interface, uint32_t version) {
    (void)registry;
    rw_connection *c = d;
    if (interface == NULL) return;
    if (c->global_count < MAX_GLOBALS) {
        snprintf(c->globals[c->global_count].name, NAME_SIZE, "%s", interface);
        c->globals[c->global_count].id = id;
        c->globals[c->global_count].version = version;
        c->global_count++;
    }
    if (strcmp(interface, "wl_seat") == 0 && c->seat == NULL) {
        c->seat = bind_global(c, id, rw_api.wl_seat_interface, 1);
    } else if (strcmp(interface, rw_virtual_pointer_manager_interface.name) == 0 && c->pointer_manager == NULL) {
        c->pointer_manager_version = min_version(version, 2);
        c->pointer_manager = bind_global(c, id, &rw_virtual_pointer_manager_interface, c->pointer_manager_version);
    } else if (strcmp(interface, rw_virtual_keyboard_manager_interface.name) == 0 && c->keyboard_manager == NULL) {
        c->keyboard_manager = bind_global(c, id, &rw_virtual_keyboard_manager_interface, 1);
    } else if (strcmp(interface, rw_xdg_output_manager_interface.name) == 0 && c->xdg_manager == NULL) {
        c->xdg_manager = bind_global(c, id, &rw_xdg_output_manager_interface, min_version(version, 3));
        for (size_t i = 0; i < c->output_count; i++) attach_xdg(c, &c->outputs[i]);
    } else if (strcmp(interface, "wl_compositor") == 0 && c->compositor == NULL) {
        c->compositor = bind_global(c, id, rw_api.wl_compositor_interface, min_version(version, 4));
    } else if (strcmp(interface, "wl_shm") == 0 && c->shm == NULL) {
        c->shm = bind_global(c, id, rw_api.wl_shm_interface, 1);
    } else if (strcmp(interface, rw_layer_shell_interface.name) == 0 && c->layer_shell == NULL) {
        c->layer_shell = bind_global(c, id, &rw_layer_shell_interface, 1);
    } else if (strcmp(interface, "wl_output") == 0 && c->output_count < MAX_OUTPUTS) {
        output_slot *s = &c->outputs[c->output_count++];
        memset(s, 0, sizeof *s);
        s->global = id;
        s->info.scale = 1;
        s->generation = &c->outputs_generation;
        c->outputs_generation++;
        s->output = bind_global(c, id, rw_api.wl_output_interface, min_version(version, 2));
        if (s->output != NULL) rw_api.wl_proxy_add_listener(s->output, output_listener, s);
        attach_xdg(c, s);
    }
}
static void registry_remove(void *d, proxy *registry, uint32_t id) {
    (void)registry;
    rw_connection *c = d;
    for (size_t i = 0; i < c->output_count; i++) {
        if (c->outputs[i].global == id && !c->outputs[i].gone) {
            c->outputs[i].gone = 1;
            c->outputs_generation++;
        }
    }
}
static void (*registry_listener[])(void) = { (void (*)(void))registry_global, (void (*)(void))registry_remove };

static void callback_done(void *d, proxy *callback, uint32_t serial) {
    (void)callback; (void)serial;
    *(int *)d = 1;
}
static void (*callback_listener[])(void) = { (void (*)(void))callback_done };

// MARK: the connection

int rw_lost(rw_connection *c, char *why, size_t size) {
    int error = rw_api.wl_display_get_error(c->display);
    const struct rw_interface *interface = NULL;
    uint32_t id = 0;
    if (error == EPROTO) {
        uint32_t code = rw_api.wl_display_get_protocol_error(c->display, &interface, &id);
        if (why != NULL && size > 0)
            snprintf(why, size, "the compositor ended the connection with protocol error %u on %s", code,
                     interface != NULL ? interface->name : "the display");
    } else {
        rw_say(why, size, "the compositor closed the connection");
    }
    return -1;
}

static int64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/// Reads and dispatches what has arrived, waiting at most `wait_ms` for it (0: not at all).
static int pump(rw_connection *c, int wait_ms, char *why, size_t size) {
    if (rw_api.wl_display_flush(c->display) < 0 && errno != EAGAIN) return rw_lost(c, why, size);
    while (rw_api.wl_display_prepare_read(c->display) != 0) {
        if (rw_api.wl_display_dispatch_pending(c->display) < 0) return rw_lost(c, why, size);
    }
    struct pollfd p = { .fd = rw_api.wl_display_get_fd(c->display), .events = POLLIN };
    int ready = poll(&p, 1, wait_ms);
    if (ready <= 0) {
        rw_api.wl_display_cancel_read(c->display);
    } else if (rw_api.wl_display_read_events(c->display) < 0) {
        return rw_lost(c, why, size);
    }
    if (rw_api.wl_display_dispatch_pending(c->display) < 0 || rw_api.wl_display_get_error(c->display) != 0)
        return rw_lost(c, why, size);
    return 0;
}

int rw_roundtrip(rw_connection *c, int timeout_ms, char *why, size_t size) {
    int done = 0;
    proxy *callback = rw_api.wl_proxy_marshal_constructor(c->display, 0, rw_api.wl_callback_interface, NULL);   // sync
    if (callback == NULL) return rw_lost(c, why, size);
    rw_api.wl_proxy_add_listener(callback, callback_listener, &done);
    int64_t deadline = now_ms() + timeout_ms;
    while (!done) {
        int64_t left = deadline - now_ms();
        if (left <= 0) {
            rw_api.wl_proxy_destroy(callback);
            if (why != NULL && size > 0) snprintf(why, size, "no answer within %d ms", timeout_ms);
            return -1;
        }
        if (pump(c, (int)left, why, size) < 0) {
            rw_api.wl_proxy_destroy(callback);
            return -1;
        }
    }
    rw_api.wl_proxy_destroy(callback);
    return 0;
}

rw_connection *rw_connect(const char *display, int timeout_ms, char *why, size_t size) {
    pthread_once(&once, load);
    if (!loaded) {
        rw_say(why, size, failure);
        return NULL;
    }
    library_said[0] = 0;
    proxy *d = rw_api.wl_display_connect(display);
    if (d == NULL) {
        int error = errno;
        if (why != NULL && size > 0)
            snprintf(why, size, "cannot connect: %s", library_said[0] ? library_said : strerror(error));
        return NULL;
    }
    rw_connection *c = calloc(1, sizeof *c);
    if (c == NULL) {
        rw_api.wl_display_disconnect(d);
        rw_say(why, size, "out of memory");
        return NULL;
    }
    c->display = d;
    c->registry = rw_api.wl_proxy_marshal_constructor(d, 1, rw_api.wl_registry_interface, NULL);   // get_registry
    if (c->registry != NULL) rw_api.wl_proxy_add_listener(c->registry, registry_listener, c);
    char inner[160] = "";
    // The first answer lists the globals (and binds them); the second brings the outputs'.
    if (c->registry == NULL || rw_roundtrip(c, timeout_ms, inner, sizeof inner) < 0
        || rw_roundtrip(c, timeout_ms, inner, sizeof inner) < 0) {
        if (why != NULL && size > 0) snprintf(why, size, "not a Wayland compositor: %s", inner);
        rw_disconnect(c);
        return NULL;
    }
    for (size_t i = 0; i < c->output_count; i++) {
        output_slot *s = &c->outputs[i];
        if (s->info.width <= 0 || s->info.height <= 0) {   // no xdg-output: the mode over the scale
            s->info.width = s->mode_width / s->info.scale;
            s->info.height = s->mode_height / s->info.scale;
        }
    }
    return c;
}

void rw_disconnect(rw_connection *c) {
    if (c == NULL) return;
    rw_api.wl_display_disconnect(c->display);   // frees every proxy's wire state; the compositor drops our devices
    free(c);
}

const char *rw_global_name(const rw_connection *c, size_t index, uint32_t *version) {
    if (index >= c->global_count) return NULL;
    if (version != NULL) *version = c->globals[index].version;
    return c->globals[index].name;
}

int rw_has_global(const rw_connection *c, const char *interface) {
    for (size_t i = 0; i < c->global_count; i++) if (strcmp(c->globals[i].name, interface) == 0) return 1;
    return 0;
}

size_t rw_output_count(const rw_connection *c) { return c->output_count; }

uint32_t rw_outputs_generation(const rw_connection *c) { return c->outputs_generation; }

int rw_output_get(const rw_connection *c, size_t index, rw_output *out) {
    if (index >= c->output_count || c->outputs[index].gone) return -1;
    const output_slot *s = &c->outputs[index];
    *out = s->info;
    if (out->width <= 0 || out->height <= 0) {   // no xdg-output (or not yet): the mode over the scale
        out->width = s->mode_width / s->info.scale;
        out->height = s->mode_height / s->info.scale;
    }
    return 0;
}

/// The virtual pointer on output `output_index` (-1: the whole layout); 0, or -1 with `why`.
static int make_pointer(rw_connection *c, int output_index, char *why, size_t size) {
    if (output_index >= 0) {
        if ((size_t)output_index >= c->output_count || c->outputs[output_index].gone) {
            rw_say(why, size, "that output is gone"); return -1;
        }
        if (c->pointer_manager_version < 2) {
            rw_say(why, size, "the compositor's virtual pointer cannot be bound to one output (version 1)"); return -1;
        }
        c->pointer = rw_api.wl_proxy_marshal_constructor(c->pointer_manager, 2, &rw_virtual_pointer_interface,
                                                      c->seat, c->outputs[output_index].output, NULL);
    } else {
        c->pointer = rw_api.wl_proxy_marshal_constructor(c->pointer_manager, 0, &rw_virtual_pointer_interface,
                                                      c->seat, NULL);
    }
    return c->pointer == NULL ? rw_lost(c, why, size) : 0;
}

int rw_create_devices(rw_connection *c, int output_index, char *why, size_t size) {
    if (c->seat == NULL) { rw_say(why, size, "the compositor offers no seat"); return -1; }
    if (c->pointer_manager == NULL || c->keyboard_manager == NULL) {
        rw_say(why, size, "the compositor offers no zwlr_virtual_pointer_manager_v1 or zwp_virtual_keyboard_manager_v1");
        return -1;
    }
    if (make_pointer(c, output_index, why, size) < 0) return -1;
    c->keyboard = rw_api.wl_proxy_marshal_constructor(c->keyboard_manager, 0, &rw_virtual_keyboard_interface,
                                                   c->seat, NULL);
    if (c->keyboard == NULL) return rw_lost(c, why, size);
    return rw_roundtrip(c, 2000, why, size);
}

int rw_pointer_rebind(rw_connection *c, int output_index, char *why, size_t size) {
    if (c->pointer_manager == NULL || c->seat == NULL) { rw_say(why, size, "no virtual pointer to move"); return -1; }
    if (c->pointer != NULL) {
        rw_api.wl_proxy_marshal(c->pointer, 8);   // destroy: the compositor releases what it held
        rw_api.wl_proxy_destroy(c->pointer);
        c->pointer = NULL;
    }
    if (make_pointer(c, output_index, why, size) < 0) return -1;
    return rw_flush(c, why, size);
}

static int sent(rw_connection *c) { return rw_api.wl_display_get_error(c->display) != 0 ? -1 : 0; }

int rw_pointer_motion_absolute(rw_connection *c, uint32_t t, uint32_t x, uint32_t y, uint32_t xe, uint32_t ye) {
    rw_api.wl_proxy_marshal(c->pointer, 1, t, x, y, xe, ye);
    return sent(c);
}

int rw_pointer_motion(rw_connection *c, uint32_t t, int32_t dx, int32_t dy) {
    rw_api.wl_proxy_marshal(c->pointer, 0, t, dx * 256, dy * 256);   // wl_fixed_t; callers keep them small
    return sent(c);
}

int rw_pointer_button(rw_connection *c, uint32_t t, uint32_t button, uint32_t pressed) {
    rw_api.wl_proxy_marshal(c->pointer, 2, t, button, pressed ? 1u : 0u);
    return sent(c);
}

int rw_pointer_wheel(rw_connection *c, uint32_t t, uint32_t axis, int32_t steps) {
    // One wheel click is 15 units of wl_pointer.axis (what libinput reports for a detent).
    int32_t value = steps * 15 * 256;   // wl_fixed_t; callers keep |steps| small
    if (c->pointer_manager_version >= 2) {
        rw_api.wl_proxy_marshal(c->pointer, 5, 0u);                     // axis_source: wheel
        rw_api.wl_proxy_marshal(c->pointer, 7, t, axis, value, steps);  // axis_discrete
    } else {
        rw_api.wl_proxy_marshal(c->pointer, 3, t, axis, value);         // axis
    }
    return sent(c);
}

int rw_pointer_frame(rw_connection *c) {
    rw_api.wl_proxy_marshal(c->pointer, 4);
    return sent(c);
}

int rw_keyboard_keymap(rw_connection *c, const char *keymap, size_t size, char *why, size_t why_size) {
    int fd = memfd_create("remotion-keymap", MFD_CLOEXEC);
    if (fd < 0) { rw_say(why, why_size, "cannot create the keymap's memory file"); return -1; }
    // The NUL goes too: the compositor parses the mapping as a C string.
    size_t written = 0, total = size + 1;
    while (written < total) {
        ssize_t n = write(fd, keymap + written, total - written);
        if (n <= 0) { close(fd); rw_say(why, why_size, "cannot write the keymap's memory file"); return -1; }
        written += (size_t)n;
    }
    rw_api.wl_proxy_marshal(c->keyboard, 0, 1u, fd, (uint32_t)total);   // format XKB_V1; the fd is duplicated
    close(fd);
    return sent(c) < 0 ? rw_lost(c, why, why_size) : 0;
}

int rw_keyboard_key(rw_connection *c, uint32_t t, uint32_t key, uint32_t pressed) {
    rw_api.wl_proxy_marshal(c->keyboard, 1, t, key, pressed ? 1u : 0u);
    return sent(c);
}

int rw_keyboard_modifiers(rw_connection *c, uint32_t depressed, uint32_t latched, uint32_t locked, uint32_t group) {
    rw_api.wl_proxy_marshal(c->keyboard, 2, depressed, latched, locked, group);
    return sent(c);
}

int rw_flush(rw_connection *c, char *why, size_t size) { return pump(c, 0, why, size); }
