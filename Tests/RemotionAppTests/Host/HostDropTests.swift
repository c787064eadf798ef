import Foundation
import Logging
import NIOCore
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import Testing
@testable import RemotionApp

/// Drops are typed from the adapter that dropped to the snapshot; the snapshot's JSON
/// (the dashboard's `drops`) keeps the words it always had, and reads back to the same values.
@Suite struct HostDropTests {
    /// Every kind of drop, and the words the JSON has always shown for it.
    static let words: [HostDrop: String] = [
        .wire(.staleMotion): "stale-motion",
        .wire(.malformed(.truncated)): "malformed:truncated",
        .kernelReceiveBuffer: "kernel-receive-buffer",
        .controllersFull: "controllers too-many-sessions",
        .dsuServer(.decode(.badCRC)): "dsu-serve bad-crc",
        .dsuServer(.staleCounter): "dsu-serve stale-counter",
        .dsuSource(server: "127.0.0.1:26760", .machine(.decode(.badMagic))): "dsu 127.0.0.1:26760 bad-magic",
        .dsuSource(server: "[::1]:26760", .wrongSender): "dsu [::1]:26760 wrong-sender",
        .localPads(.timestampBackwards): "local-pads timestamp-backwards",
        .localPads(.hostBehind): "local-pads host-behind",
        .gamepad(.padNotCreated): "gamepad pad-not-created",
        .gamepad(.reportNotWritten): "gamepad report-not-written",
    ]

    @Test func theSnapshotsJSONKeepsTheDropsWordsAndReadsBack() throws {
        var snapshot = HostSnapshot()
        var n = 0
        for drop in Self.words.keys { n += 1; snapshot.drops[drop] = n }
        let data = try JSONEncoder().encode(snapshot)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let drops = try #require(object["drops"] as? [String: Int])
        #expect(drops == Dictionary(uniqueKeysWithValues: snapshot.drops.map { (Self.words[$0.key]!, $0.value) }))
        #expect(try JSONDecoder().decode(HostSnapshot.self, from: data).drops == snapshot.drops)
    }

    @Test func everyDropReadsBackFromItsWordsAndOtherWordsAreRefused() throws {
        for (drop, key) in Self.words { #expect(HostDrop(key: key) == drop && drop.key == key) }
        for reason in HostDrop.wireReasons { #expect(HostDrop(key: "\(reason)") == .wire(reason)) }
        for bad in ["", "dsu", "dsu 127.0.0.1:1", "dsu a b c", "gamepad", "local-pads nothing", "stale motion"] {
            #expect(HostDrop(key: bad) == nil, "\(bad)")
        }
        var one = HostSnapshot()
        one.drops[.controllersFull] = 1
        let text = String(decoding: try JSONEncoder().encode(one), as: UTF8.self)
        #expect(text.contains("controllers too-many-sessions"))
        let json = Data(text.replacingOccurrences(of: "controllers too-many-sessions", with: "no-such-drop").utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(HostSnapshot.self, from: json) }
    }

    /// A failing virtual pad and a refused controller reach the snapshot as typed drops,
    /// shown with their words.
    @Test func anAdaptersDropsReachTheSnapshotTyped() throws {
        let p = HostPipeline(injector: Injector(backend: LogBackend(sink: { _ in })), buttonMap: .seedDefault,
                             settings: MappingSettings(), logger: Logger(label: "test"))
        final class Refusals: HostDropReporter {
            var hostDrops: [HostDrop: Int] { [.gamepad(.padNotCreated): 2, .localPads(.hostBehind): 1] }
            var summary: String { "" }
        }
        p.dropReporters.append(Refusals())
        var kernel = HostReport(sessions: [:], drops: DropCounters(), datagramsReceived: 0, datagramsSent: 0, kernelDrops: 3)
        kernel.drops.count(.staleMotion)
        let snapshot = p.snapshot(kernel, now: .zero)
        #expect(snapshot.drops == [.gamepad(.padNotCreated): 2, .localPads(.hostBehind): 1, .kernelReceiveBuffer: 3,
                                   .wire(.staleMotion): 1])
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(snapshot)) as? [String: Any])
        #expect(json["drops"] as? [String: Int] == ["gamepad pad-not-created": 2, "local-pads host-behind": 1,
                                                    "kernel-receive-buffer": 3, "stale-motion": 1])
    }
}
