// The web controller's WebRTC peer (docs/WEB-CONTROLLER.md, "Transports"): a small C shim
// over GStreamer's webrtcbin (libnice ICE, DTLS, SCTP data channels), because Swift cannot
// call GLib's signal macros or variadic emitters. GStreamer is loaded at run time
// (gst_api.h): the build needs none of its headers, and a host without it runs with the
// WebSocket only. Plain C types only: Swift imports this header and nothing of GLib.
//
// One peer answers one browser's offer and carries two data channels the page opened:
// "control" (reliable, ordered: hello, buttons, pings, commands) and "motion" (unordered,
// no retransmissions). Messages arrive on GStreamer's threads through the two callbacks
// given to remotion_webrtc_init, tagged with the peer's token; nothing arrives for a peer
// after remotion_webrtc_close returns.
#ifndef REMOTION_WEBRTC_H
#define REMOTION_WEBRTC_H

#include <stddef.h>
#include <stdint.h>

typedef struct remotion_webrtc_peer remotion_webrtc_peer;

enum {
    REMOTION_WEBRTC_CONTROL = 0,
    REMOTION_WEBRTC_MOTION = 1,
};

enum {
    /// A channel the page opened is ready (channel = which).
    REMOTION_WEBRTC_EVENT_OPEN = 1,
    /// A channel closed, or the peer connection failed (channel = -1).
    REMOTION_WEBRTC_EVENT_CLOSED = 2,
    /// The DTLS peer's certificate does not match the fingerprint signalled in the offer:
    /// nothing from this peer is delivered.
    REMOTION_WEBRTC_EVENT_FINGERPRINT_MISMATCH = 3,
    /// The page opened a channel with another label or kind: closed, not delivered.
    REMOTION_WEBRTC_EVENT_UNKNOWN_CHANNEL = 4,
};

typedef void (*remotion_webrtc_message_fn)(uint64_t token, int channel, int is_text,
                                           const uint8_t *data, size_t length);
typedef void (*remotion_webrtc_event_fn)(uint64_t token, int event, int channel);

/// Loads GStreamer's libraries, initialises GStreamer once and checks that webrtcbin and
/// its ICE agent exist. Returns 0, or -1 with *error, one line that says what to install
/// (free with remotion_webrtc_free).
int remotion_webrtc_init(remotion_webrtc_message_fn on_message, remotion_webrtc_event_fn on_event,
                         char **error);

/// Whether GStreamer's WebRTC libraries load here (without starting GStreamer): 0, or -1
/// with *error naming the first library or symbol missing (free with remotion_webrtc_free).
int remotion_webrtc_probe(char **error);

/// Answers `offer` (SDP text). `fingerprint` is the SHA-256 certificate fingerprint the
/// offer carries (32 bytes, parsed by the caller); the DTLS peer must present exactly that
/// certificate. ICE uses UDP host candidates only, on ports min_port...max_port, on
/// `address` only when it is not NULL or empty. Blocks until the answer is complete with
/// its candidates (at most timeout_ms): returns the peer and *answer (SDP text, free with
/// remotion_webrtc_free), or NULL with *error.
remotion_webrtc_peer *remotion_webrtc_answer(uint64_t token, const char *offer, const uint8_t *fingerprint,
                                             unsigned min_port, unsigned max_port, const char *address,
                                             unsigned timeout_ms, char **answer, char **error);

/// Sends on a channel; 0 on success, -1 when the channel is not open.
int remotion_webrtc_send(remotion_webrtc_peer *peer, int channel, int is_text, const uint8_t *data, size_t length);

/// Bytes queued on a channel and not yet sent (0 when closed).
uint64_t remotion_webrtc_buffered(remotion_webrtc_peer *peer, int channel);

/// Stops the peer (its UDP port closes); once, later calls do nothing. No callback for its
/// token runs after it returns. Blocks (joins webrtcbin's threads): never call it on one.
/// Sends and buffered-amount queries after it fail harmlessly; the memory stays valid.
void remotion_webrtc_close(remotion_webrtc_peer *peer);

/// Frees the peer (closing it first if nobody did). Call once, when nothing can use it any
/// more (the Swift owner's deinit).
void remotion_webrtc_release(remotion_webrtc_peer *peer);

void remotion_webrtc_free(void *pointer);

#endif
