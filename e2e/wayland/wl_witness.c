// A tiny Wayland client that says what the compositor delivered to it, one line each
// (stdout, line-buffered): the test's witness, never the host. A toplevel (xdg-shell)
// with a plain buffer; the test's sway config makes it fullscreen on one output, so
// surface-local positions are that output's logical positions.
//   ready W H              configured and shown at W x H
//   enter X Y / motion X Y the pointer, in surface-local logical pixels (2 decimals)
//   button CODE 1|0        a Linux BTN_* code pressed or released
//   axis AXIS VALUE        a scroll (0 vertical, 1 horizontal)
//   keyboard-enter         keyboard focus
//   key NAME text UTF8     a pressed key's keysym and text through the keymap the compositor
//                          sent (no text for control characters: Return is `key Return text `)
// Usage: wl-witness APP_ID (WAYLAND_DISPLAY and XDG_RUNTIME_DIR set; WITNESS_FULLSCREEN=1 to ask
// for fullscreen where no compositor rule makes it so).
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>
#include "xdg-shell-client-protocol.h"

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm_base;
static struct wl_seat *seat;
static struct wl_surface *surface;
static struct xdg_surface *xdg_surface;
static struct xdg_toplevel *toplevel;
static struct xkb_context *xkb;
static struct xkb_keymap *keymap;
static struct xkb_state *state;
static int width = 64, height = 64, shown;

static struct wl_buffer *make_buffer(int w, int h) {
    int stride = w * 4, size = stride * h;
    int fd = memfd_create("witness", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, size) < 0) { perror("memfd"); exit(1); }
    uint32_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    for (int i = 0; i < w * h; i++) pixels[i] = 0xff204060;
    munmap(pixels, size);
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, size);
    struct wl_buffer *b = wl_shm_pool_create_buffer(pool, 0, w, h, stride, WL_SHM_FORMAT_XRGB8888);
    wl_shm_pool_destroy(pool);
    close(fd);
    return b;
}

static void wm_ping(void *d, struct xdg_wm_base *b, uint32_t serial) { (void)d; xdg_wm_base_pong(b, serial); }
static const struct xdg_wm_base_listener wm_listener = { .ping = wm_ping };

static void surface_configure(void *d, struct xdg_surface *s, uint32_t serial) {
    (void)d;
    xdg_surface_ack_configure(s, serial);
    wl_surface_attach(surface, make_buffer(width, height), 0, 0);
    wl_surface_damage(surface, 0, 0, width, height);
    wl_surface_commit(surface);
    if (width > 64) { printf("ready %d %d\n", width, height); shown = 1; }
}
static const struct xdg_surface_listener surface_listener = { .configure = surface_configure };

static void top_configure(void *d, struct xdg_toplevel *t, int32_t w, int32_t h, struct wl_array *states) {
    (void)d; (void)t; (void)states;
    if (w > 0 && h > 0) { width = w; height = h; }
}
static void top_close(void *d, struct xdg_toplevel *t) { (void)d; (void)t; exit(0); }
static const struct xdg_toplevel_listener top_listener = { .configure = top_configure, .close = top_close };

static void p_enter(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s, wl_fixed_t x, wl_fixed_t y) {
    (void)d; (void)p; (void)serial; (void)s;
    printf("enter %.2f %.2f\n", wl_fixed_to_double(x), wl_fixed_to_double(y));
}
static void p_leave(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s) {
    (void)d; (void)p; (void)serial; (void)s;
    printf("leave\n");
}
static void p_motion(void *d, struct wl_pointer *p, uint32_t t, wl_fixed_t x, wl_fixed_t y) {
    (void)d; (void)p; (void)t;
    printf("motion %.2f %.2f\n", wl_fixed_to_double(x), wl_fixed_to_double(y));
}
static void p_button(void *d, struct wl_pointer *p, uint32_t serial, uint32_t t, uint32_t button, uint32_t st) {
    (void)d; (void)p; (void)serial; (void)t;
    printf("button %u %u\n", button, st);
}
static void p_axis(void *d, struct wl_pointer *p, uint32_t t, uint32_t axis, wl_fixed_t value) {
    (void)d; (void)p; (void)t;
    printf("axis %u %.2f\n", axis, wl_fixed_to_double(value));
}
static void p_frame(void *d, struct wl_pointer *p) { (void)d; (void)p; }
static void p_source(void *d, struct wl_pointer *p, uint32_t s) { (void)d; (void)p; (void)s; }
static void p_stop(void *d, struct wl_pointer *p, uint32_t t, uint32_t a) { (void)d; (void)p; (void)t; (void)a; }
static void p_discrete(void *d, struct wl_pointer *p, uint32_t a, int32_t v) { (void)d; (void)p; (void)a; (void)v; }
static const struct wl_pointer_listener pointer_listener = {
    .enter = p_enter, .leave = p_leave, .motion = p_motion, .button = p_button, .axis = p_axis,
    .frame = p_frame, .axis_source = p_source, .axis_stop = p_stop, .axis_discrete = p_discrete,
};

