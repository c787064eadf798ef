import RemotionProtocol
import Synchronization

/// Where a running host's pairing requests meet the user's decisions. The host's loop
/// posts requests and reads decisions; the CLI (another task) awaits requests and
/// decides. All state is behind a `Mutex`, so it is shared safely.
public final class PairingDesk: Sendable {
    public let requests: AsyncStream<PairingRequest>
    private let continuation: AsyncStream<PairingRequest>.Continuation
    private let decisions = Mutex<[UInt32: Bool]>([:])
    private let automatic: (@Sendable (PairingRequest) -> Bool)?

    /// `automatic`, when given, answers every request at once on the host's loop instead
    /// of posting it to `requests`: the demo's own controller, and tests, whose answer must
    /// not wait for a turn on a busy concurrency pool. It stores the key itself when it
    /// accepts (return true).
    public init(automatic: (@Sendable (PairingRequest) -> Bool)? = nil) {
        (requests, continuation) = AsyncStream.makeStream(of: PairingRequest.self)
        self.automatic = automatic
    }

    /// Called by the framing on the host's loop.
    func post(_ request: PairingRequest) {
        if let automatic {
            decide(request, accept: automatic(request))
        } else {
            continuation.yield(request)
        }
    }

    /// Called by the framing: decisions made since the last call.
    func takeDecisions() -> [UInt32: Bool] {
        decisions.withLock { d in
            defer { d.removeAll() }
            return d
        }
    }

    /// The user's answer to a request (store the key first if accepting).
    public func decide(_ request: PairingRequest, accept: Bool) {
        decisions.withLock { $0[request.id] = accept }
    }

    public func finish() { continuation.finish() }
}
