#if canImport(CWebRTCPeer)
import CWebRTCPeer
#endif
import RemotionHostLogic

/// Whether GStreamer's WebRTC can run here: the C shim (CLibraries/CWebRTCPeer) loads its
/// libraries at run time, and `remotion_webrtc_probe` runs that same loader (every library
/// opened, every function the shim calls resolved) without starting GStreamer. What it
/// names missing is mapped to the Debian package that brings it.
package enum WebRTCRuntimeProbe {
    /// The sonames the shim loads (gst_api.c), and the Debian 12 package that brings each.
    static let packages: [String: String] = [
        "libglib-2.0.so.0": "libglib2.0-0",
        "libgobject-2.0.so.0": "libglib2.0-0",
        "libgstreamer-1.0.so.0": "libgstreamer1.0-0",
        "libgstsdp-1.0.so.0": "libgstreamer-plugins-base1.0-0",
        "libgstwebrtc-1.0.so.0": "libgstreamer-plugins-bad1.0-0",
        "libnice.so.10": "libnice10",
    ]
    /// What brings webrtcbin and its ICE agent with those libraries (the package's Recommends).
    static let plugins = ["gstreamer1.0-plugins-bad", "gstreamer1.0-nice"]

    package static func availability() -> WebRTCAvailability {
        #if canImport(CWebRTCPeer)
        var error: UnsafeMutablePointer<CChar>?
        guard remotion_webrtc_probe(&error) != 0 else { return .available }
        let reason = error.map { String(cString: $0) } ?? "GStreamer's libraries do not load"
        remotion_webrtc_free(error)
        let library = reason.split(separator: " ").first.map(String.init) ?? ""
        let install = ([packages[library]].compactMap { $0 } + plugins)
        return .missing(reason: reason, fix: "sudo apt-get install " + install.joined(separator: " "))
        #else
        return .missing(reason: "built on Linux only", fix: "none on this platform: the page uses the WebSocket")
        #endif
    }
}
