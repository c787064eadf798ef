// See include/remotion_ei.h. libei (libei.so.1, 1.0 ABI) and libxkbcommon are opened
// RTLD_LOCAL at the first open and never closed; their functions are declared here by hand
// from their public headers: objects opaque, the enum values passed.
#include "remotion_ei.h"

#include <dlfcn.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { CAP_POINTER_ABSOLUTE = 1 << 1, CAP_KEYBOARD = 1 << 2, CAP_SCROLL = 1 << 4, CAP_BUTTON = 1 << 5 };
enum { EV_DISCONNECT = 2, EV_SEAT_ADDED = 3, EV_DEVICE_ADDED = 5, EV_DEVICE_REMOVED = 6,
       EV_DEVICE_PAUSED = 7, EV_DEVICE_RESUMED = 8 };
enum { KEYMAP_XKB = 1, XKB_TEXT_V1 = 1 };

static struct {
    void *(*ei_new_sender)(void *user_data);
    void (*ei_configure_name)(void *ei, const char *name);
    void (*ei_log_set_handler)(void *ei, void (*handler)(void *ei, int priority, const char *message, void *context));
    int (*ei_setup_backend_fd)(void *ei, int fd);
    int (*ei_setup_backend_socket)(void *ei, const char *path);
    int (*ei_get_fd)(void *ei);
    void (*ei_dispatch)(void *ei);
    void *(*ei_get_event)(void *ei);
    void *(*ei_unref)(void *ei);
    uint64_t (*ei_now)(void *ei);
    int (*ei_event_get_type)(void *event);
    void *(*ei_event_get_seat)(void *event);
    void *(*ei_event_get_device)(void *event);
    void *(*ei_event_unref)(void *event);
    void (*ei_seat_bind_capabilities)(void *seat, ...);
    void *(*ei_device_ref)(void *device);
    void *(*ei_device_unref)(void *device);
    _Bool (*ei_device_has_capability)(void *device, int cap);
    void *(*ei_device_get_region)(void *device, size_t index);
    uint32_t (*ei_region_get_x)(void *region);
    uint32_t (*ei_region_get_y)(void *region);
    uint32_t (*ei_region_get_width)(void *region);
    uint32_t (*ei_region_get_height)(void *region);
    void (*ei_device_start_emulating)(void *device, uint32_t sequence);
    void (*ei_device_pointer_motion_absolute)(void *device, double x, double y);
    void (*ei_device_button_button)(void *device, uint32_t button, _Bool press);
    void (*ei_device_scroll_discrete)(void *device, int32_t x, int32_t y);
    void (*ei_device_keyboard_key)(void *device, uint32_t code, _Bool press);
    void (*ei_device_frame)(void *device, uint64_t time);
    void *(*ei_device_keyboard_get_keymap)(void *device);
    int (*ei_keymap_get_type)(void *keymap);
    int (*ei_keymap_get_fd)(void *keymap);
    size_t (*ei_keymap_get_size)(void *keymap);
    void *(*xkb_context_new)(int flags);
    void (*xkb_context_unref)(void *context);
    void *(*xkb_keymap_new_from_string)(void *context, const char *text, int format, int flags);
    void (*xkb_keymap_unref)(void *keymap);
    uint32_t (*xkb_keymap_min_keycode)(void *keymap);
    uint32_t (*xkb_keymap_max_keycode)(void *keymap);
    int (*xkb_keymap_key_get_syms_by_level)(void *keymap, uint32_t key, uint32_t layout, uint32_t level,
                                            const uint32_t **syms);
} api;

