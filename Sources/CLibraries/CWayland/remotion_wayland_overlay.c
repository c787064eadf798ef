// The presenter's laser dot on a compositor with the layer shell (see include/remotion_wayland.h):
// one small surface on the overlay layer, anchored to its output's top-left corner and placed
// with its margins, drawn once into a wl_shm buffer that every surface reuses.
#define _GNU_SOURCE
#include "remotion_wayland_internal.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

enum {
    LAYER_OVERLAY = 3,
    ANCHOR_TOP = 1, ANCHOR_LEFT = 4,
    SHM_FORMAT_ARGB8888 = 0,
};

static void layer_configure(void *d, proxy *layer, uint32_t serial, uint32_t width, uint32_t height) {
    (void)width; (void)height;
    rw_overlay_state *o = d;
    rw_api.wl_proxy_marshal(layer, 6, serial);   // ack_configure
    o->configured = 1;
}
static void layer_closed(void *d, proxy *layer) {
    (void)layer;
    ((rw_overlay_state *)d)->closed = 1;
}
static void (*layer_listener[])(void) = { (void (*)(void))layer_configure, (void (*)(void))layer_closed };

/// A disc of `argb` on transparent pixels, `d` pixels square, as a wl_buffer (NULL on failure).
static proxy *disc_buffer(rw_connection *c, int32_t d, uint32_t argb) {
    size_t stride = (size_t)d * 4, size = stride * (size_t)d;
    int fd = memfd_create("remotion-laser", MFD_CLOEXEC);
    if (fd < 0) return NULL;
    if (ftruncate(fd, (off_t)size) != 0) { close(fd); return NULL; }
    uint32_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) { close(fd); return NULL; }
    int64_t r2 = (int64_t)d * d;   // (2r)^2, in doubled coordinates: a pixel's centre is 2x+1
    for (int32_t y = 0; y < d; y++) {
        for (int32_t x = 0; x < d; x++) {
            int64_t dx = 2 * x + 1 - d, dy = 2 * y + 1 - d;
            pixels[y * d + x] = dx * dx + dy * dy <= r2 ? argb : 0;
        }
    }
    munmap(pixels, size);
    proxy *pool = rw_api.wl_proxy_marshal_constructor(c->shm, 0, rw_api.wl_shm_pool_interface, NULL, fd,
                                                      (int32_t)size);   // create_pool: the fd is duplicated
    close(fd);
    if (pool == NULL) return NULL;
    proxy *buffer = rw_api.wl_proxy_marshal_constructor(pool, 0, rw_api.wl_buffer_interface, NULL, 0, d, d,
                                                        (int32_t)stride, (uint32_t)SHM_FORMAT_ARGB8888);
    rw_api.wl_proxy_marshal(pool, 1);   // destroy: the buffer keeps the memory
    rw_api.wl_proxy_destroy(pool);
    return buffer;
}

int rw_overlay_prepare(rw_connection *c, int32_t diameter, uint32_t argb, char *why, size_t size) {
    if (c->layer_shell == NULL) { rw_say(why, size, "the compositor offers no layer shell (zwlr_layer_shell_v1)"); return -1; }
    if (c->compositor == NULL || c->shm == NULL) { rw_say(why, size, "the compositor offers no wl_compositor or wl_shm"); return -1; }
    if (diameter <= 0 || diameter > 512) { rw_say(why, size, "the dot's size is out of range"); return -1; }
    rw_overlay_state *o = &c->overlay;
    if (o->buffer != NULL) return 0;
    o->diameter = diameter;
    o->buffer = disc_buffer(c, diameter, argb);
    if (o->buffer == NULL) { rw_say(why, size, "cannot make the dot's shared-memory buffer"); return -1; }
    return rw_roundtrip(c, 2000, why, size);
}

