import Crypto
import Foundation
import RemotionNetwork
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the host keeps its dashboard's tokened address for `remotion dashboard`
/// (docs/SECURITY.md §5.3, "The launcher"): `$XDG_RUNTIME_DIR/remotion` (0700; the file
/// 0600), one file per data directory (`dashboard-address-` and 16 hex digits of the
/// SHA-256 of its path), so hosts with different `--data-dir` keep apart.
///
/// The runtime directory is the user's own, lives only as long as the user's sessions and
/// is emptied at logout, so an address a crashed host left does not outlive the login. The
/// host writes the file once its dashboard listens, removes it when it stops, and when its
/// dashboard cannot bind removes a file a host before it left (unless a live dashboard
/// proves it still serves it). The launcher still checks the server (`DashboardProbe`)
/// before it opens anything: a host killed with SIGKILL cannot remove its file.
package enum DashboardAddressFile {
    package static let prefix = "dashboard-address-"
    /// The file hosts before this one kept in the data directory: removed when a dashboard starts.
    package static let legacyName = "dashboard-url"
    /// Said when there is no runtime directory (a host or a command outside a login session).
    package static let noRuntimeDirectory = "XDG_RUNTIME_DIR is not set (no login session)"

    /// The address file for `dataDirectory`; nil without an absolute XDG_RUNTIME_DIR.
    package static func path(dataDirectory: URL, environment: [String: String]) -> String? {
        guard let directory = DashboardLaunchFile.directory(environment: environment) else { return nil }
        return directory + "/" + name(dataDirectory: dataDirectory)
    }

    package static func name(dataDirectory: URL) -> String {
        let digest = SHA256.hash(data: Array(dataDirectory.standardizedFileURL.path.utf8))
        return prefix + DashboardProof.hex(Array(digest.prefix(8)))
    }

    /// The address in the file, nil when there is none (or it cannot be read).
    package static func read(_ path: String) -> String? {
        guard let bytes = try? PrivateFiles.read(path), bytes.count <= 4096,
              let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let url = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return url.isEmpty ? nil : url
    }

    /// Writes `url` to `path` atomically, 0600 (its directory made 0700).
    package static func write(url: String, path: String) throws(PrivateFileError) {
        let directory = (path as NSString).deletingLastPathComponent, name = (path as NSString).lastPathComponent
        try PrivateFiles.write(Array((url + "\n").utf8), directory: directory, name: name)
    }

    /// Removes the file when it still holds `url` (another host of the same data directory
    /// may have written its own since).
    package static func remove(_ path: String, holding url: String) {
        if read(path) == url { unlink(path) }
    }

    /// Removes the file unless a live dashboard proves it serves the address in it; what was
    /// done. For a host whose own dashboard could not bind: a file left by a host that died
    /// must not stay for the launcher to find.
    @discardableResult
    package static func removeUnlessServed(_ path: String, check: (String) -> DashboardProbe.Verdict = { DashboardProbe.check(url: $0) })
        -> Bool {
        guard let url = read(path) else { return false }
        guard check(url) != .ours else { return false }
        return unlink(path) == 0
    }

    /// The port and token of `http://127.0.0.1:PORT/#token=TOKEN` (what `DashboardToken.url` makes).
    package static func parse(_ url: String) -> (port: Int, token: String)? {
        let prefix = "http://127.0.0.1:"
        guard url.hasPrefix(prefix) else { return nil }
        let rest = url.dropFirst(prefix.count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard (1...5).contains(digits.count), let port = Int(digits), (1...65535).contains(port),
              rest.dropFirst(digits.count).hasPrefix("/#token=") else { return nil }
        let token = rest.dropFirst(digits.count + "/#token=".count)
        guard !token.isEmpty, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return nil
        }
        return (port, String(token))
    }
}