typedef struct { const char *name; size_t offset; } symbol;
#define SYM(field) { #field, offsetof(__typeof__(api), field) }
static const symbol ei_symbols[] = {
    SYM(ei_new_sender), SYM(ei_configure_name), SYM(ei_log_set_handler), SYM(ei_setup_backend_fd), SYM(ei_setup_backend_socket),
    SYM(ei_get_fd), SYM(ei_dispatch), SYM(ei_get_event), SYM(ei_unref), SYM(ei_now), SYM(ei_event_get_type),
    SYM(ei_event_get_seat), SYM(ei_event_get_device), SYM(ei_event_unref), SYM(ei_seat_bind_capabilities),
    SYM(ei_device_ref), SYM(ei_device_unref), SYM(ei_device_has_capability), SYM(ei_device_get_region),
    SYM(ei_region_get_x), SYM(ei_region_get_y), SYM(ei_region_get_width), SYM(ei_region_get_height),
    SYM(ei_device_start_emulating), SYM(ei_device_pointer_motion_absolute), SYM(ei_device_button_button),
    SYM(ei_device_scroll_discrete), SYM(ei_device_keyboard_key), SYM(ei_device_frame),
    SYM(ei_device_keyboard_get_keymap), SYM(ei_keymap_get_type), SYM(ei_keymap_get_fd), SYM(ei_keymap_get_size),
};
static const symbol xkb_symbols[] = {
    SYM(xkb_context_new), SYM(xkb_context_unref), SYM(xkb_keymap_new_from_string), SYM(xkb_keymap_unref),
    SYM(xkb_keymap_min_keycode), SYM(xkb_keymap_max_keycode), SYM(xkb_keymap_key_get_syms_by_level),
};
static int loaded;
static char failure[160];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int resolve(const char *soname, const symbol *symbols, size_t count) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(failure, sizeof failure, "%s is not installed (libei comes with Debian 13, Fedora 39, Ubuntu 24.04 and later)", soname);
        return 0;
    }
    for (size_t i = 0; i < count; i++) {
        void *fn = dlsym(handle, symbols[i].name);
        if (fn == NULL) {
            snprintf(failure, sizeof failure, "%s has no %s (too old)", soname, symbols[i].name);
            return 0;
        }
        memcpy((char *)&api + symbols[i].offset, &fn, sizeof fn);
    }
    return 1;
}

static void load(void) {
    loaded = resolve("libei.so.1", ei_symbols, sizeof ei_symbols / sizeof *ei_symbols)
        && resolve("libxkbcommon.so.0", xkb_symbols, sizeof xkb_symbols / sizeof *xkb_symbols);
}

/// A keysym's key in the compositor's keymap: evdev code and whether Shift gives it.
typedef struct { uint32_t keysym, code; int shifted; } key_entry;

struct re_connection {
    void *ei;
    void *pointer, *keyboard;
    int pointer_live, keyboard_live, pointer_dirty, keyboard_dirty, gone;
    uint32_t sequence;
    key_entry *keys;
    size_t key_count;
};

static void say(char *why, size_t size, const char *text) {
    if (why != NULL && size > 0) snprintf(why, size, "%s", text);
}

static void read_keymap(re_connection *c, void *device) {
    void *keymap = api.ei_device_keyboard_get_keymap(device);
    if (keymap == NULL || api.ei_keymap_get_type(keymap) != KEYMAP_XKB) return;
    size_t size = api.ei_keymap_get_size(keymap);
    if (size == 0 || size > (16u << 20)) return;
    char *text = mmap(NULL, size, PROT_READ, MAP_PRIVATE, api.ei_keymap_get_fd(keymap), 0);
    if (text == MAP_FAILED) return;
    char *copy = malloc(size + 1);   // the map may lack the terminating NUL
    void *context = api.xkb_context_new(0);
    void *xkb = NULL;
    if (copy != NULL && context != NULL) {
        memcpy(copy, text, size);
        copy[size] = 0;
        xkb = api.xkb_keymap_new_from_string(context, copy, XKB_TEXT_V1, 0);
    }
    munmap(text, size);
    free(copy);
    if (xkb != NULL) {
        uint32_t min = api.xkb_keymap_min_keycode(xkb), max = api.xkb_keymap_max_keycode(xkb);
        size_t capacity = max >= min ? (size_t)(max - min + 1) * 2 : 0;
        key_entry *keys = capacity > 0 && capacity <= 4096 ? calloc(capacity, sizeof *keys) : NULL;
        size_t n = 0;
        for (uint32_t key = min; keys != NULL && key <= max && key >= 8; key++)
            for (uint32_t level = 0; level < 2; level++) {
                const uint32_t *syms = NULL;
                if (api.xkb_keymap_key_get_syms_by_level(xkb, key, 0, level, &syms) == 1 && n < capacity)
                    keys[n++] = (key_entry){ syms[0], key - 8, (int)level };
            }
        free(c->keys);
        c->keys = keys;
        c->key_count = keys != NULL ? n : 0;
        api.xkb_keymap_unref(xkb);
    }
    if (context != NULL) api.xkb_context_unref(context);
}

