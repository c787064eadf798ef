// See include/remotion_webrtc.h. Threads: remotion_webrtc_answer and _close run on the
// caller's thread (blocking, never on a GStreamer thread); the callbacks run on
// webrtcbin's threads. `lock` guards `closed`, `dtls`, the channel slots and the
// signal handlers connected to a channel. The peer's memory lives until
// remotion_webrtc_release (the Swift owner's deinit), so a send racing a close finds
// `closed` set instead of freed memory.
#define GST_USE_UNSTABLE_API 1
#include "remotion_webrtc.h"

#include <gst/gst.h>
#include <gst/sdp/sdp.h>
#include <gst/webrtc/webrtc.h>
#include <agent.h>
#include <string.h>

static remotion_webrtc_message_fn message_fn;
static remotion_webrtc_event_fn event_fn;

struct remotion_webrtc_peer {
    uint64_t token;
    GstElement *pipeline;
    GstElement *webrtc;
    uint8_t fingerprint[32];
    GMutex lock;
    GCond changed;
    gboolean closed;
    gboolean stopped;    // remotion_webrtc_close ran (it runs once)
    gboolean verified;   // the DTLS certificate matched the signalled fingerprint
    gboolean rejected;   // it did not
    gboolean gathered;
    GString *candidates; // "a=candidate:…\r\n" lines gathered for the answer
    GstWebRTCDataChannel *channels[2];
    GstWebRTCDTLSTransport *dtls; // taken once the answer is set (webrtcbin's lock is free then)
};

static char *copy_error(const char *text) { return g_strdup(text); }

int remotion_webrtc_init(remotion_webrtc_message_fn on_message, remotion_webrtc_event_fn on_event, char **error) {
    GError *failure = NULL;
    if (!gst_init_check(NULL, NULL, &failure)) {
        *error = g_strdup_printf("GStreamer cannot start: %s", failure ? failure->message : "unknown error");
        g_clear_error(&failure);
        return -1;
    }
    GstElementFactory *factory = gst_element_factory_find("webrtcbin");
    if (factory == NULL) {
        *error = copy_error("GStreamer's webrtcbin is missing (install gstreamer1.0-plugins-bad and gstreamer1.0-nice)");
        return -1;
    }
    gst_object_unref(factory);
    GstElement *probe = gst_element_factory_make("webrtcbin", NULL);
    if (probe == NULL) {
        *error = copy_error("GStreamer's webrtcbin cannot start (is gstreamer1.0-nice installed?)");
        return -1;
    }
    gst_object_unref(probe);
    message_fn = on_message;
    event_fn = on_event;
    return 0;
}

/// The peer's token if it is still open (callbacks must not outlive close).
static gboolean live_token(remotion_webrtc_peer *peer, uint64_t *token) {
    g_mutex_lock(&peer->lock);
    gboolean live = !peer->closed;
    *token = peer->token;
    g_mutex_unlock(&peer->lock);
    return live;
}

static void emit(remotion_webrtc_peer *peer, int event, int channel) {
    uint64_t token;
    if (live_token(peer, &token) && event_fn) event_fn(token, event, channel);
}

static int channel_index(remotion_webrtc_peer *peer, GstWebRTCDataChannel *channel) {
    for (int i = 0; i < 2; i++) if (peer->channels[i] == channel) return i;
    return -1;
}

static GstBusSyncReply on_bus(GstBus *bus, GstMessage *message, gpointer data) {
    (void)bus;
    if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) emit(data, REMOTION_WEBRTC_EVENT_CLOSED, -1);
    return GST_BUS_DROP; // nobody pops this bus: drop everything so it never grows
}

static void on_candidate(GstElement *webrtc, guint mline, gchar *candidate, gpointer data) {
    (void)webrtc; (void)mline;
    remotion_webrtc_peer *peer = data;
    // Host UDP candidates only (no STUN/TURN server is configured, ICE-TCP is off).
    if (candidate == NULL || strstr(candidate, " typ host") == NULL || strstr(candidate, " UDP ") == NULL) return;
    g_mutex_lock(&peer->lock);
    if (peer->candidates->len < 8192) g_string_append_printf(peer->candidates, "a=%s\r\n", candidate);
    g_mutex_unlock(&peer->lock);
}

