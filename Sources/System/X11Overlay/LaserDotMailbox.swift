import Foundation
import RemotionHostLogic

/// What the host's loop and an overlay's drawing thread share (the X11 window and the
/// Wayland layer-shell dot alike): the newest `LaserDot`, whether it changed since the
/// thread last looked, and the stop. The loop posts (`show`, `hide`, `stop`); the thread
/// waits in `next` for a change, or for the shown dot's fade deadline, and says when it has
/// let go of its display connection (`finished`).
///
/// @unchecked Sendable: every stored property is read and written only while `condition` is
/// locked (each method takes it for its whole body), so no two threads touch it at once.
final class LaserDotMailbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var dot = LaserDot()
    private var changed = false
    private var stopped = false
    private var isFinished = false

    func show(x: Int, y: Int) {
        post { $0.sample(x: x, y: y, now: ProcessInfo.processInfo.systemUptime) }
    }

    func hide() { post { $0.clear() } }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// The drawing thread: waits until the dot changed, or (while it is `shown`) its fade
    /// deadline passed; the dot to draw then, or nil once stopped.
    func next(shown: Bool) -> LaserDot? {
        condition.lock()
        defer { condition.unlock() }
        while !changed && !stopped {
            let now = ProcessInfo.processInfo.systemUptime
            if shown, let hideAt = dot.hideAt {
                if now >= hideAt { break }
                _ = condition.wait(until: Date(timeIntervalSinceNow: hideAt - now))
            } else {
                condition.wait()
            }
        }
        changed = false
        return stopped ? nil : dot
    }

    /// The drawing thread has closed its connection.
    func finished() {
        condition.lock()
        isFinished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the thread and waits at most `timeout` until it has finished: true when it did.
    func stopAndWait(timeout: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        stopped = true
        condition.broadcast()
        let end = Date(timeIntervalSinceNow: timeout)
        while !isFinished {
            if !condition.wait(until: end) { return isFinished }
        }
        return true
    }

    private func post(_ change: (inout LaserDot) -> Void) {
        condition.lock()
        change(&dot)
        changed = true
        condition.broadcast()
        condition.unlock()
    }
}