static void drop_surface(rw_overlay_state *o) {
    if (o->layer != NULL) {
        rw_api.wl_proxy_marshal(o->layer, 7);   // destroy
        rw_api.wl_proxy_destroy(o->layer);
    }
    if (o->surface != NULL) {
        rw_api.wl_proxy_marshal(o->surface, 0);   // destroy
        rw_api.wl_proxy_destroy(o->surface);
    }
    o->layer = o->surface = NULL;
    o->configured = o->closed = 0;
}

static void set_margin(proxy *layer, int32_t left, int32_t top) {
    rw_api.wl_proxy_marshal(layer, 3, top, 0, 0, left);   // set_margin(top, right, bottom, left)
}

/// A new surface on output `index`: configured (its first configure acknowledged), then
/// the dot attached.
static int new_surface(rw_connection *c, int index, int32_t left, int32_t top, char *why, size_t size) {
    rw_overlay_state *o = &c->overlay;
    o->surface = rw_api.wl_proxy_marshal_constructor(c->compositor, 0, rw_api.wl_surface_interface, NULL);
    proxy *region = rw_api.wl_proxy_marshal_constructor(c->compositor, 1, rw_api.wl_region_interface, NULL);
    if (o->surface == NULL || region == NULL) return rw_lost(c, why, size);
    rw_api.wl_proxy_marshal(o->surface, 5, region);   // set_input_region: empty, so clicks pass through
    rw_api.wl_proxy_marshal(region, 0);                // destroy
    rw_api.wl_proxy_destroy(region);
    o->layer = rw_api.wl_proxy_marshal_constructor(c->layer_shell, 0, &rw_layer_surface_interface, NULL, o->surface,
                                                   c->outputs[index].output, (uint32_t)LAYER_OVERLAY, "remotion-laser");
    if (o->layer == NULL) return rw_lost(c, why, size);
    rw_api.wl_proxy_add_listener(o->layer, layer_listener, o);
    rw_api.wl_proxy_marshal(o->layer, 0, (uint32_t)o->diameter, (uint32_t)o->diameter);   // set_size
    rw_api.wl_proxy_marshal(o->layer, 1, (uint32_t)(ANCHOR_TOP | ANCHOR_LEFT));        // set_anchor
    rw_api.wl_proxy_marshal(o->layer, 2, (int32_t)-1);   // set_exclusive_zone: above panels, moves nothing
    rw_api.wl_proxy_marshal(o->layer, 4, 0u);            // set_keyboard_interactivity: none
    set_margin(o->layer, left, top);
    o->output_index = index;
    rw_api.wl_proxy_marshal(o->surface, 6);   // commit: asks for the first configure
    if (rw_roundtrip(c, 2000, why, size) < 0) return -1;
    if (!o->configured) { rw_say(why, size, "the compositor did not configure the laser's surface"); return -1; }
    rw_api.wl_proxy_marshal(o->surface, 1, o->buffer, 0, 0);   // attach
    rw_api.wl_proxy_marshal(o->surface, 2, 0, 0, o->diameter, o->diameter);   // damage
    rw_api.wl_proxy_marshal(o->surface, 6);   // commit
    return rw_flush(c, why, size);
}

int rw_overlay_show(rw_connection *c, int index, int32_t left, int32_t top, char *why, size_t size) {
    rw_overlay_state *o = &c->overlay;
    if (o->buffer == NULL) { rw_say(why, size, "the overlay is not prepared"); return -1; }
    if (index < 0 || (size_t)index >= c->output_count || c->outputs[index].gone) {
        drop_surface(o);
        rw_say(why, size, "that output is gone");
        return -1;
    }
    if (o->surface != NULL && (o->closed || o->output_index != index)) drop_surface(o);
    if (o->surface == NULL) {
        if (new_surface(c, index, left, top, why, size) < 0) { drop_surface(o); return -1; }
        return 0;
    }
    set_margin(o->layer, left, top);
    rw_api.wl_proxy_marshal(o->surface, 6);   // commit: the margin applies
    return rw_flush(c, why, size);
}

int rw_overlay_hide(rw_connection *c, char *why, size_t size) {
    drop_surface(&c->overlay);
    return rw_flush(c, why, size);
}