static void on_gathering(GObject *webrtc, GParamSpec *spec, gpointer data) {
    (void)spec;
    remotion_webrtc_peer *peer = data;
    GstWebRTCICEGatheringState state;
    g_object_get(webrtc, "ice-gathering-state", &state, NULL);
    if (state != GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE) return;
    g_mutex_lock(&peer->lock);
    peer->gathered = TRUE;
    g_cond_broadcast(&peer->changed);
    g_mutex_unlock(&peer->lock);
}

static void on_connection(GObject *webrtc, GParamSpec *spec, gpointer data) {
    (void)spec;
    GstWebRTCPeerConnectionState state;
    g_object_get(webrtc, "connection-state", &state, NULL);
    if (state == GST_WEBRTC_PEER_CONNECTION_STATE_FAILED || state == GST_WEBRTC_PEER_CONNECTION_STATE_CLOSED)
        emit(data, REMOTION_WEBRTC_EVENT_CLOSED, -1);
}

/// SHA-256 of the DER certificate inside `pem` equals the signalled fingerprint.
static gboolean pem_matches(const char *pem, const uint8_t expected[32]) {
    const char *begin = pem ? strstr(pem, "-----BEGIN CERTIFICATE-----") : NULL;
    const char *end = begin ? strstr(begin, "-----END CERTIFICATE-----") : NULL;
    if (begin == NULL || end == NULL) return FALSE;
    begin += strlen("-----BEGIN CERTIFICATE-----");
    gchar *body = g_strndup(begin, (gsize)(end - begin));
    gsize length = 0;
    guchar *der = g_base64_decode(g_strstrip(body), &length);
    g_free(body);
    if (der == NULL || length == 0) { g_free(der); return FALSE; }
    GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
    g_checksum_update(sum, der, length);
    guint8 digest[32];
    gsize size = sizeof digest;
    g_checksum_get_digest(sum, digest, &size);
    g_checksum_free(sum);
    g_free(der);
    return size == 32 && memcmp(digest, expected, 32) == 0;
}

/// Checks the DTLS peer's certificate once (the channel exists, so DTLS has finished).
static gboolean verify_peer(remotion_webrtc_peer *peer) {
    g_mutex_lock(&peer->lock);
    gboolean done = peer->verified, bad = peer->rejected;
    g_mutex_unlock(&peer->lock);
    if (done || bad) return done;
    // Not webrtcbin's own properties here: this runs under its lock (on-data-channel).
    g_mutex_lock(&peer->lock);
    GstWebRTCDTLSTransport *dtls = peer->dtls ? g_object_ref(peer->dtls) : NULL;
    g_mutex_unlock(&peer->lock);
    gchar *pem = NULL;
    if (dtls) { g_object_get(dtls, "remote-certificate", &pem, NULL); g_object_unref(dtls); }
    gboolean ok = pem_matches(pem, peer->fingerprint);
    g_free(pem);
    g_mutex_lock(&peer->lock);
    if (ok) peer->verified = TRUE; else peer->rejected = TRUE;
    g_mutex_unlock(&peer->lock);
    if (!ok) emit(peer, REMOTION_WEBRTC_EVENT_FINGERPRINT_MISMATCH, -1);
    return ok;
}

static void deliver(remotion_webrtc_peer *peer, GstWebRTCDataChannel *channel, int is_text,
                    const uint8_t *bytes, size_t length) {
    uint64_t token;
    g_mutex_lock(&peer->lock);
    gboolean ok = !peer->closed && peer->verified;
    int index = channel_index(peer, channel);
    token = peer->token;
    g_mutex_unlock(&peer->lock);
    if (ok && index >= 0 && message_fn) message_fn(token, index, is_text, bytes, length);
}

static void on_data(GstWebRTCDataChannel *channel, GBytes *bytes, gpointer data) {
    gsize length = 0;
    const uint8_t *body = bytes ? g_bytes_get_data(bytes, &length) : NULL;
    deliver(data, channel, 0, body, length);
}

static void on_string(GstWebRTCDataChannel *channel, gchar *text, gpointer data) {
    deliver(data, channel, 1, (const uint8_t *)text, text ? strlen(text) : 0);
}

static void on_channel_close(GstWebRTCDataChannel *channel, gpointer data) {
    remotion_webrtc_peer *peer = data;
    g_mutex_lock(&peer->lock);
    int index = channel_index(peer, channel);
    g_mutex_unlock(&peer->lock);
    if (index >= 0) emit(peer, REMOTION_WEBRTC_EVENT_CLOSED, index);
}

