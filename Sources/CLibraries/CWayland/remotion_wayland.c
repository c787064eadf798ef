// See include/remotion_wayland.h. libwayland-client is opened RTLD_LOCAL at the first
// rw_connect and never closed; its functions are declared here by hand, as the stable
// ABI of wayland-client-core.h (1.21 on Debian 12): proxies and the display are opaque.
#define _GNU_SOURCE
#include "remotion_wayland.h"
#include "remotion_wayland_protocols.h"

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

typedef void proxy;

static struct {
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
} api;

#define SYM(field) { #field, offsetof(__typeof__(api), field) }
static const struct { const char *name; size_t offset; } symbols[] = {
    SYM(wl_display_connect), SYM(wl_display_disconnect), SYM(wl_display_get_fd), SYM(wl_display_flush),
    SYM(wl_display_prepare_read), SYM(wl_display_cancel_read), SYM(wl_display_read_events),
    SYM(wl_display_dispatch_pending), SYM(wl_display_get_error), SYM(wl_display_get_protocol_error),
    SYM(wl_proxy_marshal), SYM(wl_proxy_marshal_constructor), SYM(wl_proxy_marshal_constructor_versioned),
    SYM(wl_proxy_add_listener), SYM(wl_proxy_destroy), SYM(wl_proxy_get_version), SYM(wl_log_set_handler_client),
    SYM(wl_registry_interface), SYM(wl_callback_interface), SYM(wl_seat_interface), SYM(wl_output_interface),
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
        *(void **)((char *)&api + symbols[i].offset) = found;
    }
    rw_protocols_link(api.wl_seat_interface, api.wl_output_interface);
    api.wl_log_set_handler_client(keep_log);
    loaded = 1;
}

enum { MAX_GLOBALS = 96, MAX_OUTPUTS = 16, NAME_SIZE = 64 };

typedef struct {
    proxy *output, *xdg;
    uint32_t global;
    int gone;
    rw_output info;
    int32_t mode_width, mode_height;
} output_slot;

struct rw_connection {
    proxy *display, *registry, *seat, *pointer_manager, *keyboard_manager, *xdg_manager;
    proxy *pointer, *keyboard;
    uint32_t pointer_manager_version;
    struct { char name[NAME_SIZE]; uint32_t id, version; } globals[MAX_GLOBALS];
    size_t global_count;
    output_slot outputs[MAX_OUTPUTS];
    size_t output_count;
};

