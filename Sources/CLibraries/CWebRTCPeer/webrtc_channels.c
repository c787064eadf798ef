// webrtcbin's callbacks for one peer (see webrtc_peer.h): ICE candidates and states, the
// DTLS certificate check, and the two data channels the page opens. They run on
// GStreamer's threads and deliver nothing for a peer once it is closed.
#include "webrtc_peer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The peer's token if it is still open (callbacks must not outlive close).
static int live_token(remotion_webrtc_peer *peer, uint64_t *token) {
    pthread_mutex_lock(&peer->lock);
    int live = !peer->closed;
    *token = peer->token;
    pthread_mutex_unlock(&peer->lock);
    return live;
}

void rw_emit(remotion_webrtc_peer *peer, int event, int channel) {
    uint64_t token;
    if (live_token(peer, &token) && rw_event_fn) rw_event_fn(token, event, channel);
}

static int channel_index(remotion_webrtc_peer *peer, void *channel) {
    for (int i = 0; i < 2; i++) if (peer->channels[i] == channel) return i;
    return -1;
}

int rw_on_bus(void *bus, rw_message *message, void *data) {
    (void)bus;
    if (message->type == RW_GST_MESSAGE_ERROR) rw_emit(data, REMOTION_WEBRTC_EVENT_CLOSED, -1);
    return RW_GST_BUS_DROP; // nobody pops this bus: drop everything so it never grows
}

void rw_on_candidate(void *webrtc, unsigned mline, char *candidate, void *data) {
    (void)webrtc; (void)mline;
    remotion_webrtc_peer *peer = data;
    // Host UDP candidates only (no STUN/TURN server is configured, ICE-TCP is off).
    if (candidate == NULL || strstr(candidate, " typ host") == NULL || strstr(candidate, " UDP ") == NULL) return;
    pthread_mutex_lock(&peer->lock);
    size_t room = CANDIDATES_MAX - peer->candidates_length;
    int wrote = snprintf(peer->candidates + peer->candidates_length, room, "a=%s\r\n", candidate);
    if (wrote > 0 && (size_t)wrote < room) peer->candidates_length += (size_t)wrote;
    else peer->candidates[peer->candidates_length] = '\0';   // a line that does not fit is left out
    pthread_mutex_unlock(&peer->lock);
}

void rw_on_gathering(void *webrtc, void *spec, void *data) {
    (void)spec;
    remotion_webrtc_peer *peer = data;
    int state = 0;
    rw_gst->g_object_get(webrtc, "ice-gathering-state", &state, NULL);
    if (state != RW_GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE) return;
    pthread_mutex_lock(&peer->lock);
    peer->gathered = 1;
    pthread_cond_broadcast(&peer->changed);
    pthread_mutex_unlock(&peer->lock);
}

void rw_on_connection(void *webrtc, void *spec, void *data) {
    (void)spec;
    int state = 0;
    rw_gst->g_object_get(webrtc, "connection-state", &state, NULL);
    if (state == RW_GST_WEBRTC_PEER_CONNECTION_STATE_FAILED || state == RW_GST_WEBRTC_PEER_CONNECTION_STATE_CLOSED)
        rw_emit(data, REMOTION_WEBRTC_EVENT_CLOSED, -1);
}

/// SHA-256 of the DER certificate inside `pem` equals the signalled fingerprint.
static int pem_matches(const char *pem, const uint8_t expected[32]) {
    static const char BEGIN[] = "-----BEGIN CERTIFICATE-----", END[] = "-----END CERTIFICATE-----";
    const char *begin = pem ? strstr(pem, BEGIN) : NULL;
    const char *end = begin ? strstr(begin, END) : NULL;
    if (begin == NULL || end == NULL) return 0;
    begin += strlen(BEGIN);
    char *body = strndup(begin, (size_t)(end - begin));
    if (body == NULL) return 0;
    size_t length = 0;
    uint8_t *der = rw_gst->g_base64_decode(body, &length);   // skips the line breaks
    free(body);
    if (der == NULL || length == 0) { rw_gst->g_free(der); return 0; }
    void *sum = rw_gst->g_checksum_new(RW_G_CHECKSUM_SHA256);
    rw_gst->g_checksum_update(sum, der, (ssize_t)length);
    uint8_t digest[32];
    size_t size = sizeof digest;
    rw_gst->g_checksum_get_digest(sum, digest, &size);
    rw_gst->g_checksum_free(sum);
    rw_gst->g_free(der);
    return size == 32 && memcmp(digest, expected, 32) == 0;
}

