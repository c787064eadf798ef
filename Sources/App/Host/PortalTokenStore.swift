#if os(Linux)
import Glibc
#elseif os(macOS)
import Darwin
#endif
import RemotionHostLogic
import RemotionNetwork

/// The RemoteDesktop portal's restore token on disk: `portal-restore-token` in the host's data
/// directory (0600, the directory 0700, replaced whole by `PrivateFiles`: written to a
/// temporary file and renamed over the old one). Read at start; what the portal's answer
/// decided (`PortalTokenChange`) is written after it. docs/SECURITY.md, "The portal's restore token".
package struct PortalTokenStore: Sendable {
    package let directory: String

    package init(directory: String) { self.directory = directory }

    package var path: String { directory + "/" + PortalRestoreToken.fileName }

    /// The stored token; nil when there is none or the file holds no token (then it is not
    /// sent, and the next start replaces it).
    package func load() -> String? {
        guard let bytes = try? PrivateFiles.read(path) else { return nil }
        return PortalRestoreToken.decode(bytes)
    }

    /// Whether a usable token is stored (`remotion doctor`).
    package var hasToken: Bool { load() != nil }

    /// Applies the portal's decision; a failure to write is one line for the log (nil: done).
    package func apply(_ change: PortalTokenChange) -> String? {
        switch change {
        case .keep:
            return nil
        case .store(let token):
            do { try PrivateFiles.write(PortalRestoreToken.encode(token), directory: directory, name: PortalRestoreToken.fileName) } catch {
                return "the portal's permission was not kept (\(error)): the desktop asks again at the next start"
            }
            return nil
        case .drop:
            guard unlink(path) == 0 || errno == ENOENT else {
                return "cannot remove \(path): remove it by hand (the portal no longer honours it)"
            }
            return nil
        }
    }
}