static void say(char *why, size_t size, const char *text) {
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
static void (*output_listener[])(void) = {
    (void (*)(void))output_geometry, (void (*)(void))output_mode, ignore, (void (*)(void))output_scale,
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
static void (*xdg_listener[])(void) = {
    (void (*)(void))xdg_position, (void (*)(void))xdg_size, ignore, (void (*)(void))xdg_name, ignore,
};

static uint32_t min_version(uint32_t offered, uint32_t ours) { return offered < ours ? offered : ours; }

static proxy *bind_global(rw_connection *c, uint32_t id, const struct rw_interface *interface, uint32_t version) {
    // wl_registry.bind(name: uint, id: new_id of any interface) is "usun" on the wire.
    return api.wl_proxy_marshal_constructor_versioned(c->registry, 0, interface, version, id, interface->name,
                                                      version, NULL);
}

static void attach_xdg(rw_connection *c, output_slot *s) {
    if (c->xdg_manager == NULL || s->xdg != NULL || s->output == NULL) return;
    s->xdg = api.wl_proxy_marshal_constructor(c->xdg_manager, 1, &rw_xdg_output_interface, NULL, s->output);
    if (s->xdg != NULL) api.wl_proxy_add_listener(s->xdg, xdg_listener, s);
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
        c->seat = bind_global(c, id, api.wl_seat_interface, 1);
    } else if (strcmp(interface, rw_virtual_pointer_manager_interface.name) == 0 && c->pointer_manager == NULL) {
        c->pointer_manager_version = min_version(version, 2);
        c->pointer_manager = bind_global(c, id, &rw_virtual_pointer_manager_interface, c->pointer_manager_version);
    } else if (strcmp(interface, rw_virtual_keyboard_manager_interface.name) == 0 && c->keyboard_manager == NULL) {
        c->keyboard_manager = bind_global(c, id, &rw_virtual_keyboard_manager_interface, 1);
    } else if (strcmp(interface, rw_xdg_output_manager_interface.name) == 0 && c->xdg_manager == NULL) {
        c->xdg_manager = bind_global(c, id, &rw_xdg_output_manager_interface, min_version(version, 3));
        for (size_t i = 0; i < c->output_count; i++) attach_xdg(c, &c->outputs[i]);
    } else if (strcmp(interface, "wl_output") == 0 && c->output_count < MAX_OUTPUTS) {
        output_slot *s = &c->outputs[c->output_count++];
        memset(s, 0, sizeof *s);
        s->global = id;
        s->info.scale = 1;
        s->output = bind_global(c, id, api.wl_output_interface, min_version(version, 2));
        if (s->output != NULL) api.wl_proxy_add_listener(s->output, output_listener, s);
        attach_xdg(c, s);
    }
}
static void registry_remove(void *d, proxy *registry, uint32_t id) {
    (void)registry;
    rw_connection *c = d;
    for (size_t i = 0; i < c->output_count; i++) if (c->outputs[i].global == id) c->outputs[i].gone = 1;
}
static void (*registry_listener[])(void) = { (void (*)(void))registry_global, (void (*)(void))registry_remove };

static void callback_done(void *d, proxy *callback, uint32_t serial) {
    (void)callback; (void)serial;
    *(int *)d = 1;
}
static void (*callback_listener[])(void) = { (void (*)(void))callback_done };

// MARK: the connection

static int lost(rw_connection *c, char *why, size_t size) {
    int error = api.wl_display_get_error(c->display);
    const struct rw_interface *interface = NULL;
    uint32_t id = 0;
    if (error == EPROTO) {
        uint32_t code = api.wl_display_get_protocol_error(c->display, &interface, &id);
        if (why != NULL && size > 0)
            snprintf(why, size, "the compositor ended the connection with protocol error %u on %s", code,
                     interface != NULL ? interface->name : "the display");
    } else {
        say(why, size, "the compositor closed the connection");
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
    if (api.wl_display_flush(c->display) < 0 && errno != EAGAIN) return lost(c, why, size);
    while (api.wl_display_prepare_read(c->display) != 0) {
        if (api.wl_display_dispatch_pending(c->display) < 0) return lost(c, why, size);
    }
    struct pollfd p = { .fd = api.wl_display_get_fd(c->display), .events = POLLIN };
    int ready = poll(&p, 1, wait_ms);
    if (ready <= 0) {
        api.wl_display_cancel_read(c->display);
    } else if (api.wl_display_read_events(c->display) < 0) {
        return lost(c, why, size);
    }
    if (api.wl_display_dispatch_pending(c->display) < 0 || api.wl_display_get_error(c->display) != 0)
        return lost(c, why, size);
    return 0;
}

int rw_roundtrip(rw_connection *c, int timeout_ms, char *why, size_t size) {
    int done = 0;
    proxy *callback = api.wl_proxy_marshal_constructor(c->display, 0, api.wl_callback_interface, NULL);   // sync
    if (callback == NULL) return lost(c, why, size);
    api.wl_proxy_add_listener(callback, callback_listener, &done);
    int64_t deadline = now_ms() + timeout_ms;
    while (!done) {
        int64_t left = deadline - now_ms();
        if (left <= 0) {
            api.wl_proxy_destroy(callback);
            if (why != NULL && size > 0) snprintf(why, size, "no answer within %d ms", timeout_ms);
            return -1;
        }
        if (pump(c, (int)left, why, size) < 0) {
            api.wl_proxy_destroy(callback);
            return -1;
        }
    }
    api.wl_proxy_destroy(callback);
    return 0;
}

rw_connection *rw_connect(const char *display, int timeout_ms, char *why, size_t size) {
    pthread_once(&once, load);
    if (!loaded) {
        say(why, size, failure);
        return NULL;
    }
    library_said[0] = 0;
    proxy *d = api.wl_display_connect(display);
    if (d == NULL) {
        int error = errno;
        if (why != NULL && size > 0)
            snprintf(why, size, "cannot connect: %s", library_said[0] ? library_said : strerror(error));
        return NULL;
    }
    rw_connection *c = calloc(1, sizeof *c);
    if (c == NULL) {
        api.wl_display_disconnect(d);
        say(why, size, "out of memory");
        return NULL;
    }
    c->display = d;
    c->registry = api.wl_proxy_marshal_constructor(d, 1, api.wl_registry_interface, NULL);   // get_registry
    if (c->registry != NULL) api.wl_proxy_add_listener(c->registry, registry_listener, c);
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
    api.wl_display_disconnect(c->display);   // frees every proxy's wire state; the compositor drops our devices
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

int rw_output_get(const rw_connection *c, size_t index, rw_output *out) {
    if (index >= c->output_count || c->outputs[index].gone) return -1;
    *out = c->outputs[index].info;
    return 0;
}

int rw_create_devices(rw_connection *c, int output_index, char *why, size_t size) {
    if (c->seat == NULL) { say(why, size, "the compositor offers no seat"); return -1; }
    if (c->pointer_manager == NULL || c->keyboard_manager == NULL) {
        say(why, size, "the compositor offers no zwlr_virtual_pointer_manager_v1 or zwp_virtual_keyboard_manager_v1");
        return -1;
    }
    if (output_index >= 0) {
        if ((size_t)output_index >= c->output_count || c->outputs[output_index].gone) {
            say(why, size, "that output is gone"); return -1;
        }
        if (c->pointer_manager_version < 2) {
            say(why, size, "the compositor's virtual pointer cannot be bound to one output (version 1)"); return -1;
        }
        c->pointer = api.wl_proxy_marshal_constructor(c->pointer_manager, 2, &rw_virtual_pointer_interface,
                                                      c->seat, c->outputs[output_index].output, NULL);
    } else {
        c->pointer = api.wl_proxy_marshal_constructor(c->pointer_manager, 0, &rw_virtual_pointer_interface,
                                                      c->seat, NULL);
    }
    c->keyboard = api.wl_proxy_marshal_constructor(c->keyboard_manager, 0, &rw_virtual_keyboard_interface,
                                                   c->seat, NULL);
    if (c->pointer == NULL || c->keyboard == NULL) return lost(c, why, size);
    return rw_roundtrip(c, 2000, why, size);
}

static int sent(rw_connection *c) { return api.wl_display_get_error(c->display) != 0 ? -1 : 0; }

int rw_pointer_motion_absolute(rw_connection *c, uint32_t t, uint32_t x, uint32_t y, uint32_t xe, uint32_t ye) {
    api.wl_proxy_marshal(c->pointer, 1, t, x, y, xe, ye);
    return sent(c);
}

int rw_pointer_motion(rw_connection *c, uint32_t t, int32_t dx, int32_t dy) {
    api.wl_proxy_marshal(c->pointer, 0, t, dx * 256, dy * 256);   // wl_fixed_t; callers keep them small
    return sent(c);
}

int rw_pointer_button(rw_connection *c, uint32_t t, uint32_t button, uint32_t pressed) {
    api.wl_proxy_marshal(c->pointer, 2, t, button, pressed ? 1u : 0u);
    return sent(c);
}

int rw_pointer_wheel(rw_connection *c, uint32_t t, uint32_t axis, int32_t steps) {
    // One wheel click is 15 units of wl_pointer.axis (what libinput reports for a detent).
    int32_t value = steps * 15 * 256;   // wl_fixed_t; callers keep |steps| small
    if (c->pointer_manager_version >= 2) {
        api.wl_proxy_marshal(c->pointer, 5, 0u);                     // axis_source: wheel
        api.wl_proxy_marshal(c->pointer, 7, t, axis, value, steps);  // axis_discrete
    } else {
        api.wl_proxy_marshal(c->pointer, 3, t, axis, value);         // axis
    }
    return sent(c);
}

int rw_pointer_frame(rw_connection *c) {
    api.wl_proxy_marshal(c->pointer, 4);
    return sent(c);
}

int rw_keyboard_keymap(rw_connection *c, const char *keymap, size_t size, char *why, size_t why_size) {
    int fd = memfd_create("remotion-keymap", MFD_CLOEXEC);
    if (fd < 0) { say(why, why_size, "cannot create the keymap's memory file"); return -1; }
    // The NUL goes too: the compositor parses the mapping as a C string.
    size_t written = 0, total = size + 1;
    while (written < total) {
        ssize_t n = write(fd, keymap + written, total - written);
        if (n <= 0) { close(fd); say(why, why_size, "cannot write the keymap's memory file"); return -1; }
        written += (size_t)n;
    }
    api.wl_proxy_marshal(c->keyboard, 0, 1u, fd, (uint32_t)total);   // format XKB_V1; the fd is duplicated
    close(fd);
    return sent(c) < 0 ? lost(c, why, why_size) : 0;
}

int rw_keyboard_key(rw_connection *c, uint32_t t, uint32_t key, uint32_t pressed) {
    api.wl_proxy_marshal(c->keyboard, 1, t, key, pressed ? 1u : 0u);
    return sent(c);
}

int rw_keyboard_modifiers(rw_connection *c, uint32_t depressed, uint32_t latched, uint32_t locked, uint32_t group) {
    api.wl_proxy_marshal(c->keyboard, 2, depressed, latched, locked, group);
    return sent(c);
}

int rw_flush(rw_connection *c, char *why, size_t size) { return pump(c, 0, why, size); }