static void handle_events(re_connection *c) {
    void *event;
    while ((event = api.ei_get_event(c->ei)) != NULL) {
        void *device = api.ei_event_get_device(event);
        switch (api.ei_event_get_type(event)) {
        case EV_SEAT_ADDED:
            // A terminating NULL: the variadic list's sentinel.
            api.ei_seat_bind_capabilities(api.ei_event_get_seat(event), CAP_POINTER_ABSOLUTE, CAP_BUTTON,
                                          CAP_SCROLL, CAP_KEYBOARD, NULL);
            break;
        case EV_DEVICE_ADDED:
            if (c->pointer == NULL && api.ei_device_has_capability(device, CAP_POINTER_ABSOLUTE))
                c->pointer = api.ei_device_ref(device);
            if (c->keyboard == NULL && api.ei_device_has_capability(device, CAP_KEYBOARD)) {
                c->keyboard = api.ei_device_ref(device);
                read_keymap(c, device);
            }
            break;
        case EV_DEVICE_RESUMED:
            if (device == c->pointer || device == c->keyboard) api.ei_device_start_emulating(device, ++c->sequence);
            if (device == c->pointer) c->pointer_live = 1;
            if (device == c->keyboard) c->keyboard_live = 1;
            break;
        case EV_DEVICE_PAUSED:
            if (device == c->pointer) c->pointer_live = 0;
            if (device == c->keyboard) c->keyboard_live = 0;
            break;
        case EV_DEVICE_REMOVED:
            if (device == c->pointer) { api.ei_device_unref(c->pointer); c->pointer = NULL; c->pointer_live = 0; }
            if (device == c->keyboard) { api.ei_device_unref(c->keyboard); c->keyboard = NULL; c->keyboard_live = 0; }
            break;
        case EV_DISCONNECT:
            c->gone = 1;
            break;
        default:
            break;
        }
        api.ei_event_unref(event);
    }
}

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static re_connection *finish_open(re_connection *c, int rc, int timeout_ms, char *why, size_t why_size) {
    if (rc != 0) {
        char text[160];
        snprintf(text, sizeof text, "the EIS socket does not answer as one (%s)", strerror(rc < 0 ? -rc : rc));
        say(why, why_size, text);
        re_close(c);
        return NULL;
    }
    int64_t deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    while (!c->gone && !(c->pointer_live && c->keyboard_live)) {
        int64_t left = deadline - now_ms();
        if (left <= 0) break;
        struct pollfd p = { .fd = api.ei_get_fd(c->ei), .events = POLLIN };
        if (poll(&p, 1, (int)left) > 0) api.ei_dispatch(c->ei);
        handle_events(c);
    }
    if (c->gone || !c->pointer_live || !c->keyboard_live) {
        say(why, why_size, c->gone ? "the compositor ended the EIS connection (it refused this client)"
                                   : "the compositor gave no absolute pointer and keyboard in time");
        re_close(c);
        return NULL;
    }
    return c;
}

// libei's own log goes nowhere: what went wrong reaches the person as the host's one line
// (a lost connection is "the compositor ended the EIS connection"), not as libei's
// "failed to send message: Broken pipe" on stderr beside it.
static void quiet(void *ei, int priority, const char *message, void *context) {
    (void)ei; (void)priority; (void)message; (void)context;
}

int re_available(char *why, size_t why_size) {
    pthread_once(&once, load);
    if (!loaded) say(why, why_size, failure);
    return loaded;
}

