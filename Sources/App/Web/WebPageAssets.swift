import Foundation

/// The controller page's files (Sources/App/Web/Page), read once from the bundle:
/// index.html and app/<file> (not the self-checks). Nothing else is served.
enum WebPageAssets {
    static func load() throws(WebServerError) -> StaticAssets {
        guard let folder = Bundle.module.url(forResource: "Page", withExtension: nil) else {
            throw WebServerError("the controller page's files (Page) are missing from the bundle")
        }
        let app = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("app").path)) ?? []
        let assets = StaticAssets(folder: folder, names: ["index.html"] + app.filter { !$0.hasPrefix("selftest") }.map { "app/" + $0 })
        guard assets.files["index.html"] != nil, assets.files["app/main.js"] != nil else {
            throw WebServerError("the controller page's index.html or app/main.js is missing from the bundle")
        }
        return assets
    }
}

/// Why the web controller server could not start or serve.
package struct WebServerError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
