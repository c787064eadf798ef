#if os(Linux)
import Foundation
import Glibc
import RemotionHostLogic
import Synchronization

/// The focused application on sway (docs/MOTION.md, "Profiles"): a connection to sway's IPC
/// socket ($SWAYSOCK) on its own thread, whose bytes go to `SwayFocusTracker` (HostLogic, which
/// decides); it tells `onFocus` each change once. No polling: it blocks on the socket. When sway
/// goes away (it stopped, or restarts) the focus is no application, `onNote` gets one line,
/// and it connects again to the same path (sway takes $SWAYSOCK's path when it starts with it
/// set), trying every `retry` until it answers; one line when it is back.
package final class SwayFocusWatcher: Sendable {
    private let stopPipe: (read: Int32, write: Int32)
    private let finished = Mutex(false)
    private let done = DispatchSemaphore(value: 0)

    /// Connects to `socketPath` and starts watching; why not, in one line, when sway does not
    /// answer there now.
    package static func start(socketPath: String, retry: Duration = .seconds(1),
                              onFocus: @escaping @Sendable (FocusedApp?) -> Void,
                              onNote: @escaping @Sendable (String) -> Void) -> Result<SwayFocusWatcher, SwayFocusError> {
        let first: Int32
        switch connectSway(socketPath) {
        case .success(let fd): first = fd
        case .failure(let error): return .failure(error)
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(first)
            return .failure(SwayFocusError("cannot make the focus watcher's wake-up pipe"))
        }
        // Close-on-exec: a child the host spawns never holds the watcher's wake-up.
        for end in fds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let watcher = SwayFocusWatcher(stopPipe: (fds[0], fds[1]))
        let stopRead = fds[0], retryMs = Int32(clamping: retry.components.seconds * 1000 + retry.components.attoseconds / 1_000_000_000_000_000)
        let thread = Thread {
            var fd = first
            while true {
                let ended = follow(fd, stopFD: stopRead, onFocus: onFocus)
                close(fd)
                if ended == .stopped { break }
                onFocus(nil)
                onNote("sway's IPC at \(socketPath) \(ended == .broken ? "sent something that is not sway's" : "closed"): "
                    + "the host's mapping is in force until sway answers again")
                guard let next = reconnect(socketPath, stopFD: stopRead, everyMs: max(retryMs, 10)) else { break }
                fd = next
                onNote("following sway's focused window again through \(socketPath)")
            }
            close(stopRead)
            watcher.finished.withLock { $0 = true }
            watcher.done.signal()
        }
        thread.name = "remotion-sway-focus"
        thread.start()
        return .success(watcher)
    }

    private init(stopPipe: (read: Int32, write: Int32)) { self.stopPipe = stopPipe }

    /// Stops the thread and waits (at most `timeout`) until it has closed its connection.
    @discardableResult
    package func stop(timeout: TimeInterval = 2) -> Bool {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        let ended = finished.withLock { $0 } || done.wait(timeout: .now() + timeout) == .success
        close(stopPipe.write)
        return ended
    }

    private enum Ending { case stopped, closed, broken }

    /// One connection's life: the opening requests, then every byte read to the tracker.
    private static func follow(_ fd: Int32, stopFD: Int32, onFocus: @Sendable (FocusedApp?) -> Void) -> Ending {
        var tracker = SwayFocusTracker()
        guard writeAll(fd, SwayFocusTracker.opening) else { return .closed }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                return .closed
            }
            if fds[1].revents != 0 { return .stopped }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { return .closed }
            for app in tracker.receive(buffer[..<n]) { onFocus(app) }
            if tracker.broken { return .broken }
        }
    }

    /// Waits `everyMs` between tries until sway answers at `path` (the fd) or the stop (nil).
    private static func reconnect(_ path: String, stopFD: Int32, everyMs: Int32) -> Int32? {
        while true {
            var wake = pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)
            let r = poll(&wake, 1, everyMs)
            if r > 0 { return nil }
            if r < 0 && errno != EINTR { return nil }
            if case .success(let fd) = connectSway(path) { return fd }
        }
    }

    private static func connectSway(_ path: String) -> Result<Int32, SwayFocusError> {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            return .failure(SwayFocusError("SWAYSOCK is not a socket path sway could use (empty or too long)"))
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(SwayFocusError("cannot open a socket to sway's IPC")) }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0 else {
            close(fd)
            return .failure(SwayFocusError("sway does not answer at SWAYSOCK=\(path): is sway running?"))
        }
        return .success(fd)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }
}

/// Why sway's focus cannot be followed (one line for the host's log).
package struct SwayFocusError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
#endif
