// GStreamer, GLib and libnice as the WebRTC shim uses them, loaded at run time with dlopen
// (docs/WEB-CONTROLLER.md "Transports"; docs/PACKAGING.md). The build needs none of their
// -dev packages (that chain brought 328 Debian packages, OpenCV's among them, into the
// demo's set-up), and a host without GStreamer's WebRTC plugins still starts: the page
// uses its WebSocket.
//
// What is declared here is the stable 1.x ABI, written from the libraries' public
// headers: opaque objects as `void *`, the enum values the shim passes, and the three
// struct prefixes it reads (GError, a GstMessage's type, a GstWebRTCSessionDescription's
// sdp) and NiceAddress's size. scripts/check-gst-abi.sh compiles Tests/GStreamerABI/gst_api_check.c against
// the real headers (the test set-up installs them) and fails if any of these differ.
#ifndef REMOTION_GST_API_H
#define REMOTION_GST_API_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

typedef size_t rw_gtype;   // GType
typedef int rw_gboolean;   // gboolean

typedef struct { uint32_t domain; int code; char *message; } rw_gerror;   // GError

// GstMiniObject, then GstMessage's first own field.
typedef struct {
    rw_gtype type;
    int refcount;
    int lockstate;
    unsigned flags;
    void *copy, *dispose, *free;
    unsigned priv_uint;
    void *priv_pointer;
} rw_mini_object;
typedef struct { rw_mini_object mini_object; int type; } rw_message;

typedef struct { int type; void *sdp; } rw_session_description;   // GstWebRTCSessionDescription

// NiceAddress: a union of the socket addresses (the shim only passes it by pointer).
typedef struct { union { struct sockaddr addr; struct sockaddr_in ip4; struct sockaddr_in6 ip6; } s; } rw_nice_address;

enum {
    RW_G_CHECKSUM_SHA256 = 2,
    RW_G_SIGNAL_MATCH_DATA = 1 << 4,
    RW_GST_STATE_NULL = 1,
    RW_GST_STATE_PLAYING = 4,
    RW_GST_STATE_CHANGE_FAILURE = 0,
    RW_GST_MESSAGE_ERROR = 1 << 1,
    RW_GST_BUS_DROP = 0,
    RW_GST_PROMISE_RESULT_REPLIED = 2,
    RW_GST_SDP_OK = 0,
    RW_GST_WEBRTC_SDP_TYPE_OFFER = 1,
    RW_GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE = 2,
    RW_GST_WEBRTC_PEER_CONNECTION_STATE_FAILED = 4,
    RW_GST_WEBRTC_PEER_CONNECTION_STATE_CLOSED = 5,
    RW_GST_WEBRTC_BUNDLE_POLICY_MAX_BUNDLE = 3,
};

typedef int (*rw_bus_sync_handler)(void *bus, rw_message *message, void *data);
typedef void (*rw_promise_change_fn)(void *promise, void *data);
typedef void (*rw_destroy_fn)(void *data);
typedef void (*rw_callback)(void);

/// Every function the shim calls, resolved once by rw_gst_load.
typedef struct {
    // libglib-2.0.so.0
    void (*g_free)(void *);
    uint8_t *(*g_base64_decode)(const char *text, size_t *length);
    void *(*g_checksum_new)(int type);
    void (*g_checksum_update)(void *sum, const uint8_t *data, ssize_t length);
    void (*g_checksum_get_digest)(void *sum, uint8_t *digest, size_t *length);
    void (*g_checksum_free)(void *sum);
    void *(*g_bytes_new)(const void *data, size_t size);
    void (*g_bytes_unref)(void *bytes);
    const void *(*g_bytes_get_data)(void *bytes, size_t *size);
    void (*g_error_free)(rw_gerror *error);
    // libgobject-2.0.so.0
    void (*g_object_get)(void *object, const char *first, ...);
    void (*g_object_set)(void *object, const char *first, ...);
    void *(*g_object_ref)(void *object);
    void (*g_object_unref)(void *object);
    unsigned long (*g_signal_connect_data)(void *instance, const char *signal, rw_callback handler, void *data,
                                           void *destroy, int flags);
    void (*g_signal_emit_by_name)(void *instance, const char *signal, ...);
    unsigned (*g_signal_handlers_disconnect_matched)(void *instance, int mask, unsigned signal, uint32_t detail,
                                                     void *closure, void *function, void *data);
    rw_gtype (*g_error_get_type)(void);
    // libgstreamer-1.0.so.0
    rw_gboolean (*gst_init_check)(int *argc, char ***argv, rw_gerror **error);
    void *(*gst_element_factory_find)(const char *name);
    void *(*gst_element_factory_make)(const char *factory, const char *name);
    void (*gst_object_unref)(void *object);
    void *(*gst_pipeline_new)(const char *name);
    rw_gboolean (*gst_bin_add)(void *bin, void *element);
    void *(*gst_pipeline_get_bus)(void *pipeline);
    void (*gst_bus_set_sync_handler)(void *bus, rw_bus_sync_handler handler, void *data, rw_destroy_fn notify);
    int (*gst_element_set_state)(void *element, int state);
    void *(*gst_promise_new_with_change_func)(rw_promise_change_fn function, void *data, rw_destroy_fn notify);
    void (*gst_promise_interrupt)(void *promise);
    int (*gst_promise_wait)(void *promise);
    const void *(*gst_promise_get_reply)(void *promise);
    void (*gst_mini_object_unref)(void *object);   // gst_promise_unref is an inline over it
    rw_gboolean (*gst_structure_has_field)(const void *structure, const char *field);
    rw_gboolean (*gst_structure_get)(const void *structure, const char *first, ...);
    // libgstsdp-1.0.so.0
    int (*gst_sdp_message_new_from_text)(const char *text, void **message);
    int (*gst_sdp_message_free)(void *message);
    char *(*gst_sdp_message_as_text)(const void *message);
    // libgstwebrtc-1.0.so.0
    rw_gtype (*gst_webrtc_session_description_get_type)(void);
    rw_session_description *(*gst_webrtc_session_description_new)(int type, void *sdp);
    void (*gst_webrtc_session_description_free)(rw_session_description *description);
    void (*gst_webrtc_data_channel_close)(void *channel);
    rw_gboolean (*gst_webrtc_data_channel_send_data_full)(void *channel, void *bytes, rw_gerror **error);
    rw_gboolean (*gst_webrtc_data_channel_send_string_full)(void *channel, const char *text, rw_gerror **error);
    // libnice.so.10
    void (*nice_address_init)(rw_nice_address *address);
    rw_gboolean (*nice_address_set_from_string)(rw_nice_address *address, const char *text);
    rw_gboolean (*nice_agent_add_local_address)(void *agent, const rw_nice_address *address);
} rw_gst_api;

/// Loads the libraries and resolves every function, once (later calls return the same
/// answer). Returns the table, or NULL with a static message naming the first missing
/// library or symbol.
const rw_gst_api *rw_gst_load(const char **missing);

#endif
