// See gst_api.h. The libraries are opened RTLD_LOCAL and never closed (GStreamer cannot be
// unloaded once initialised); GStreamer's own plugins find the same copies by soname.
#include "gst_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

typedef struct { const char *name; size_t offset; } symbol;

#define SYM(field) { #field, offsetof(rw_gst_api, field) }

static const symbol glib[] = {
    SYM(g_free), SYM(g_base64_decode), SYM(g_checksum_new), SYM(g_checksum_update), SYM(g_checksum_get_digest),
    SYM(g_checksum_free), SYM(g_bytes_new), SYM(g_bytes_unref), SYM(g_bytes_get_data), SYM(g_error_free),
};
static const symbol gobject[] = {
    SYM(g_object_get), SYM(g_object_set), SYM(g_object_ref), SYM(g_object_unref), SYM(g_signal_connect_data),
    SYM(g_signal_emit_by_name), SYM(g_signal_handlers_disconnect_matched), SYM(g_error_get_type),
};
static const symbol gstreamer[] = {
    SYM(gst_init_check), SYM(gst_element_factory_find), SYM(gst_element_factory_make), SYM(gst_object_unref),
    SYM(gst_pipeline_new), SYM(gst_bin_add), SYM(gst_pipeline_get_bus), SYM(gst_bus_set_sync_handler),
    SYM(gst_element_set_state), SYM(gst_promise_new_with_change_func), SYM(gst_promise_interrupt),
    SYM(gst_promise_wait), SYM(gst_promise_get_reply), SYM(gst_mini_object_unref), SYM(gst_structure_has_field),
    SYM(gst_structure_get),
};
static const symbol sdp[] = {
    SYM(gst_sdp_message_new_from_text), SYM(gst_sdp_message_free), SYM(gst_sdp_message_as_text),
};
static const symbol webrtc[] = {
    SYM(gst_webrtc_session_description_get_type), SYM(gst_webrtc_session_description_new),
    SYM(gst_webrtc_session_description_free), SYM(gst_webrtc_data_channel_close),
    SYM(gst_webrtc_data_channel_send_data_full), SYM(gst_webrtc_data_channel_send_string_full),
};
static const symbol nice[] = {
    SYM(nice_address_init), SYM(nice_address_set_from_string), SYM(nice_agent_add_local_address),
};

// Debian 12's sonames; the library that brings each is named in WebRTCRuntimeProbe.swift.
static const struct { const char *soname; const symbol *symbols; size_t count; } libraries[] = {
    { "libglib-2.0.so.0", glib, sizeof glib / sizeof *glib },
    { "libgobject-2.0.so.0", gobject, sizeof gobject / sizeof *gobject },
    { "libgstreamer-1.0.so.0", gstreamer, sizeof gstreamer / sizeof *gstreamer },
    { "libgstsdp-1.0.so.0", sdp, sizeof sdp / sizeof *sdp },
    { "libgstwebrtc-1.0.so.0", webrtc, sizeof webrtc / sizeof *webrtc },
    { "libnice.so.10", nice, sizeof nice / sizeof *nice },
};

static rw_gst_api api;
static const rw_gst_api *loaded;
static char failure[160];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    for (size_t i = 0; i < sizeof libraries / sizeof *libraries; i++) {
        void *handle = dlopen(libraries[i].soname, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            snprintf(failure, sizeof failure, "%s not found", libraries[i].soname);
            return;
        }
        for (size_t j = 0; j < libraries[i].count; j++) {
            void *function = dlsym(handle, libraries[i].symbols[j].name);
            if (function == NULL) {
                snprintf(failure, sizeof failure, "%s has no %s (too old?)", libraries[i].soname,
                         libraries[i].symbols[j].name);
                return;
            }
            // POSIX guarantees a function pointer round-trips through dlsym's void *.
            *(void **)((char *)&api + libraries[i].symbols[j].offset) = function;
        }
    }
    loaded = &api;
}

const rw_gst_api *rw_gst_load(const char **missing) {
    pthread_once(&once, load);
    if (loaded == NULL && missing) *missing = failure;
    return loaded;
}
