// See include/remotion_webrtc.h. GStreamer is reached through gst_api.h (loaded at run
// time). Threads: remotion_webrtc_answer and _close run on the caller's thread (blocking,
// never on a GStreamer thread); the callbacks run on webrtcbin's threads. `lock` guards
// `closed`, `dtls`, the channel slots and the signal handlers connected to a channel. The
// peer's memory lives until remotion_webrtc_release (the Swift owner's deinit), so a send
// racing a close finds `closed` set instead of freed memory.
#define _GNU_SOURCE 1   // vasprintf
#include "webrtc_peer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const rw_gst_api *rw_gst;
remotion_webrtc_message_fn rw_message_fn;
remotion_webrtc_event_fn rw_event_fn;

/// A malloc'd printf (what remotion_webrtc_free frees).
char *rw_format(const char *pattern, ...) {
    va_list args;
    va_start(args, pattern);
    char *text = NULL;
    if (vasprintf(&text, pattern, args) < 0) text = NULL;
    va_end(args);
    return text;
}

void rw_clear_error(rw_gerror **error) {
    if (*error) rw_gst->g_error_free(*error);
    *error = NULL;
}

void rw_connect_signal(void *instance, const char *signal, rw_callback handler, void *data) {
    rw_gst->g_signal_connect_data(instance, signal, handler, data, NULL, 0);
}

void rw_init_monotonic_cond(pthread_cond_t *cond) {
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(cond, &attributes);
    pthread_condattr_destroy(&attributes);
}

struct timespec rw_deadline_after(unsigned timeout_ms) {
    struct timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    at.tv_sec += timeout_ms / 1000;
    at.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (at.tv_nsec >= 1000000000L) { at.tv_sec += 1; at.tv_nsec -= 1000000000L; }
    return at;
}

int remotion_webrtc_init(remotion_webrtc_message_fn on_message, remotion_webrtc_event_fn on_event, char **error) {
    const char *missing = NULL;
    const rw_gst_api *api = rw_gst_load(&missing);
    if (api == NULL) {
        *error = rw_format("GStreamer's WebRTC is not installed: %s; sudo apt-get install gstreamer1.0-plugins-bad gstreamer1.0-nice", missing);
        return -1;
    }
    rw_gst = api;
    rw_gerror *failure = NULL;
    if (!rw_gst->gst_init_check(NULL, NULL, &failure)) {
        *error = rw_format("GStreamer cannot start: %s", failure ? failure->message : "unknown error");
        rw_clear_error(&failure);
        return -1;
    }
    void *factory = rw_gst->gst_element_factory_find("webrtcbin");
    if (factory == NULL) {
        *error = rw_format("GStreamer's webrtcbin is missing: sudo apt-get install gstreamer1.0-plugins-bad gstreamer1.0-nice");
        return -1;
    }
    rw_gst->gst_object_unref(factory);
    void *probe = rw_gst->gst_element_factory_make("webrtcbin", NULL);
    if (probe == NULL) {
        *error = rw_format("GStreamer's webrtcbin cannot start: sudo apt-get install gstreamer1.0-nice");
        return -1;
    }
    rw_gst->gst_object_unref(probe);
    rw_message_fn = on_message;
    rw_event_fn = on_event;
    return 0;
}

int remotion_webrtc_probe(char **error) {
    const char *missing = NULL;
    if (rw_gst_load(&missing) != NULL) return 0;
    *error = rw_format("%s", missing);
    return -1;
}

int remotion_webrtc_send(remotion_webrtc_peer *peer, int channel, int is_text, const uint8_t *data, size_t length) {
    if (channel < 0 || channel > 1) return -1;
    pthread_mutex_lock(&peer->lock);
    void *target = peer->closed ? NULL : peer->channels[channel];
    if (target) rw_gst->g_object_ref(target);
    pthread_mutex_unlock(&peer->lock);
    if (!target) return -1;
    rw_gboolean ok;
    if (is_text) {
        char *text = strndup((const char *)data, length);
        ok = text && rw_gst->gst_webrtc_data_channel_send_string_full(target, text, NULL);
        free(text);
    } else {
        void *bytes = rw_gst->g_bytes_new(data, length);
        ok = rw_gst->gst_webrtc_data_channel_send_data_full(target, bytes, NULL);
        rw_gst->g_bytes_unref(bytes);
    }
    rw_gst->g_object_unref(target);
    return ok ? 0 : -1;
}

uint64_t remotion_webrtc_buffered(remotion_webrtc_peer *peer, int channel) {
    if (channel < 0 || channel > 1) return 0;
    pthread_mutex_lock(&peer->lock);
    void *target = peer->closed ? NULL : peer->channels[channel];
    if (target) rw_gst->g_object_ref(target);
    pthread_mutex_unlock(&peer->lock);
    if (!target) return 0;
    uint64_t amount = 0;
    rw_gst->g_object_get(target, "buffered-amount", &amount, NULL);
    rw_gst->g_object_unref(target);
    return amount;
}

void remotion_webrtc_close(remotion_webrtc_peer *peer) {
    if (peer == NULL) return;
    void *channels[2];
    pthread_mutex_lock(&peer->lock);
    if (peer->stopped) { pthread_mutex_unlock(&peer->lock); return; }   // once
    peer->stopped = 1;
    peer->closed = 1;
    channels[0] = peer->channels[0];
    channels[1] = peer->channels[1];
    peer->channels[0] = peer->channels[1] = NULL;
    pthread_mutex_unlock(&peer->lock);
    for (int i = 0; i < 2; i++)
        if (channels[i]) rw_gst->g_signal_handlers_disconnect_matched(channels[i], RW_G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, peer);
    rw_gst->g_signal_handlers_disconnect_matched(peer->webrtc, RW_G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, peer);
    // Stops webrtcbin's streaming threads (joined here) and closes its UDP socket.
    rw_gst->gst_element_set_state(peer->pipeline, RW_GST_STATE_NULL);
    for (int i = 0; i < 2; i++) if (channels[i]) rw_gst->g_object_unref(channels[i]);
    void *bus = rw_gst->gst_pipeline_get_bus(peer->pipeline);
    rw_gst->gst_bus_set_sync_handler(bus, NULL, NULL, NULL);
    rw_gst->gst_object_unref(bus);
}

void remotion_webrtc_release(remotion_webrtc_peer *peer) {
    if (peer == NULL) return;
    remotion_webrtc_close(peer);   // a no-op when it was closed (the usual case)
    if (peer->dtls) rw_gst->gst_object_unref(peer->dtls);
    rw_gst->gst_object_unref(peer->pipeline);
    pthread_cond_destroy(&peer->changed);
    pthread_mutex_destroy(&peer->lock);
    free(peer);
}

void remotion_webrtc_free(void *pointer) { free(pointer); }
