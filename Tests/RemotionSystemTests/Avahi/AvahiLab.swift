#if os(Linux)
import Foundation
import Testing
import RemotionHostLogic

/// The loopback avahi lab of these tests: `scripts/avahi-lo.sh` started by the suite trait
/// `.avahiLab` (private D-Bus bus + avahi-daemon in its own network namespace, see the script).
enum Lab {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = packageRoot.appendingPathComponent("scripts/avahi-lo.sh").path
    static let stateDir = "/tmp/remotion-avahi-test-\(ProcessInfo.processInfo.processIdentifier)"

    /// Runs the lab script and returns its stdout; throws with its stderr on failure.
    @discardableResult
    static func script(_ command: String) async throws -> String {
        try await run(["/bin/bash", script, command, stateDir])
    }

    /// A command run to completion off the concurrency pool (`Spawn.offPool`).
    @discardableResult
    static func run(_ arguments: [String]) async throws -> String { try await Spawn.offPool { try Spawn.run(arguments) } }

    /// A unique instance name per test run (several runs may share a machine).
    static func name(_ base: String) -> String { "\(base) \(ProcessInfo.processInfo.processIdentifier)" }
}

struct LabError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The process talks to "the lab bus" through the symlink `Lab.busLink`, so that
/// `DBUS_SYSTEM_BUS_ADDRESS` is set once (libavahi-client reads it in avahi_client_new, and
/// setenv is not safe while other threads run) while the loopback lab and the veth lab each
/// point the link at their own bus. The suites using them are serialized (see `AvahiLabTests`).
extension Lab {
    static let busLink = "\(stateDir)/bus"

    static func pointBus(at socketPath: String) throws {
        try FileManager.default.createDirectory(atPath: stateDir, withIntermediateDirectories: true)
        unlink(busLink)
        guard symlink(socketPath, busLink) == 0 else { throw LabError(message: "symlink \(busLink) failed") }
        _ = setBusOnce
    }

    private static let setBusOnce: Void = {
        setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=\(busLink)", 1)
    }()
}

/// Starts the loopback lab before the suite's first test and stops it after the last one.
struct AvahiLabTrait: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        try await Lab.script("start")
        do {
            try Lab.pointBus(at: "\(Lab.stateDir)/dbus.sock")
            try await function()
        } catch {
            _ = try? await Lab.script("stop")
            throw error
        }
        _ = try? await Lab.script("stop")
    }
}

/// Starts scripts/netns-lab.sh (namespaces remotion-a-ID/remotion-b-ID over a veth pair, ID
/// from this process's state directory, so suites run at once never share them); this
/// process uses host B's bus, `avahi-*` tools run inside namespace A with A's bus.
struct NetnsLabTrait: SuiteTrait, TestScoping {
    static let dir = "\(Lab.stateDir)/netns"

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        let script = Lab.packageRoot.appendingPathComponent("scripts/netns-lab.sh").path
        do {
            try await Lab.run(["/bin/bash", script, "up", Self.dir])
            try Lab.pointBus(at: "\(Self.dir)/b/dbus.sock")
            try await function()
        } catch {
            _ = try? await Lab.run(["/bin/bash", script, "down", Self.dir])
            throw error
        }
        _ = try? await Lab.run(["/bin/bash", script, "down", Self.dir])
    }

    /// argv prefix that runs a program as host A.
    static var inA: [String] {
        ["ip", "netns", "exec", namespaceA, "env", "DBUS_SYSTEM_BUS_ADDRESS=unix:path=\(dir)/a/dbus.sock"]
    }

    /// Namespace A's name, as the lab wrote it to its `env` file.
    static var namespaceA: String {
        let env = (try? String(contentsOfFile: "\(dir)/env", encoding: .utf8)) ?? ""
        return env.split(separator: "\n").first { $0.hasPrefix("REMOTION_NETNS_A=") }
            .map { String($0.dropFirst("REMOTION_NETNS_A=".count)) } ?? "remotion-netns-lab-not-up"
    }
}

/// The lab's state folder (configurations, logs, the bus link) goes when every lab suite has
/// run: both labs use it, so only the parent suite, once, after the last.
struct LabStateRemovedTrait: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(atPath: Lab.stateDir) }
        try await function()
    }
}

extension Trait where Self == LabStateRemovedTrait {
    static var labStateRemoved: Self { Self() }
}

extension Trait where Self == NetnsLabTrait {
    static var netnsLab: Self { Self() }
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