static re_connection *start(char *why, size_t why_size) {
    pthread_once(&once, load);
    if (!loaded) { say(why, why_size, failure); return NULL; }
    re_connection *c = calloc(1, sizeof *c);
    if (c == NULL || (c->ei = api.ei_new_sender(NULL)) == NULL) {
        free(c);
        say(why, why_size, "out of memory");
        return NULL;
    }
    api.ei_log_set_handler(c->ei, quiet);
    api.ei_configure_name(c->ei, "remotion");
    return c;
}

re_connection *re_open_fd(int fd, int timeout_ms, char *why, size_t why_size) {
    re_connection *c = start(why, why_size);
    if (c == NULL) { close(fd); return NULL; }
    return finish_open(c, api.ei_setup_backend_fd(c->ei, fd), timeout_ms, why, why_size);
}

re_connection *re_open_socket(const char *path, int timeout_ms, char *why, size_t why_size) {
    re_connection *c = start(why, why_size);
    if (c == NULL) return NULL;
    return finish_open(c, api.ei_setup_backend_socket(c->ei, path), timeout_ms, why, why_size);
}

size_t re_region_count(re_connection *c) {
    size_t n = 0;
    while (c->pointer != NULL && api.ei_device_get_region(c->pointer, n) != NULL) n++;
    return n;
}

int re_region(re_connection *c, size_t index, uint32_t *x, uint32_t *y, uint32_t *width, uint32_t *height) {
    void *r = c->pointer != NULL ? api.ei_device_get_region(c->pointer, index) : NULL;
    if (r == NULL) return -1;
    *x = api.ei_region_get_x(r);
    *y = api.ei_region_get_y(r);
    *width = api.ei_region_get_width(r);
    *height = api.ei_region_get_height(r);
    return 0;
}

int re_dispatch(re_connection *c, char *why, size_t why_size) {
    if (!c->gone) {
        struct pollfd p = { .fd = api.ei_get_fd(c->ei), .events = POLLIN };
        if (poll(&p, 1, 0) > 0) api.ei_dispatch(c->ei);
        handle_events(c);
    }
    if (c->gone) { say(why, why_size, "the compositor ended the EIS connection"); return -1; }
    return 0;
}

int re_pointer_absolute(re_connection *c, double x, double y) {
    if (c->gone) return -1;
    if (c->pointer_live) { api.ei_device_pointer_motion_absolute(c->pointer, x, y); c->pointer_dirty = 1; }
    return 0;
}

int re_button(re_connection *c, uint32_t code, int down) {
    if (c->gone) return -1;
    if (c->pointer_live) { api.ei_device_button_button(c->pointer, code, down != 0); c->pointer_dirty = 1; }
    return 0;
}

int re_scroll_discrete(re_connection *c, int32_t x, int32_t y) {
    if (c->gone) return -1;
    if (c->pointer_live) { api.ei_device_scroll_discrete(c->pointer, x, y); c->pointer_dirty = 1; }
    return 0;
}

int re_key(re_connection *c, uint32_t code, int down) {
    if (c->gone) return -1;
    if (c->keyboard_live) { api.ei_device_keyboard_key(c->keyboard, code, down != 0); c->keyboard_dirty = 1; }
    return 0;
}

int re_frame(re_connection *c) {
    if (c->gone) return -1;
    uint64_t t = api.ei_now(c->ei);
    if (c->pointer_dirty && c->pointer_live) api.ei_device_frame(c->pointer, t);
    if (c->keyboard_dirty && c->keyboard_live) api.ei_device_frame(c->keyboard, t);
    c->pointer_dirty = c->keyboard_dirty = 0;
    return 0;
}

int re_keycode(re_connection *c, uint32_t keysym, uint32_t *code, int *shifted) {
    for (int level = 0; level < 2; level++)
        for (size_t i = 0; i < c->key_count; i++)
            if (c->keys[i].keysym == keysym && c->keys[i].shifted == level) {
                *code = c->keys[i].code;
                *shifted = level;
                return 0;
            }
    return -1;
}

void re_close(re_connection *c) {
    if (c == NULL) return;
    if (c->pointer != NULL) api.ei_device_unref(c->pointer);
    if (c->keyboard != NULL) api.ei_device_unref(c->keyboard);
    if (c->ei != NULL) api.ei_unref(c->ei);
    free(c->keys);
    free(c);
}
