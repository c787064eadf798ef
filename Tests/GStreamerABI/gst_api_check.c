// Compile-time check that Sources/CLibraries/CWebRTCPeer/gst_api.h (the GStreamer, GLib and
// libnice ABI the shim declares by hand, to load them at run time) matches the libraries'
// real headers: every enum value, struct offset and size the shim relies on.
// scripts/check-gst-abi.sh compiles it; the test set-up installs the headers. The function
// signatures are not comparable here (the shim's objects are opaque); the data-channel
// stage calls every one of them against the real libraries.
#define GST_USE_UNSTABLE_API 1
#include <gst/gst.h>
#include <gst/sdp/sdp.h>
#include <gst/webrtc/webrtc.h>
#include <agent.h>
#include <stddef.h>

#include "gst_api.h"

#define SAME(a, b) _Static_assert((a) == (b), #a " differs from " #b)

SAME(sizeof(rw_gtype), sizeof(GType));
SAME(sizeof(rw_gboolean), sizeof(gboolean));

SAME(sizeof(rw_gerror), sizeof(GError));
SAME(offsetof(rw_gerror, domain), offsetof(GError, domain));
SAME(offsetof(rw_gerror, code), offsetof(GError, code));
SAME(offsetof(rw_gerror, message), offsetof(GError, message));

SAME(sizeof(rw_mini_object), sizeof(GstMiniObject));
SAME(offsetof(rw_message, type), offsetof(GstMessage, type));
SAME(sizeof(((rw_message *)0)->type), sizeof(GstMessageType));

SAME(sizeof(rw_session_description), sizeof(GstWebRTCSessionDescription));
SAME(offsetof(rw_session_description, type), offsetof(GstWebRTCSessionDescription, type));
SAME(offsetof(rw_session_description, sdp), offsetof(GstWebRTCSessionDescription, sdp));

SAME(sizeof(rw_nice_address), sizeof(NiceAddress));
SAME(_Alignof(rw_nice_address), _Alignof(NiceAddress));

SAME(RW_G_CHECKSUM_SHA256, G_CHECKSUM_SHA256);
SAME(RW_G_SIGNAL_MATCH_DATA, G_SIGNAL_MATCH_DATA);
SAME(RW_GST_STATE_NULL, GST_STATE_NULL);
SAME(RW_GST_STATE_PLAYING, GST_STATE_PLAYING);
SAME(RW_GST_STATE_CHANGE_FAILURE, GST_STATE_CHANGE_FAILURE);
SAME(RW_GST_MESSAGE_ERROR, GST_MESSAGE_ERROR);
SAME(RW_GST_BUS_DROP, GST_BUS_DROP);
SAME(RW_GST_PROMISE_RESULT_REPLIED, GST_PROMISE_RESULT_REPLIED);
SAME(RW_GST_SDP_OK, GST_SDP_OK);
SAME(RW_GST_WEBRTC_SDP_TYPE_OFFER, GST_WEBRTC_SDP_TYPE_OFFER);
SAME(RW_GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE, GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE);
SAME(RW_GST_WEBRTC_PEER_CONNECTION_STATE_FAILED, GST_WEBRTC_PEER_CONNECTION_STATE_FAILED);
SAME(RW_GST_WEBRTC_PEER_CONNECTION_STATE_CLOSED, GST_WEBRTC_PEER_CONNECTION_STATE_CLOSED);
SAME(RW_GST_WEBRTC_BUNDLE_POLICY_MAX_BUNDLE, GST_WEBRTC_BUNDLE_POLICY_MAX_BUNDLE);

// The callbacks' return and argument kinds GStreamer calls them with.
SAME(sizeof(GstBusSyncReply), sizeof(int));
SAME(sizeof(GstPromiseResult), sizeof(int));
SAME(sizeof(GstStateChangeReturn), sizeof(int));

int main(void) { return 0; }