static void k_keymap(void *d, struct wl_keyboard *k, uint32_t format, int32_t fd, uint32_t size) {
    (void)d; (void)k;
    if (format != WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1) { close(fd); return; }
    char *text = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (text == MAP_FAILED) return;
    struct xkb_keymap *m = xkb_keymap_new_from_buffer(xkb, text, strnlen(text, size), XKB_KEYMAP_FORMAT_TEXT_V1, 0);
    munmap(text, size);
    if (m == NULL) { printf("keymap-invalid\n"); return; }
    if (state) xkb_state_unref(state);
    if (keymap) xkb_keymap_unref(keymap);
    keymap = m;
    state = xkb_state_new(m);
}
static void k_enter(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s, struct wl_array *keys) {
    (void)d; (void)k; (void)serial; (void)s; (void)keys;
    printf("keyboard-enter\n");
}
static void k_leave(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s) {
    (void)d; (void)k; (void)serial; (void)s;
}
static void k_key(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t t, uint32_t key, uint32_t st) {
    (void)d; (void)k; (void)serial; (void)t;
    if (state == NULL || st != WL_KEYBOARD_KEY_STATE_PRESSED) return;
    char text[64] = "";
    xkb_state_key_get_utf8(state, key + 8, text, sizeof text);
    xkb_keysym_t sym = xkb_state_key_get_one_sym(state, key + 8);
    char name[64] = "";
    xkb_keysym_get_name(sym, name, sizeof name);
    printf("key %s text %s\n", name, (unsigned char)text[0] >= 0x20 ? text : "");   // Return's "\r" stays out of the line
}
static void k_modifiers(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t dep, uint32_t lat, uint32_t lock,
                        uint32_t group) {
    (void)d; (void)k; (void)serial;
    if (state) xkb_state_update_mask(state, dep, lat, lock, 0, 0, group);
}
static void k_repeat(void *d, struct wl_keyboard *k, int32_t rate, int32_t delay) { (void)d; (void)k; (void)rate; (void)delay; }
static const struct wl_keyboard_listener keyboard_listener = {
    .keymap = k_keymap, .enter = k_enter, .leave = k_leave, .key = k_key, .modifiers = k_modifiers,
    .repeat_info = k_repeat,
};

// A seat gains and loses its pointer and keyboard as virtual devices come and go (a host
// starts or stops): each time, the old object is released and a new one asked for.
static struct wl_pointer *pointer;
static struct wl_keyboard *keyboard;
static void seat_caps(void *d, struct wl_seat *s, uint32_t caps) {
    (void)d;
    int has_pointer = (caps & WL_SEAT_CAPABILITY_POINTER) != 0, has_keyboard = (caps & WL_SEAT_CAPABILITY_KEYBOARD) != 0;
    if (has_pointer && pointer == NULL) {
        pointer = wl_seat_get_pointer(s);
        wl_pointer_add_listener(pointer, &pointer_listener, NULL);
    } else if (!has_pointer && pointer != NULL) {
        wl_pointer_release(pointer);
        pointer = NULL;
    }
    if (has_keyboard && keyboard == NULL) {
        keyboard = wl_seat_get_keyboard(s);
        wl_keyboard_add_listener(keyboard, &keyboard_listener, NULL);
    } else if (!has_keyboard && keyboard != NULL) {
        wl_keyboard_release(keyboard);
        keyboard = NULL;
    }
    printf("seat pointer %d keyboard %d\n", has_pointer, has_keyboard);
}
static void seat_name(void *d, struct wl_seat *s, const char *n) { (void)d; (void)s; (void)n; }
static const struct wl_seat_listener seat_listener = { .capabilities = seat_caps, .name = seat_name };

static void global(void *d, struct wl_registry *r, uint32_t id, const char *iface, uint32_t version) {
    (void)d;
    if (strcmp(iface, "wl_compositor") == 0) compositor = wl_registry_bind(r, id, &wl_compositor_interface, 4);
    else if (strcmp(iface, "wl_shm") == 0) shm = wl_registry_bind(r, id, &wl_shm_interface, 1);
    else if (strcmp(iface, "xdg_wm_base") == 0) {
        wm_base = wl_registry_bind(r, id, &xdg_wm_base_interface, 1);
        xdg_wm_base_add_listener(wm_base, &wm_listener, NULL);
    } else if (strcmp(iface, "wl_seat") == 0 && seat == NULL) {
        seat = wl_registry_bind(r, id, &wl_seat_interface, version < 5 ? version : 5);
        wl_seat_add_listener(seat, &seat_listener, NULL);
    }
}
static void global_remove(void *d, struct wl_registry *r, uint32_t id) { (void)d; (void)r; (void)id; }
static const struct wl_registry_listener registry_listener = { .global = global, .global_remove = global_remove };

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: wl-witness APP_ID\n"); return 2; }
    setvbuf(stdout, NULL, _IOLBF, 0);
    xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    struct wl_display *display = wl_display_connect(NULL);
    if (display == NULL) { fprintf(stderr, "wl-witness: no compositor\n"); return 1; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!compositor || !shm || !wm_base || !seat) { fprintf(stderr, "wl-witness: missing globals\n"); return 1; }
    surface = wl_compositor_create_surface(compositor);
    xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
    xdg_surface_add_listener(xdg_surface, &surface_listener, NULL);
    toplevel = xdg_surface_get_toplevel(xdg_surface);
    xdg_toplevel_add_listener(toplevel, &top_listener, NULL);
    xdg_toplevel_set_app_id(toplevel, argv[1]);
    // WITNESS_FULLSCREEN=1: asks for fullscreen itself (compositors without a config rule: mutter).
    if (getenv("WITNESS_FULLSCREEN") != NULL) xdg_toplevel_set_fullscreen(toplevel, NULL);
    wl_surface_commit(surface);
    while (wl_display_dispatch(display) != -1) {}
    return 0;
}
