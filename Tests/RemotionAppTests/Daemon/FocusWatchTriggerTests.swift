import Logging
import RemotionApp
import ServiceLifecycle
import Testing

/// A host started without `[[profile]]` starts following the focus when the dashboard saves
/// the first profile (`FocusWatchTrigger`), and says nothing about the focus until then.
/// The watcher runs in a real ServiceGroup; its environment has no display, so once started
/// it says the one line that the focus cannot be followed (what a headless host says).
@Suite struct FocusWatchTriggerTests {
    @Test func aHostWithProfilesWatchesAtOnce() async {
        let trigger = FocusWatchTrigger(started: true)
        #expect(await trigger.wait())
    }

    @Test func theWatcherStartsWhenTheFirstProfileIsSaved() async throws {
        let log = RecordingLog()
        let trigger = FocusWatchTrigger(started: false)
        let watcher = FocusWatchService(environment: [:], onFocus: { _ in }, logger: log.logger, trigger: trigger)
        let group = ServiceGroup(configuration: .init(services: [.init(service: watcher)], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        // Nothing is said before a profile exists (the service waits on the trigger alone:
        // this reads the log after the group started, and then after the fire).
        try await Task.sleep(for: .milliseconds(50))
        #expect(log.lines.isEmpty, "no focus line before a profile: \(log.lines)")
        trigger.fire()
        let said = await eventually { log.lines.contains { $0.contains("[[profile]] does not follow the focus") } }
        #expect(said, "after the first profile the watcher starts and says why it cannot follow: \(log.lines)")
        await group.triggerGracefulShutdown()
        try await running.value
    }

    @Test func aHostThatStopsBeforeAnyProfileNeverWatches() async throws {
        let log = RecordingLog()
        let watcher = FocusWatchService(environment: [:], onFocus: { _ in }, logger: log.logger,
                                        trigger: FocusWatchTrigger(started: false))
        let group = ServiceGroup(configuration: .init(services: [.init(service: watcher)], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(log.lines.isEmpty, "stopped before any profile: nothing said: \(log.lines)")
    }

    /// Polls `condition` for up to 10 s (the service's task on the shared pool).
    private func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
