// Answering a page's offer (see webrtc_peer.h): webrtcbin's promises with a deadline, the
// ICE agent confined to the host's ports and address, the answer with its candidates.
#include "webrtc_peer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// A promise's wait with a deadline: webrtcbin answers on its own thread; a pipeline that
/// never does would otherwise block the caller for ever (gst_promise_wait has no timeout).
typedef struct { pthread_mutex_t lock; pthread_cond_t cond; int done; } promise_waiter;

static void promise_changed(void *promise, void *data) {
    (void)promise;
    promise_waiter *w = data;
    pthread_mutex_lock(&w->lock);
    w->done = 1;
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

static void promise_waiter_free(void *data) {
    promise_waiter *w = data;
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

/// A promise whose `settle` gives up after `timeout_ms` (the waiter lives as long as the promise).
static void *timed_promise(promise_waiter **out) {
    promise_waiter *w = calloc(1, sizeof *w);
    if (w == NULL) abort();
    pthread_mutex_init(&w->lock, NULL);
    rw_init_monotonic_cond(&w->cond);
    *out = w;
    return rw_gst->gst_promise_new_with_change_func(promise_changed, w, promise_waiter_free);
}

/// Waits on a promise made by timed_promise for at most timeout_ms (then interrupts it);
/// returns why it failed, if it did (caller frees).
static char *settle(void *promise, promise_waiter *waiter, unsigned timeout_ms, rw_session_description **answer) {
    struct timespec deadline = rw_deadline_after(timeout_ms);
    pthread_mutex_lock(&waiter->lock);
    while (!waiter->done) if (pthread_cond_timedwait(&waiter->cond, &waiter->lock, &deadline) != 0) break;
    int done = waiter->done;
    pthread_mutex_unlock(&waiter->lock);
    if (!done) rw_gst->gst_promise_interrupt(promise);
    int result = rw_gst->gst_promise_wait(promise);   // final now: replied or interrupted
    char *why = NULL;
    const void *reply = result == RW_GST_PROMISE_RESULT_REPLIED ? rw_gst->gst_promise_get_reply(promise) : NULL;
    if (result != RW_GST_PROMISE_RESULT_REPLIED) why = rw_format("no reply");
    if (reply && rw_gst->gst_structure_has_field(reply, "error")) {
        rw_gerror *e = NULL;
        rw_gst->gst_structure_get(reply, "error", rw_gst->g_error_get_type(), &e, NULL);
        why = rw_format("%s", e ? e->message : "error");
        rw_clear_error(&e);
    }
    if (answer && !why) {
        if (!reply || !rw_gst->gst_structure_get(reply, "answer", rw_gst->gst_webrtc_session_description_get_type(), answer, NULL))
            why = rw_format("no answer");
    }
    rw_gst->gst_mini_object_unref(promise);
    return why;
}

/// Sets the remote offer, answers it and sets the answer; NULL on success, else why.
static char *negotiate(remotion_webrtc_peer *peer, void *sdp, unsigned timeout_ms, rw_session_description **answer) {
    rw_session_description *remote = rw_gst->gst_webrtc_session_description_new(RW_GST_WEBRTC_SDP_TYPE_OFFER, sdp);
    promise_waiter *w;
    void *promise = timed_promise(&w);
    rw_gst->g_signal_emit_by_name(peer->webrtc, "set-remote-description", remote, promise);
    char *why = settle(promise, w, timeout_ms, NULL);
    rw_gst->gst_webrtc_session_description_free(remote);
    if (why) return why;
    promise = timed_promise(&w);
    rw_gst->g_signal_emit_by_name(peer->webrtc, "create-answer", NULL, promise);
    if ((why = settle(promise, w, timeout_ms, answer))) return why;
    promise = timed_promise(&w);
    rw_gst->g_signal_emit_by_name(peer->webrtc, "set-local-description", *answer, promise);
    return settle(promise, w, timeout_ms, NULL);
}

/// webrtcbin with its ICE agent confined to the port range (and `address`, when given).
static void configure_ice(remotion_webrtc_peer *peer, unsigned min_port, unsigned max_port, const char *address) {
    rw_gst->g_object_set(peer->webrtc, "bundle-policy", RW_GST_WEBRTC_BUNDLE_POLICY_MAX_BUNDLE, NULL);
    void *ice = NULL, *agent = NULL;
    rw_gst->g_object_get(peer->webrtc, "ice-agent", &ice, NULL);
    if (ice) {
        rw_gst->g_object_set(ice, "min-rtp-port", min_port, "max-rtp-port", max_port, "ice-tcp", 0, NULL);
        rw_gst->g_object_get(ice, "agent", &agent, NULL);
    }
    // libnice would otherwise ask the LAN's router for a port mapping (UPnP-IGD).
    if (agent) rw_gst->g_object_set(agent, "upnp", 0, NULL);
    if (agent && address && *address) {
        // Candidates on the host's --bind address only (libnice gathers on every interface otherwise).
        rw_nice_address local;
        rw_gst->nice_address_init(&local);
        if (rw_gst->nice_address_set_from_string(&local, address)) rw_gst->nice_agent_add_local_address(agent, &local);
    }
    if (agent) rw_gst->g_object_unref(agent);
    if (ice) rw_gst->gst_object_unref(ice);
}

remotion_webrtc_peer *remotion_webrtc_answer(uint64_t token, const char *offer, const uint8_t *fingerprint,
                                             unsigned min_port, unsigned max_port, const char *address,
                                             unsigned timeout_ms, char **answer_out, char **error) {
    *answer_out = NULL;
    *error = NULL;
    void *sdp = NULL;
    if (rw_gst == NULL) {
        *error = rw_format("cannot answer the offer: GStreamer is not initialised");
        return NULL;
    }
    if (rw_gst->gst_sdp_message_new_from_text(offer, &sdp) != RW_GST_SDP_OK) {
        *error = rw_format("the offer is not SDP");
        return NULL;
    }
    remotion_webrtc_peer *peer = calloc(1, sizeof *peer);
    if (peer == NULL) abort();
    peer->token = token;
    memcpy(peer->fingerprint, fingerprint, 32);
    pthread_mutex_init(&peer->lock, NULL);
    rw_init_monotonic_cond(&peer->changed);
    peer->pipeline = rw_gst->gst_pipeline_new(NULL);
    peer->webrtc = rw_gst->gst_element_factory_make("webrtcbin", NULL);
    rw_gst->gst_bin_add(peer->pipeline, peer->webrtc);
    configure_ice(peer, min_port, max_port, address);
    void *bus = rw_gst->gst_pipeline_get_bus(peer->pipeline);
    rw_gst->gst_bus_set_sync_handler(bus, rw_on_bus, peer, NULL);
    rw_gst->gst_object_unref(bus);
    rw_connect_signal(peer->webrtc, "on-ice-candidate", (rw_callback)rw_on_candidate, peer);
    rw_connect_signal(peer->webrtc, "notify::ice-gathering-state", (rw_callback)rw_on_gathering, peer);
    rw_connect_signal(peer->webrtc, "notify::connection-state", (rw_callback)rw_on_connection, peer);
    rw_connect_signal(peer->webrtc, "on-data-channel", (rw_callback)rw_on_data_channel, peer);
    char *why = NULL;
    rw_session_description *answer = NULL;
    if (rw_gst->gst_element_set_state(peer->pipeline, RW_GST_STATE_PLAYING) == RW_GST_STATE_CHANGE_FAILURE) {
        why = rw_format("webrtcbin does not start");
        rw_gst->gst_sdp_message_free(sdp);
    } else {
        why = negotiate(peer, sdp, timeout_ms, &answer);   // the description takes the sdp
    }
    if (!why) {
        void *sctp = NULL, *dtls = NULL;
        rw_gst->g_object_get(peer->webrtc, "sctp-transport", &sctp, NULL);
        if (sctp) rw_gst->g_object_get(sctp, "transport", &dtls, NULL);
        if (sctp) rw_gst->gst_object_unref(sctp);
        pthread_mutex_lock(&peer->lock);      // verify_peer reads it on webrtcbin's thread
        peer->dtls = dtls;
        pthread_mutex_unlock(&peer->lock);
        if (!dtls) why = rw_format("the offer has no data channel section");
    }
    if (!why) {
        struct timespec deadline = rw_deadline_after(timeout_ms);
        pthread_mutex_lock(&peer->lock);
        while (!peer->gathered) if (pthread_cond_timedwait(&peer->changed, &peer->lock, &deadline) != 0) break;
        int any = peer->candidates_length > 0;
        pthread_mutex_unlock(&peer->lock);
        if (!any) why = rw_format("no ICE candidate on this host's addresses");
    }
    if (why) {
        *error = rw_format("cannot answer the offer: %s", why);
        free(why);
        if (answer) rw_gst->gst_webrtc_session_description_free(answer);
        remotion_webrtc_close(peer);
        remotion_webrtc_release(peer);
        return NULL;
    }
    char *text = rw_gst->gst_sdp_message_as_text(answer->sdp);
    rw_gst->gst_webrtc_session_description_free(answer);
    pthread_mutex_lock(&peer->lock);
    // One m= section (the caller checked), so candidates go at the end.
    *answer_out = strstr(text, "a=candidate:") ? rw_format("%s", text)
        : rw_format("%s%sa=end-of-candidates\r\n", text, peer->candidates);
    pthread_mutex_unlock(&peer->lock);
    rw_gst->g_free(text);
    return peer;
}

