import Foundation
import HummingbirdWebSocket
import Synchronization

/// One browser's WebSocket. It has its own send loop fed through a small bounded buffer
/// that drops the oldest message when the browser falls behind, and a snapshot is only
/// marked "due" (never queued twice): a slow or stuck browser costs one suspended write
/// here and nothing anywhere else. The host's loop never waits for it: the loop only
/// publishes into `SnapshotPublisher`, which this reads by copying, while the socket holds
/// its lease (a host with no reader builds no snapshot).
struct DashboardSocket: Sendable {
    let publisher: SnapshotPublisher
    let routes: DashboardRoutes

    /// Snapshots go out at most this often (20 Hz), and only when the generation changed.
    static let interval = Duration.milliseconds(50)
    /// Replies waiting for a slow browser beyond this many are dropped, oldest first.
    static let bufferLimit = 8
    /// The largest message a browser may send.
    static let maxMessage = 16 * 1024

    enum Outgoing: Sendable {
        case snapshotDue
        case message(DashboardMessage)
    }

    /// Set while a snapshot is due and not yet written, so at most one waits.
    final class DueFlag: Sendable {
        let value = Atomic<Bool>(false)
    }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (queue, sink) = AsyncStream<Outgoing>.makeStream(bufferingPolicy: .bufferingNewest(Self.bufferLimit))
        let due = DueFlag()
        let publisher = self.publisher
        // A live reader while the socket is open: the host builds a snapshot every tick for
        // it, and the first one now, so the page's first message is current.
        let lease = await publisher.lease(.everyTick)
        defer { withExtendedLifetime(lease) {} }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // The ticker: looks at the generation, never at the host's loop.
                var sent = -1
                while !Task.isCancelled {
                    let generation = publisher.generation
                    if generation != sent, !due.value.exchange(true, ordering: .acquiringAndReleasing) {
                        sent = generation
                        sink.yield(.snapshotDue)
                    }
                    try await Task.sleep(for: Self.interval)
                }
            }
            group.addTask {
                // The send loop: the only place that waits for the browser.
                for await item in queue {
                    let message: DashboardMessage
                    switch item {
                    case .snapshotDue:
                        due.value.store(false, ordering: .releasing)
                        let generation = publisher.generation
                        message = .snapshot(routes.snapshot(), generation: generation)
                    case .message(let m):
                        message = m
                    }
                    let text = String(decoding: DashboardJSON.encode(message), as: UTF8.self)
                    try await outbound.write(.text(text))
                }
            }
            // The reader: settings changes from the page, answered through the send loop.
            defer { sink.finish(); group.cancelAll() }
            for try await incoming in inbound.messages(maxSize: Self.maxMessage) {
                guard case .text(let text) = incoming else {
                    sink.yield(.message(.error("send settings changes as JSON text messages")))
                    continue
                }
                switch await routes.change(Data(text.utf8)) {
                case .success(let settings): sink.yield(.message(.settings(settings)))
                case .failure(let failure): sink.yield(.message(.error(failure.message)))
                }
            }
        }
    }
}
