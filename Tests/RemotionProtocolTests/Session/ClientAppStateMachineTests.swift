import Testing
@testable import RemotionProtocol


/// Every (state, event) pair of the nine-state client machine. Each state is reached by
/// a legal path from `menu`; the table lists the legal pairs with their next state and
/// actions; every pair not in the table must change nothing (state, addresses, actions).
@Suite struct ClientAppStateMachineTests {
    typealias App = ClientAppStateMachine<String>
    typealias S = App.State
    typealias E = App.Event
    typealias A = App.Action

    /// Legal paths from menu. `connecting` is reached with a second address still pending.
    static let paths: [S: [E]] = [
        .menu: [],
        .browsing: [.start],
        .selecting: [.start, .hostsChanged(["x", "y"])],
        .resolving: [.start, .select("x")],
        .noService: [.start, .browseTimedOut],
        .connecting: [.start, .select("x"), .resolved(["a1", "a2"])],
        .timeout: [.connectDirect(["a1"]), .connectionTimedOut],
        .disconnected: [.connectDirect(["a1"]), .connectionSucceeded, .connectionLost],
        .connected: [.connectDirect(["a1"]), .connectionSucceeded],
    ]

    /// One representative of every event (and of each payload shape that matters).
    static let events: [(String, E)] = [
        ("start", .start),
        ("direct2", .connectDirect(["d1", "d2"])),
        ("direct0", .connectDirect([])),
        ("hosts0", .hostsChanged([])),
        ("hosts1", .hostsChanged(["x"])),
        ("hosts2", .hostsChanged(["x", "y"])),
        ("browseTimedOut", .browseTimedOut),
        ("select", .select("x")),
        ("resolved2", .resolved(["r1", "r2"])),
        ("resolved0", .resolved([])),
        ("resolveFailed", .resolveFailed),
        ("succeeded", .connectionSucceeded),
        ("timedOut", .connectionTimedOut),
        ("lost", .connectionLost),
        ("menu", .menu),
    ]

    struct Outcome: Equatable { var state: S; var actions: [A]; var pending: [String] }

    /// The legal pairs: "state/event" → outcome.
    static let table: [String: Outcome] = {
        var t: [String: Outcome] = [:]
        func legal(_ s: S, _ e: String, _ next: S, _ a: [A], pending: [String] = []) { t["\(s)/\(e)"] = Outcome(state: next, actions: a, pending: pending) }
        // Starting: from menu and from the three end states.
        for s: S in [.menu, .noService, .timeout, .disconnected] {
            legal(s, "start", .browsing, [.startBrowsing])
            legal(s, "direct2", .connecting, [.connect("d1")], pending: ["d2"])
            if s != .noService { legal(s, "direct0", .noService, []) }   // no address: no service
        }
        // Discovery.
        for s: S in [.browsing, .selecting] {
            legal(s, "hosts0", .browsing, [.showHosts([])])
            legal(s, "hosts1", .resolving, [.resolve("x")])
            legal(s, "hosts2", .selecting, [.showHosts(["x", "y"])])
            legal(s, "select", .resolving, [.resolve("x")])
        }
        legal(.browsing, "browseTimedOut", .noService, [.stopBrowsing])
        legal(.resolving, "resolved2", .connecting, [.stopBrowsing, .connect("r1")], pending: ["r2"])
        legal(.resolving, "resolved0", .noService, [.stopBrowsing])
        legal(.resolving, "resolveFailed", .noService, [.stopBrowsing])
        // Connection.
        legal(.connecting, "succeeded", .connected, [.startMotion])
        legal(.connecting, "timedOut", .connecting, [.disconnect, .connect("a2")])   // next address
        legal(.connected, "lost", .disconnected, [.stopMotion, .disconnect])
        // switchToMenu stops what each state started (the seed's switchToMenuState).
        for s: S in [.browsing, .selecting, .resolving, .noService] { legal(s, "menu", .menu, [.stopBrowsing]) }
        for s: S in [.connecting, .timeout, .disconnected] { legal(s, "menu", .menu, [.stopBrowsing, .disconnect]) }
        legal(.connected, "menu", .menu, [.stopMotion, .disconnect])
        return t
    }()

    static func machine(in state: S) -> App {
        var m = App()
        for e in paths[state]! { _ = m.handle(e) }
        precondition(m.state == state, "path to \(state) ends in \(m.state)")
        return m
    }

    @Test(arguments: S.allCases)
    func everyEventInState(_ state: S) {
        var legalCount = 0
        for (name, event) in Self.events {
            var m = Self.machine(in: state)
            let before = Outcome(state: m.state, actions: [], pending: m.pendingAddresses)
            let actions = m.handle(event)
            let after = Outcome(state: m.state, actions: actions, pending: m.pendingAddresses)
            if let expected = Self.table["\(state)/\(name)"] {
                legalCount += 1
                #expect(after == expected, "\(state) + \(name)")
            } else {
                #expect(after == before, "\(state) + \(name) must change nothing")
            }
        }
        #expect(legalCount >= 2, "every state has legal events")
    }

    @Test func tableCoversEveryState() {
        #expect(Set(Self.paths.keys) == Set(S.allCases) && S.allCases.count == 9)
        let statesWithLegalEvents = Set(Self.table.keys.map { String($0.split(separator: "/")[0]) })
        #expect(statesWithLegalEvents.count == 9)
    }

    /// `isLegal` (from a fresh machine with no addresses pending) agrees with the table,
    /// except where the outcome depends on pending addresses (connecting + timedOut).
    @Test func isLegalAgreesWithTable() {
        for state in S.allCases {
            for (name, event) in Self.events where !(state == .connecting && name == "timedOut") {
                #expect(App.isLegal(state, event) == (Self.table["\(state)/\(name)"] != nil), "\(state) + \(name)")
            }
        }
    }

    @Test func triesAddressesInOrderThenTimesOut() {
        var m = App()
        #expect(m.handle(.connectDirect(["a", "b", "c"])) == [.connect("a")])
        #expect(m.handle(.connectionTimedOut) == [.disconnect, .connect("b")])
        #expect(m.handle(.connectionTimedOut) == [.disconnect, .connect("c")])
        #expect(m.pendingAddresses.isEmpty && m.state == .connecting)
        #expect(m.handle(.connectionTimedOut) == [.disconnect])
        #expect(m.state == .timeout)
        // A success clears what is left.
        var n = App()
        _ = n.handle(.connectDirect(["a", "b"]))
        #expect(n.handle(.connectionSucceeded) == [.startMotion] && n.pendingAddresses.isEmpty)
    }

    @Test func preferredHostIsPickedByName() {
        var m = App(preferredHost: "y")
        _ = m.handle(.start)
        #expect(m.handle(.hostsChanged(["x"])).isEmpty && m.state == .browsing)
        #expect(m.handle(.hostsChanged(["x", "y", "z"])) == [.resolve("y")] && m.state == .resolving)
        var n = App(preferredHost: "y")
        _ = n.handle(.start)
        #expect(n.handle(.hostsChanged([])).isEmpty && n.state == .browsing)
    }

    @Test func menuClearsPendingAddresses() {
        var m = Self.machine(in: .connecting)
        #expect(m.pendingAddresses == ["a2"])
        _ = m.handle(.menu)
        #expect(m.pendingAddresses.isEmpty && m.state == .menu)
    }
}
