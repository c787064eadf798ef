import UnixSignals

/// A command's work until it ends or a person stops it (SIGINT: Ctrl-C; SIGTERM: kill, a
/// service manager). The signal cancels the work and waits for it to unwind, so that what it
/// cleans up in its `defer`s (the demo's key folder in /tmp) is cleaned up; the default
/// action of those signals would end the process at once and skip every `defer`.
enum UntilSignalled<Value: Sendable>: Sendable {
    case finished(Value)
    case signalled(UnixSignal)

    /// Runs `work` with SIGINT and SIGTERM trapped: its value, or the signal that cancelled it
    /// (after `work` returned or threw its cancellation).
    static func run(_ work: @escaping @Sendable () async throws -> Value) async throws -> Self {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        return try await withThrowingTaskGroup(of: Self?.self) { group in
            group.addTask { .finished(try await work()) }
            group.addTask {
                for await signal in signals { return .signalled(signal) }
                return nil                                     // cancelled: the work ended first
            }
            while let next = try await group.next() {
                guard let end = next else { continue }
                group.cancelAll()
                if case .signalled = end {
                    // The work unwinds: its cancellation (or any error) is not the outcome.
                    while true {
                        do { guard try await group.next() != nil else { break } } catch { continue }
                    }
                }
                return end
            }
            throw CancellationError()
        }
    }

    /// The shell's status for a process a signal stopped: 128 + its number (130, 143).
    static func exitStatus(_ signal: UnixSignal) -> Int32 { 128 + signal.rawValue }
}
