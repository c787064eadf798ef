import Foundation

/// Test support: `body` on a thread of its own, awaited. A wait that blocks (a child's whole
/// run, an Xvfb starting) must not hold one of the concurrency pool's threads: on 2 cores the
/// pool has 2, and every test of the suite waits behind them (docs/benchmarks-history.md,
/// "The unit tests in a loop beside a second load").
package func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