static void on_data_channel(GstElement *webrtc, GstWebRTCDataChannel *channel, gpointer data) {
    (void)webrtc;
    remotion_webrtc_peer *peer = data;
    gchar *label = NULL;
    gboolean ordered = TRUE;
    g_object_get(channel, "label", &label, "ordered", &ordered, NULL);
    int index = -1;
    if (label && strcmp(label, "control") == 0 && ordered) index = REMOTION_WEBRTC_CONTROL;
    if (label && strcmp(label, "motion") == 0) index = REMOTION_WEBRTC_MOTION;
    g_free(label);
    if (!verify_peer(peer)) { gst_webrtc_data_channel_close(channel); return; }
    // The slot and the handlers in one critical section with `closed`: a close that comes
    // first sees no handler to leave behind; one that comes after finds the channel in its
    // slot and disconnects them (it takes the same lock).
    g_mutex_lock(&peer->lock);
    gboolean taken = index < 0 || peer->channels[index] != NULL || peer->closed;
    if (!taken) {
        peer->channels[index] = g_object_ref(channel);
        g_signal_connect(channel, "on-message-data", G_CALLBACK(on_data), peer);
        g_signal_connect(channel, "on-message-string", G_CALLBACK(on_string), peer);
        g_signal_connect(channel, "on-close", G_CALLBACK(on_channel_close), peer);
    }
    g_mutex_unlock(&peer->lock);
    if (taken) {
        emit(peer, REMOTION_WEBRTC_EVENT_UNKNOWN_CHANNEL, index);
        gst_webrtc_data_channel_close(channel);
        return;
    }
    emit(peer, REMOTION_WEBRTC_EVENT_OPEN, index);
}

/// A promise's wait with a deadline: webrtcbin answers on its own thread; a pipeline that
/// never does would otherwise block the caller for ever (gst_promise_wait has no timeout).
typedef struct { GMutex lock; GCond cond; gboolean done; } promise_waiter;

static void promise_changed(GstPromise *promise, gpointer data) {
    (void)promise;
    promise_waiter *w = data;
    g_mutex_lock(&w->lock);
    w->done = TRUE;
    g_cond_broadcast(&w->cond);
    g_mutex_unlock(&w->lock);
}

static void promise_waiter_free(gpointer data) {
    promise_waiter *w = data;
    g_cond_clear(&w->cond);
    g_mutex_clear(&w->lock);
    g_free(w);
}

/// A promise whose `settle` gives up after `timeout_ms` (the waiter lives as long as the promise).
static GstPromise *timed_promise(promise_waiter **out) {
    promise_waiter *w = g_new0(promise_waiter, 1);
    g_mutex_init(&w->lock);
    g_cond_init(&w->cond);
    *out = w;
    return gst_promise_new_with_change_func(promise_changed, w, promise_waiter_free);
}

/// Waits on a promise made by timed_promise for at most timeout_ms (then interrupts it);
/// returns its reply's GError message, if any (caller frees).
static gchar *settle(GstPromise *promise, promise_waiter *waiter, unsigned timeout_ms,
                     GstWebRTCSessionDescription **answer) {
    gint64 deadline = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
    g_mutex_lock(&waiter->lock);
    while (!waiter->done) if (!g_cond_wait_until(&waiter->cond, &waiter->lock, deadline)) break;
    gboolean done = waiter->done;
    g_mutex_unlock(&waiter->lock);
    if (!done) gst_promise_interrupt(promise);
    GstPromiseResult result = gst_promise_wait(promise);   // final now: replied or interrupted
    gchar *why = NULL;
    const GstStructure *reply = result == GST_PROMISE_RESULT_REPLIED ? gst_promise_get_reply(promise) : NULL;
    if (result != GST_PROMISE_RESULT_REPLIED) why = g_strdup("no reply");
    if (reply && gst_structure_has_field(reply, "error")) {
        GError *e = NULL;
        gst_structure_get(reply, "error", G_TYPE_ERROR, &e, NULL);
        why = g_strdup(e ? e->message : "error");
        g_clear_error(&e);
    }
    if (answer && !why) {
        if (!reply || !gst_structure_get(reply, "answer", GST_TYPE_WEBRTC_SESSION_DESCRIPTION, answer, NULL))
            why = g_strdup("no answer");
    }
    gst_promise_unref(promise);
    return why;
}

