#if os(Linux)
import Foundation
import Testing
import RemotionDiscovery

/// The loopback avahi lab of these tests: `scripts/avahi-lo.sh` started by the suite trait
/// `.avahiLab` (private D-Bus bus + avahi-daemon in its own network namespace, see the script).
enum Lab {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = packageRoot.appendingPathComponent("scripts/avahi-lo.sh").path
    static let stateDir = "/tmp/remotion-avahi-test-\(ProcessInfo.processInfo.processIdentifier)"

    /// Runs the lab script and returns its stdout; throws with its stderr on failure.
    @discardableResult
    static func script(_ command: String) throws -> String {
        try run(["/bin/bash", script, command, stateDir])
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> String { try Spawn.run(arguments) }

    /// A unique instance name per test run (several runs may share a machine).
    static func name(_ base: String) -> String { "\(base) \(ProcessInfo.processInfo.processIdentifier)" }
}

struct LabError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Starts the lab before the suite's first test and stops it after the last one.
struct AvahiLabTrait: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        let output = try Lab.script("start")
        for line in output.split(separator: "\n") where line.hasPrefix("DBUS_SYSTEM_BUS_ADDRESS=") {
            // Set once, before any avahi client of this process exists (libavahi-client reads it
            // in avahi_client_new); nothing else in this test process changes it.
            setenv("DBUS_SYSTEM_BUS_ADDRESS", String(line.dropFirst("DBUS_SYSTEM_BUS_ADDRESS=".count)), 1)
        }
        defer { _ = try? Lab.script("stop") }
        try await function()
    }
}

extension Trait where Self == AvahiLabTrait {
    static var avahiLab: Self { Self() }
}

/// Collects a browse stream's events with their arrival time.
actor EventLog {
    private(set) var events: [(at: ContinuousClock.Instant, event: DiscoveryEvent)] = []

    func append(_ event: DiscoveryEvent) { events.append((ContinuousClock.now, event)) }

    /// The first event (already logged or arriving within `timeout`) matching `predicate`.
    func wait(timeout: Duration = .seconds(10), after: ContinuousClock.Instant? = nil,
              _ predicate: @Sendable (DiscoveryEvent) -> Bool) async
        -> (at: ContinuousClock.Instant, event: DiscoveryEvent)?
    {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let hit = events.first(where: { (after == nil || $0.at > after!) && predicate($0.event) }) {
                return hit
            }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Iterates a browse stream into an EventLog until `stop()`.
final class BrowseWatch: Sendable {
    let log = EventLog()
    let started = ContinuousClock.now
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<DiscoveryEvent>) {
        let log = self.log
        task = Task { for await event in stream { await log.append(event) } }
    }

    func stop() { task.cancel() }
    deinit { task.cancel() }
}

func resolvedName(_ name: String) -> @Sendable (DiscoveryEvent) -> Bool {
    { if case let .resolved(r) = $0 { return r.name == name } else { return false } }
}

func removedName(_ name: String) -> @Sendable (DiscoveryEvent) -> Bool {
    { if case let .removed(s) = $0 { return s.name == name } else { return false } }
}

extension Duration {
    var ms: String { String(format: "%.1f ms", Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15) }
}
#endif
