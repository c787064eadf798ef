import Foundation
import RemotionNetwork
import RemotionProtocol
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `remotion dashboard` hands the browser the dashboard's tokened address without
/// putting the token on a command line (docs/SECURITY.md §5.3): every local user can read
/// any process's arguments in /proc/PID/cmdline, so `xdg-open http://…/#token=…` gave the
/// token to all of them for as long as xdg-open (and often the browser it starts) ran.
///
/// Instead the command writes a small page, 0600 in `$XDG_RUNTIME_DIR/remotion` (0700),
/// that sends the browser on to the address (the token stays in the fragment), and opens
/// that page as `file://…`: the command line then names only a file another user cannot
/// read. The page is removed once the browser has read it (its access time moves) or after
/// `readWait` at the latest, and any a killed run left behind is removed by the next run.
package enum DashboardLaunchFile {
    package static let prefix = "dashboard-"
    package static let suffix = ".html"
    /// How long the command waits for the browser to read the page before removing it.
    package static let readWait: TimeInterval = 10
    /// A page older than this is a leftover: the next run removes it.
    package static let staleAfter: TimeInterval = 30

    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case noRuntimeDirectory
        case unexpectedAddress
        case file(PrivateFileError)
        package var description: String {
            switch self {
            case .noRuntimeDirectory: "XDG_RUNTIME_DIR is not set (no login session): open the address above yourself"
            case .unexpectedAddress: "the dashboard's address has unexpected characters; open it yourself"
            case .file(let error): error.description
            }
        }
    }

    /// `$XDG_RUNTIME_DIR/remotion`, nil without an absolute XDG_RUNTIME_DIR.
    package static func directory(environment: [String: String]) -> String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/remotion"
    }

    /// The page: a redirect to `url` (which must be a plain http address: it goes into HTML
    /// and a script verbatim).
    package static func html(url: String) throws(Failure) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:/.-_#=[]")
        guard url.hasPrefix("http://"), url.allSatisfy(allowed.contains) else { throw .unexpectedAddress }
        return """
            <!doctype html>
            <meta charset="utf-8">
            <meta name="referrer" content="no-referrer">
            <meta http-equiv="refresh" content="0;url=\(url)">
            <title>Remotion dashboard</title>
            <script>location.replace("\(url)")</script>
            <p><a href="\(url)">Open the Remotion dashboard</a></p>

            """
    }

    /// Writes the page for `url` into `directory` (made 0700; the file 0600) and returns its path.
    package static func write(url: String, directory: String) throws(Failure) -> String {
        let page = try html(url: url)
        var rng = SecureRandom()
        let name = prefix + String(rng.next() as UInt64, radix: 16) + suffix
        do { try PrivateFiles.write(Array(page.utf8), directory: directory, name: name) } catch { throw .file(error) }
        return directory + "/" + name
    }

    /// What the browser is started with: the page's file URL, no token.
    package static func openerArguments(page: String) -> [String] {
        ["xdg-open", URL(fileURLWithPath: page).absoluteString]
    }

    /// Removes the pages in `directory` last changed `staleAfter` or longer before `now`; their paths.
    @discardableResult
    package static func removeStale(directory: String, now: Date, staleAfter: TimeInterval = staleAfter) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(suffix) {
            let path = directory + "/" + name
            guard let changed = times(path)?.modified, now.timeIntervalSince(changed) >= staleAfter else { continue }
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }

    /// Waits until the browser has read the page (its access time moved past what it was
    /// when written) or `readWait` passed, then removes it.
    package static func removeOnceRead(_ page: String, readWait: TimeInterval = readWait) {
        let written = times(page)?.accessed
        let deadline = Date().addingTimeInterval(readWait)
        while Date() < deadline {
            if let now = times(page)?.accessed, let written, now > written {
                Thread.sleep(forTimeInterval: 1)   // a browser may open it twice
                break
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        unlink(page)
    }

    static func times(_ path: String) -> (accessed: Date, modified: Date)? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        func date(_ t: timespec) -> Date { Date(timeIntervalSince1970: Double(t.tv_sec) + Double(t.tv_nsec) / 1e9) }
        #if canImport(Darwin)
        return (date(st.st_atimespec), date(st.st_mtimespec))
        #else
        return (date(st.st_atim), date(st.st_mtim))
        #endif
    }
}
