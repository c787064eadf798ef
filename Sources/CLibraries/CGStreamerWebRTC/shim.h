// GStreamer's webrtcbin with its libnice ICE agent (pkg-config gstreamer-webrtc-nice-1.0).
// Only the C shim CWebRTCPeer includes this; Swift code imports CWebRTCPeer.
#define GST_USE_UNSTABLE_API 1
#include <gst/gst.h>
#include <gst/sdp/sdp.h>
#include <gst/webrtc/webrtc.h>
