#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's stdout and stderr, written so that they can never stop it. Foundation's
/// `FileHandle.write(_:)` traps on any error: when the terminal under `remotion host`
/// closed, its next line (EIO) crashed the host in the middle of its graceful stop, with
/// held input not yet released. Here a write that fails loses its text, nothing else;
/// SIGPIPE is ignored (`ignoreBrokenPipe`) so a reader that went away (`| head`) gives EPIPE
/// instead of killing the process.
package enum StandardStreams {
    /// Writes all of `text` to `fd`, retrying partial writes and EINTR; false when the stream
    /// is gone (the text is dropped).
    @discardableResult
    package static func write(_ text: String, to fd: Int32) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                Darwin.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
            }
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            return false
        }
        return true
    }

    package static func out(_ text: String) { write(text, to: 1) }
    package static func err(_ text: String) { write(text, to: 2) }

    /// A closed pipe on stdout or stderr gives EPIPE to the write, not a signal that ends the
    /// process (the host and its stop line outlive a `| head`).
    package static func ignoreBrokenPipe() { signal(SIGPIPE, SIG_IGN) }
}
