import RemotionNetwork
import RemotionProtocol
import Synchronization

/// One pairing window opened on a running host through the control socket: the
/// requests the host's framing posts to its desk, queued for the connection that
/// opened it (which shows them to its user and answers with `pair-decide`).
package final class PairingWindow: Sendable {
    package let owner: Int
    package let desk: PairingDesk
    package let code: String
    package let deadline: ContinuousClock.Instant

    private struct State {
        var queue: [PairingRequest] = []
        var known: [UInt32: PairingRequest] = [:]
        var waiter: CheckedContinuation<Void, Never>?
        var closed = false
        var closing = false
    }
    private let state = Mutex(State())

    init(owner: Int, desk: PairingDesk, code: String, deadline: ContinuousClock.Instant) {
        self.owner = owner
        self.desk = desk
        self.code = code
        self.deadline = deadline
    }

    /// Moves requests from the desk into the queue until the desk finishes.
    func forward() async {
        for await request in desk.requests {
            let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
                s.queue.append(request)
                s.known[request.id] = request
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume()
        }
        close()
    }

    /// The next request, waiting at most `timeout`; `.closed` once the window closed.
    func next(timeout: Duration) async -> Next {
        if let ready = take() { return ready }
        let end = ContinuousClock.now + timeout
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.wake()
        }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { s -> Bool in
                // (A timer that fired before this point finds no waiter: the clock check covers it.)
                if !s.queue.isEmpty || s.closed || s.waiter != nil || ContinuousClock.now >= end { return true }
                s.waiter = c
                return false
            }
            if resumeNow { c.resume() }
        }
        timer.cancel()
        return take() ?? .nothing
    }

    enum Next: Equatable {
        case request(PairingRequest)
        case nothing
        case closed
    }

    private func take() -> Next? {
        state.withLock { s in
            if !s.queue.isEmpty { return .request(s.queue.removeFirst()) }
            return s.closed ? .closed : nil
        }
    }

    private func wake() {
        state.withLock { s in defer { s.waiter = nil }; return s.waiter }?.resume()
    }

    func request(id: UInt32) -> PairingRequest? { state.withLock { $0.known[id] } }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// True for the one caller that gets to close the window (the others see false), so
    /// that the closer can shut the host's side first and only then tell the waiters.
    func claimClosing() -> Bool {
        state.withLock { s in
            guard !s.closed, !s.closing else { return false }
            s.closing = true
            return true
        }
    }

    /// Closes the window: no more requests; a waiting `next` returns `.closed`.
    func close() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.closed = true
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume()
        desk.finish()
    }
}
