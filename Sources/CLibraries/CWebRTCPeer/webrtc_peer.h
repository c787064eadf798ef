// The shim's own declarations shared by its three files (not part of its API):
// remotion_webrtc.c (start-up, sends, close), webrtc_channels.c (webrtcbin's callbacks:
// candidates, states, the DTLS check, the data channels), webrtc_answer.c (the offer, the
// answer and webrtcbin's promises).
#ifndef REMOTION_WEBRTC_PEER_H
#define REMOTION_WEBRTC_PEER_H

#include "remotion_webrtc.h"
#include "gst_api.h"

#include <pthread.h>
#include <time.h>

/// The loaded GStreamer API: set once by remotion_webrtc_init, before any peer exists.
extern const rw_gst_api *rw_gst;
extern remotion_webrtc_message_fn rw_message_fn;
extern remotion_webrtc_event_fn rw_event_fn;

enum { CANDIDATES_MAX = 8192 };

struct remotion_webrtc_peer {
    uint64_t token;
    void *pipeline;   // GstPipeline
    void *webrtc;     // webrtcbin
    uint8_t fingerprint[32];
    pthread_mutex_t lock;
    pthread_cond_t changed;   // on CLOCK_MONOTONIC
    int closed;
    int stopped;    // remotion_webrtc_close ran (it runs once)
    int verified;   // the DTLS certificate matched the signalled fingerprint
    int rejected;   // it did not
    int gathered;
    char candidates[CANDIDATES_MAX];   // "a=candidate:…\r\n" lines gathered for the answer
    size_t candidates_length;
    void *channels[2];   // GstWebRTCDataChannel
    void *dtls;          // GstWebRTCDTLSTransport, taken once the answer is set (webrtcbin's lock is free then)
};


/// A malloc'd printf (what remotion_webrtc_free frees).
char *rw_format(const char *pattern, ...) __attribute__((format(printf, 1, 2)));
void rw_clear_error(rw_gerror **error);
void rw_connect_signal(void *instance, const char *signal, rw_callback handler, void *data);
void rw_init_monotonic_cond(pthread_cond_t *cond);
struct timespec rw_deadline_after(unsigned timeout_ms);

/// webrtcbin's signal handlers (webrtc_channels.c).
void rw_emit(remotion_webrtc_peer *peer, int event, int channel);
int rw_on_bus(void *bus, rw_message *message, void *data);
void rw_on_candidate(void *webrtc, unsigned mline, char *candidate, void *data);
void rw_on_gathering(void *webrtc, void *spec, void *data);
void rw_on_connection(void *webrtc, void *spec, void *data);
void rw_on_data_channel(void *webrtc, void *channel, void *data);

#endif