remotion_webrtc_peer *remotion_webrtc_answer(uint64_t token, const char *offer, const uint8_t *fingerprint,
                                             unsigned min_port, unsigned max_port, const char *address,
                                             unsigned timeout_ms, char **answer_out, char **error) {
    *answer_out = NULL;
    *error = NULL;
    GstSDPMessage *sdp = NULL;
    if (gst_sdp_message_new_from_text(offer, &sdp) != GST_SDP_OK) {
        *error = copy_error("the offer is not SDP");
        return NULL;
    }
    remotion_webrtc_peer *peer = g_new0(remotion_webrtc_peer, 1);
    peer->token = token;
    memcpy(peer->fingerprint, fingerprint, 32);
    g_mutex_init(&peer->lock);
    g_cond_init(&peer->changed);
    peer->candidates = g_string_new(NULL);
    peer->pipeline = gst_pipeline_new(NULL);
    peer->webrtc = gst_element_factory_make("webrtcbin", NULL);
    gst_bin_add(GST_BIN(peer->pipeline), peer->webrtc);
    g_object_set(peer->webrtc, "bundle-policy", GST_WEBRTC_BUNDLE_POLICY_MAX_BUNDLE, NULL);
    GObject *ice = NULL, *agent = NULL;
    g_object_get(peer->webrtc, "ice-agent", &ice, NULL);
    if (ice) {
        g_object_set(ice, "min-rtp-port", min_port, "max-rtp-port", max_port, "ice-tcp", FALSE, NULL);
        g_object_get(ice, "agent", &agent, NULL);
    }
    // libnice would otherwise ask the LAN's router for a port mapping (UPnP-IGD).
    if (agent) g_object_set(agent, "upnp", FALSE, NULL);
    if (agent && address && *address) {
        // Candidates on the host's --bind address only (libnice gathers on every
        // interface otherwise).
        NiceAddress local;
        nice_address_init(&local);
        if (nice_address_set_from_string(&local, address)) nice_agent_add_local_address(NICE_AGENT(agent), &local);
    }
    if (agent) g_object_unref(agent);
    if (ice) gst_object_unref(ice);
    GstBus *bus = gst_pipeline_get_bus(GST_PIPELINE(peer->pipeline));
    gst_bus_set_sync_handler(bus, on_bus, peer, NULL);
    gst_object_unref(bus);
    g_signal_connect(peer->webrtc, "on-ice-candidate", G_CALLBACK(on_candidate), peer);
    g_signal_connect(peer->webrtc, "notify::ice-gathering-state", G_CALLBACK(on_gathering), peer);
    g_signal_connect(peer->webrtc, "notify::connection-state", G_CALLBACK(on_connection), peer);
    g_signal_connect(peer->webrtc, "on-data-channel", G_CALLBACK(on_data_channel), peer);
    gchar *why = NULL;
    GstWebRTCSessionDescription *answer = NULL;
    if (gst_element_set_state(peer->pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
        why = g_strdup("webrtcbin does not start");
        gst_sdp_message_free(sdp);
    } else {
        GstWebRTCSessionDescription *remote = gst_webrtc_session_description_new(GST_WEBRTC_SDP_TYPE_OFFER, sdp);
        promise_waiter *w;
        GstPromise *promise = timed_promise(&w);
        g_signal_emit_by_name(peer->webrtc, "set-remote-description", remote, promise);
        why = settle(promise, w, timeout_ms, NULL);
        gst_webrtc_session_description_free(remote);
    }
    if (!why) {
        promise_waiter *w;
        GstPromise *promise = timed_promise(&w);
        g_signal_emit_by_name(peer->webrtc, "create-answer", NULL, promise);
        why = settle(promise, w, timeout_ms, &answer);
    }
    if (!why) {
        promise_waiter *w;
        GstPromise *promise = timed_promise(&w);
        g_signal_emit_by_name(peer->webrtc, "set-local-description", answer, promise);
        why = settle(promise, w, timeout_ms, NULL);
    }
    if (!why) {
        GstWebRTCSCTPTransport *sctp = NULL;
        GstWebRTCDTLSTransport *dtls = NULL;
        g_object_get(peer->webrtc, "sctp-transport", &sctp, NULL);
        if (sctp) g_object_get(sctp, "transport", &dtls, NULL);
        if (sctp) gst_object_unref(sctp);
        g_mutex_lock(&peer->lock);      // verify_peer reads it on webrtcbin's thread
        peer->dtls = dtls;
        g_mutex_unlock(&peer->lock);
        if (!dtls) why = g_strdup("the offer has no data channel section");
    }
    if (!why) {
        gint64 deadline = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
        g_mutex_lock(&peer->lock);
        while (!peer->gathered) if (!g_cond_wait_until(&peer->changed, &peer->lock, deadline)) break;
        gboolean any = peer->candidates->len > 0;
        g_mutex_unlock(&peer->lock);
        if (!any) why = g_strdup("no ICE candidate on this host's addresses");
    }
    if (why) {
        *error = g_strdup_printf("cannot answer the offer: %s", why);
        g_free(why);
        if (answer) gst_webrtc_session_description_free(answer);
        remotion_webrtc_close(peer);
        remotion_webrtc_release(peer);
        return NULL;
    }
    gchar *text = gst_sdp_message_as_text(answer->sdp);
    gst_webrtc_session_description_free(answer);
    g_mutex_lock(&peer->lock);
    // One m= section (the caller checked), so candidates go at the end.
    *answer_out = strstr(text, "a=candidate:") ? g_strdup(text)
        : g_strdup_printf("%s%sa=end-of-candidates\r\n", text, peer->candidates->str);
    g_mutex_unlock(&peer->lock);
    g_free(text);
    return peer;
}

int remotion_webrtc_send(remotion_webrtc_peer *peer, int channel, int is_text, const uint8_t *data, size_t length) {
    if (channel < 0 || channel > 1) return -1;
    g_mutex_lock(&peer->lock);
    GstWebRTCDataChannel *target = peer->closed ? NULL : peer->channels[channel];
    if (target) g_object_ref(target);
    g_mutex_unlock(&peer->lock);
    if (!target) return -1;
    gboolean ok;
    if (is_text) {
        gchar *text = g_strndup((const gchar *)data, length);
        ok = gst_webrtc_data_channel_send_string_full(target, text, NULL);
        g_free(text);
    } else {
        GBytes *bytes = g_bytes_new(data, length);
        ok = gst_webrtc_data_channel_send_data_full(target, bytes, NULL);
        g_bytes_unref(bytes);
    }
    g_object_unref(target);
    return ok ? 0 : -1;
}

uint64_t remotion_webrtc_buffered(remotion_webrtc_peer *peer, int channel) {
    if (channel < 0 || channel > 1) return 0;
    g_mutex_lock(&peer->lock);
    GstWebRTCDataChannel *target = peer->closed ? NULL : peer->channels[channel];
    if (target) g_object_ref(target);
    g_mutex_unlock(&peer->lock);
    if (!target) return 0;
    guint64 amount = 0;
    g_object_get(target, "buffered-amount", &amount, NULL);
    g_object_unref(target);
    return amount;
}

void remotion_webrtc_close(remotion_webrtc_peer *peer) {
    if (peer == NULL) return;
    GstWebRTCDataChannel *channels[2];
    g_mutex_lock(&peer->lock);
    if (peer->stopped) { g_mutex_unlock(&peer->lock); return; }   // once
    peer->stopped = TRUE;
    peer->closed = TRUE;
    channels[0] = peer->channels[0];
    channels[1] = peer->channels[1];
    peer->channels[0] = peer->channels[1] = NULL;
    g_mutex_unlock(&peer->lock);
    for (int i = 0; i < 2; i++) if (channels[i]) g_signal_handlers_disconnect_by_data(channels[i], peer);
    g_signal_handlers_disconnect_by_data(peer->webrtc, peer);
    // Stops webrtcbin's streaming threads (joined here) and closes its UDP socket.
    gst_element_set_state(peer->pipeline, GST_STATE_NULL);
    for (int i = 0; i < 2; i++) if (channels[i]) g_object_unref(channels[i]);
    GstBus *bus = gst_pipeline_get_bus(GST_PIPELINE(peer->pipeline));
    gst_bus_set_sync_handler(bus, NULL, NULL, NULL);
    gst_object_unref(bus);
}

void remotion_webrtc_release(remotion_webrtc_peer *peer) {
    if (peer == NULL) return;
    remotion_webrtc_close(peer);   // a no-op when it was closed (the usual case)
    if (peer->dtls) gst_object_unref(peer->dtls);
    gst_object_unref(peer->pipeline);
    g_string_free(peer->candidates, TRUE);
    g_cond_clear(&peer->changed);
    g_mutex_clear(&peer->lock);
    g_free(peer);
}

void remotion_webrtc_free(void *pointer) { g_free(pointer); }
