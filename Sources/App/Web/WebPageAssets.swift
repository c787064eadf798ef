import Foundation

/// The controller page's files (Sources/App/Web/Page), read once from the bundle:
/// index.html and app/<file>. Nothing else is served.
struct WebPageAssets: Sendable {
    struct Asset: Sendable {
        var contentType: String
        var body: Data
    }

    let files: [String: Asset]

    static let types = ["html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
                        "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml", "png": "image/png"]

    static func load() throws(WebServerError) -> WebPageAssets {
        guard let folder = Bundle.module.url(forResource: "Page", withExtension: nil) else {
            throw WebServerError("the controller page's files (Page) are missing from the bundle")
        }
        var files: [String: Asset] = [:]
        func add(_ relative: String) {
            let ext = relative.split(separator: ".").last.map(String.init) ?? ""
            guard let type = types[ext],
                  let data = FileManager.default.contents(atPath: folder.appendingPathComponent(relative).path) else { return }
            files[relative] = Asset(contentType: type, body: data)
        }
        add("index.html")
        let app = folder.appendingPathComponent("app").path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: app)) ?? [] where !name.hasPrefix("selftest") {
            add("app/" + name)
        }
        guard files["index.html"] != nil, files["app/main.js"] != nil else {
            throw WebServerError("the controller page's index.html or app/main.js is missing from the bundle")
        }
        return WebPageAssets(files: files)
    }
}

/// Why the web controller server could not start or serve.
package struct WebServerError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