/// Checks the DTLS peer's certificate once (the channel exists, so DTLS has finished).
static int verify_peer(remotion_webrtc_peer *peer) {
    pthread_mutex_lock(&peer->lock);
    int done = peer->verified, bad = peer->rejected;
    // Not webrtcbin's own properties here: this runs under its lock (on-data-channel).
    void *dtls = (done || bad || !peer->dtls) ? NULL : rw_gst->g_object_ref(peer->dtls);
    pthread_mutex_unlock(&peer->lock);
    if (done || bad) return done;
    char *pem = NULL;
    if (dtls) { rw_gst->g_object_get(dtls, "remote-certificate", &pem, NULL); rw_gst->g_object_unref(dtls); }
    int ok = pem_matches(pem, peer->fingerprint);
    rw_gst->g_free(pem);
    pthread_mutex_lock(&peer->lock);
    if (ok) peer->verified = 1; else peer->rejected = 1;
    pthread_mutex_unlock(&peer->lock);
    if (!ok) rw_emit(peer, REMOTION_WEBRTC_EVENT_FINGERPRINT_MISMATCH, -1);
    return ok;
}

static void deliver(remotion_webrtc_peer *peer, void *channel, int is_text, const uint8_t *bytes, size_t length) {
    pthread_mutex_lock(&peer->lock);
    int ok = !peer->closed && peer->verified;
    int index = channel_index(peer, channel);
    uint64_t token = peer->token;
    pthread_mutex_unlock(&peer->lock);
    if (ok && index >= 0 && rw_message_fn) rw_message_fn(token, index, is_text, bytes, length);
}

static void on_data(void *channel, void *bytes, void *data) {
    size_t length = 0;
    const uint8_t *body = bytes ? rw_gst->g_bytes_get_data(bytes, &length) : NULL;
    deliver(data, channel, 0, body, length);
}

static void on_string(void *channel, char *text, void *data) {
    deliver(data, channel, 1, (const uint8_t *)text, text ? strlen(text) : 0);
}

static void on_channel_close(void *channel, void *data) {
    remotion_webrtc_peer *peer = data;
    pthread_mutex_lock(&peer->lock);
    int index = channel_index(peer, channel);
    pthread_mutex_unlock(&peer->lock);
    if (index >= 0) rw_emit(peer, REMOTION_WEBRTC_EVENT_CLOSED, index);
}

void rw_on_data_channel(void *webrtc, void *channel, void *data) {
    (void)webrtc;
    remotion_webrtc_peer *peer = data;
    char *label = NULL;
    rw_gboolean ordered = 1;
    rw_gst->g_object_get(channel, "label", &label, "ordered", &ordered, NULL);
    int index = -1;
    if (label && strcmp(label, "control") == 0 && ordered) index = REMOTION_WEBRTC_CONTROL;
    if (label && strcmp(label, "motion") == 0) index = REMOTION_WEBRTC_MOTION;
    rw_gst->g_free(label);
    if (!verify_peer(peer)) { rw_gst->gst_webrtc_data_channel_close(channel); return; }
    // The slot and the handlers in one critical section with `closed`: a close that comes
    // first sees no handler to leave behind; one that comes after finds the channel in its
    // slot and disconnects them (it takes the same lock).
    pthread_mutex_lock(&peer->lock);
    int taken = index < 0 || peer->channels[index] != NULL || peer->closed;
    if (!taken) {
        peer->channels[index] = rw_gst->g_object_ref(channel);
        rw_connect_signal(channel, "on-message-data", (rw_callback)on_data, peer);
        rw_connect_signal(channel, "on-message-string", (rw_callback)on_string, peer);
        rw_connect_signal(channel, "on-close", (rw_callback)on_channel_close, peer);
    }
    pthread_mutex_unlock(&peer->lock);
    if (taken) {
        rw_emit(peer, REMOTION_WEBRTC_EVENT_UNKNOWN_CHANNEL, index);
        rw_gst->gst_webrtc_data_channel_close(channel);
        return;
    }
    rw_emit(peer, REMOTION_WEBRTC_EVENT_OPEN, index);
}

