import ServiceLifecycle
import Synchronization

/// A server (the dashboard, the web controller) running in its own ServiceGroup, and
/// its graceful stop: the group is asked to shut down, and whatever is still open after
/// the grace period is cancelled.
package final class RunningServer: Sendable {
    private let running = Mutex<(task: Task<Void, Never>, group: ServiceGroup)?>(nil)

    package init() {}

    func started(task: Task<Void, Never>, group: ServiceGroup) {
        running.withLock { $0 = (task, group) }
    }

    package func shutdown(gracePeriod: Duration = .seconds(2)) async {
        guard let (task, group) = running.withLock({ r in defer { r = nil }; return r }) else { return }
        await group.triggerGracefulShutdown()
        let deadline = Task {
            try? await Task.sleep(for: gracePeriod)
            task.cancel()
        }
        await task.value
        deadline.cancel()
    }
}
