import Foundation
import Testing

/// Golden text files under Tests/RemotionUITests/Golden. Run once with
/// REMOTION_UPDATE_GOLDEN=1 to (re)write them, inspect them by eye, commit; the
/// tests then compare exactly. A missing golden file is a failure, not a skip.
enum GoldenFile {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("Golden")

    static var updating: Bool { ProcessInfo.processInfo.environment["REMOTION_UPDATE_GOLDEN"] == "1" }

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Compares `lines` (joined with "\n", plus a final newline) to the golden file `name`.
    static func check(_ name: String, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = lines.joined(separator: "\n") + "\n"
        let file = url(name)
        if updating {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            #expect(throws: Never.self, sourceLocation: sourceLocation) {
                try actual.write(to: file, atomically: true, encoding: .utf8)
            }
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("golden file \(name) missing; actual output:\n\(actual)", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "golden \(name) differs; actual:\n\(actual)", sourceLocation: sourceLocation)
    }
}
