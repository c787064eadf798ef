import RemotionProtocol

/// Why the RemoteDesktop portal gave no EIS socket, as one line that says what to do.
package enum PortalFailure: Sendable, Hashable, Error {
    /// No org.freedesktop.portal.Desktop on the session bus, or no RemoteDesktop interface there.
    case noPortal(String)
    case tooOld(version: UInt32)
    /// Start answered 1: the person declined in the desktop's dialog.
    case cancelled
    /// Start's dialog was not answered in time.
    case noAnswer
    /// A Request answered 2 (or another code than 0 and 1 for the steps before Start).
    case refused(step: String, code: UInt32)
    case timedOut(step: String)
    case callFailed(step: String, message: String)
    case malformed(step: String, what: String)
    /// The person allowed the keyboard alone: no pointer to move.
    case devicesMissing(granted: UInt32)

    private static let otherwise = "or use --inject uinput (docs/INJECTION.md, \"The RemoteDesktop portal\")"

    /// One line for the person.
    package var line: String {
        switch self {
        case .noPortal(let why):
            return "no RemoteDesktop portal on the session bus (\(why)): install xdg-desktop-portal with the desktop's backend "
                + "(xdg-desktop-portal-gnome or -kde), \(Self.otherwise)"
        case .tooOld(let version):
            return "the desktop's RemoteDesktop portal is version \(version), and an EIS socket needs version 2 "
                + "(ConnectToEIS: xdg-desktop-portal 1.18 with GNOME 46 or Plasma 6.1): update the desktop, \(Self.otherwise)"
        case .cancelled:
            return "remote control was not allowed in the desktop's dialog: start the host again and allow it "
                + "(the choice is remembered), \(Self.otherwise)"
        case .noAnswer:
            return "nobody answered the desktop's remote-control dialog within \(Int(PortalRemoteDesktopFlow.consentTimeout.secondsDouble)) s: "
                + "start the host again at the desktop and allow it, \(Self.otherwise)"
        case .refused(let step, let code):
            return "the desktop's RemoteDesktop portal refused \(step) (response \(code)): its log says why "
                + "(journalctl --user -u xdg-desktop-portal), \(Self.otherwise)"
        case .timedOut(let step):
            return "the RemoteDesktop portal did not answer \(step) within \(Int(PortalRemoteDesktopFlow.requestTimeout.secondsDouble)) s: "
                + "check that xdg-desktop-portal runs (systemctl --user status xdg-desktop-portal), \(Self.otherwise)"
        case .callFailed(let step, let message):
            return "the RemoteDesktop portal's \(step) failed (\(message.prefix(200))): \(Self.otherwise)"
        case .malformed(let step, let what):
            return "the RemoteDesktop portal answered \(step) with \(what): \(Self.otherwise)"
        case .devicesMissing(let granted):
            return "the desktop allowed no pointer (devices \(granted)): start the host again and allow the pointer, \(Self.otherwise)"
        }
    }
}

/// The portal's restore token as kept on disk: one line in `portal-restore-token` in the
/// host's data directory (0600, replaced whole). The portal makes tokens (UUIDs in
/// xdg-desktop-portal); anything else read back is not used.
package enum PortalRestoreToken {
    package static let fileName = "portal-restore-token"
    package static let maximumLength = 512

    /// 1…512 printable ASCII characters without spaces.
    package static func isValid(_ token: String) -> Bool {
        let bytes = token.utf8
        return !bytes.isEmpty && bytes.count <= maximumLength && bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// The file's bytes.
    package static func encode(_ token: String) -> [UInt8] { Array((token + "\n").utf8) }

    /// The token in the file's bytes; nil when they are not one (then it is not used, and the
    /// next start stores a new one).
    package static func decode(_ bytes: [UInt8]) -> String? {
        guard bytes.count <= maximumLength + 2 else { return nil }
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        guard let text = String(validating: bytes[..<end], as: UTF8.self), isValid(text) else { return nil }
        return text
    }
}
