import Foundation

/// A fresh directory under /tmp, removed by `remove()` or when the last reference goes (a
/// suite that keeps one as a stored property has no `defer` to call it from).
package final class TemporaryDirectory {
    package let url: URL
    package init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("remotion-test-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    package var path: String { url.path }
    package func remove() { try? FileManager.default.removeItem(at: url) }
    deinit { remove() }
}

package struct ToolResult {
    package var status: Int32
    package var stdout: String
    package var stderr: String
}

/// Runs a command-line tool (by absolute path or found in PATH) and collects its output.
package func runTool(_ name: String, _ arguments: [String]) throws -> ToolResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [name] + arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ToolResult(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
}

