import Foundation
import NIOCore

/// The page's files (HTML, CSS, JS), read once from the target's resources.
struct StaticAssets: Sendable {
    struct Asset: Sendable {
        var contentType: String
        var body: Data
    }

    let files: [String: Asset]

    static let types = ["html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
                        "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
                        "webmanifest": "application/manifest+json"]

    /// Reads every file in the bundle's `Resources` folder; throws if it is missing.
    static func load() throws(DashboardStartError) -> StaticAssets {
        guard let folder = Bundle.module.url(forResource: "Resources", withExtension: nil),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            throw DashboardStartError(message: "the dashboard's page files (Resources) are missing from the bundle")
        }
        let assets = StaticAssets(folder: folder, names: names)
        guard assets.files["index.html"] != nil else {
            throw DashboardStartError(message: "the dashboard's index.html is missing from the bundle")
        }
        return assets
    }

    /// The files `names` (paths relative to `folder`) whose type is known and that can be read.
    init(folder: URL, names: [String]) {
        var files: [String: Asset] = [:]
        for name in names {
            let ext = name.split(separator: ".").last.map(String.init) ?? ""
            guard let type = Self.types[ext],
                  let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { continue }
            files[name] = Asset(contentType: type, body: data)
        }
        self.files = files
    }

    init(files: [String: Asset]) { self.files = files }
}

/// Why the dashboard could not start.
package struct DashboardStartError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }

    /// One clear sentence for a failed bind: "127.0.0.1 port 7475 is in use", or the
    /// system's words for another errno; never NIO's internals.
    static func describe(_ error: any Error, host: String, port: Int) -> DashboardStartError {
        guard let io = error as? IOError else { return DashboardStartError(message: "cannot serve on \(host) port \(port): \(error)") }
        if io.errnoCode == EADDRINUSE { return DashboardStartError(message: "\(host) port \(port) is in use") }
        return DashboardStartError(message: "cannot serve on \(host) port \(port): \(String(cString: strerror(io.errnoCode)).lowercased())")
    }
}
