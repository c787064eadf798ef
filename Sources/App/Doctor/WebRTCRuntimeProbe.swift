#if os(Linux)
import Glibc
#endif
import RemotionHostLogic

/// Whether GStreamer's WebRTC can run here: each shared library the C shim
/// (CLibraries/CWebRTCPeer) needs is opened with dlopen and closed again.
///
/// A stand-in with the shape of the run-time probe the optional-GStreamer work exposes
/// (issue 26 item 2): at merge, `availability()` should call that probe instead.
package enum WebRTCRuntimeProbe {
    /// The sonames the shim links (Debian 12), and the package that brings each.
    static let libraries: [(soname: String, package: String)] = [
        ("libgstreamer-1.0.so.0", "libgstreamer1.0-0"),
        ("libgstwebrtc-1.0.so.0", "libgstreamer-plugins-bad1.0-0"),
        ("libgstsdp-1.0.so.0", "libgstreamer-plugins-base1.0-0"),
        ("libnice.so.10", "libnice10"),
    ]

    package static func availability() -> WebRTCAvailability {
        #if os(Linux)
        var missing: [(String, String)] = []
        for library in libraries {
            if let handle = dlopen(library.soname, RTLD_LAZY | RTLD_LOCAL) {
                dlclose(handle)
            } else {
                missing.append(library)
            }
        }
        guard !missing.isEmpty else { return .available }
        let packages = (missing.map(\.1) + ["gstreamer1.0-plugins-bad", "gstreamer1.0-nice"])
        return .missing(reason: missing.map(\.0).joined(separator: ", ") + " not found",
                        fix: "sudo apt-get install " + Array(Set(packages)).sorted().joined(separator: " "))
        #else
        return .missing(reason: "built on Linux only", fix: "none on this platform: the page uses the WebSocket")
        #endif
    }
}
