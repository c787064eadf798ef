import Foundation

/// Where `--inject log`'s JSON lines go: collected while the injector posts a frame and
/// written with one `write` when it flushes (after every datagram's events), so a pipe
/// or a file sees each event at once. (`print` would leave them in stdio's block buffer
/// until 4 KiB piled up or the host exited.) Lives on the host's loop.
package final class InjectionLogOutput {
    private var pending = ""
    private let write: (String) -> Void

    /// `write` gets one or more complete lines, each ending in "\n".
    package init(write: @escaping (String) -> Void = InjectionLogOutput.standardOutput) {
        self.write = write
    }

    package func line(_ text: String) {
        pending += text
        pending += "\n"
    }

    package func flush() {
        guard !pending.isEmpty else { return }
        let text = pending
        pending = ""
        write(text)
    }

    /// Unbuffered: straight to file descriptor 1.
    package static func standardOutput(_ text: String) {
        StandardStreams.out(text)
    }
}
