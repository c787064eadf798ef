import NIOCore
import NIOEmbedded
@testable import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import Testing

/// A DSU source's channel handler with the real host handler and pipeline on one
/// EmbeddedEventLoop: DSU datagrams in, injected events (a log) out, virtual time.
@Suite struct DSUSourceHandlerTests {
    let server = DSURig.dsuServer

    @Test func startsWithVersionPortInfoAndSubscriptionAndRenewsEverySecond() throws {
        let rig = DSURig()
        let (_, channel) = try rig.addSource()
        let first = try channel.sentDatagrams()
        #expect(first.map(\.0) == [server, server, server])
        let kinds = try first.map { try DSUCodec.decode($0.1).message }
        #expect(kinds == [.versionRequest, .portInfoRequest(slots: [0, 1, 2, 3]), .padDataRequest(.allPads)])
        rig.advance(by: .milliseconds(999))
        #expect(try channel.sentDatagrams().isEmpty)
        rig.advance(by: .milliseconds(1))
        #expect(try channel.sentDatagrams().count == 3)            // the version request rides along until answered
    }

    @Test func aSlotIsANamedSessionAndItsYawMovesThePointerRight() throws {
        let rig = DSURig()
        let (source, channel) = try rig.addSource()
        // 90 °/s "yaw right" for 1 s at 100 Hz: 90° × 16/3 px = 480 px to the right.
        for i in 0...100 {
            rig.advance(by: .milliseconds(10))
            try channel.receive(padData(slot: 2, counter: UInt32(i + 1), micros: 5_000_000 + UInt64(i) * 10_000, yaw: 90),
                                from: server)
        }
        #expect(source.connectedSlots == [2])
        #expect(rig.pipeline.sessions.values.map(\.telemetry.name) == ["DSU 127.0.0.1:26760 slot 2"]
               && rig.pipeline.sessions.values.map(\.telemetry.address) == ["dsu 127.0.0.1:26760 slot 2"])
        #expect(abs(rig.log.movedX - 480) <= 2, "moved \(rig.log.movedX) px")
        #expect(rig.log.lines.filter { $0.contains("move_by") }.allSatisfy { $0.hasSuffix("\"dy\":0}") })
        // Not on this machine's clock (stamped 5 s, the loop is at 1 s): latency not measured.
        #expect(rig.pipeline.latencySummary() == nil)
        #expect(rig.pipeline.latencyText.contains("not measured"))
    }

    @Test func crossPressesLeftOnceAndReleasesOnce() throws {
        let rig = DSURig()
        let (_, channel) = try rig.addSource()
        var counter: UInt32 = 0
        func send(_ buttons: [DSUButton], copies: Int = 1) throws {
            counter += 1
            rig.advance(by: .milliseconds(10))
            let d = padData(slot: 0, counter: counter, micros: UInt64(counter) * 10_000, buttons: buttons)
            for _ in 0..<copies { try channel.receive(d, from: server) }   // repeats: stale, dropped
        }
        try send([])
        for _ in 0..<5 { try send([.cross], copies: 2) }
        for _ in 0..<5 { try send([]) }
        #expect(rig.log.count("\"button\":\"left\",\"state\":\"down\"") == 1)
        #expect(rig.log.count("\"button\":\"left\",\"state\":\"up\"") == 1)
        let reporter = try #require(rig.pipeline.dropReporters.first)
        #expect(reporter.hostDrops == [.dsuSource(server: "127.0.0.1:26760", .machine(.staleCounter)): 5])
    }

    @Test func aSilentServerReleasesWithinTheTimeoutAndIsPickedUpWhenItReturns() throws {
        let rig = DSURig()
        let (source, channel) = try rig.addSource(timeout: .seconds(1))
        rig.advance(by: .milliseconds(10))
        try channel.receive(padData(slot: 0, counter: 1, micros: 1, buttons: [.circle]), from: server)
        #expect(rig.log.count("\"right\",\"state\":\"down\"") == 1)
        rig.advance(by: .milliseconds(999))
        #expect(rig.log.count("\"right\",\"state\":\"up\"") == 0)
        rig.advance(by: .milliseconds(1))
        #expect(rig.log.count("\"right\",\"state\":\"up\"") == 1)   // 1 s after the last packet
        #expect(source.connectedSlots.isEmpty && rig.pipeline.sessions.isEmpty)
        #expect(rig.pipeline.closedTotals.reasons == ["timed-out": 1])
        _ = try channel.sentDatagrams()
        rig.advance(by: .seconds(3))
        #expect(try channel.sentDatagrams().count >= 6)              // renewals went on while silent
        // The phone app restarted: a new sender id, counters from 1.
        var p = try #require(try? DSUCodec.decode(padData(slot: 0, counter: 1, micros: 9)))
        p.senderID = 0x7777
        try channel.receive(DSUCodec.encode(p), from: server)
        #expect(source.connectedSlots == [0] && rig.pipeline.sessions.count == 1)
    }

    @Test func aSlotTheServerReportsGoneIsClosedAtOnce() throws {
        let rig = DSURig()
        let (_, channel) = try rig.addSource()
        try channel.receive(padData(slot: 1, counter: 1, micros: 1, buttons: [.dpadUp]), from: server)
        try channel.receive(padData(slot: 1, counter: 2, micros: 2, buttons: [.dpadUp], connected: false), from: server)
        #expect(rig.log.count("\"key\":\"Up\",\"state\":\"down\"") == 1)
        #expect(rig.log.count("\"key\":\"Up\",\"state\":\"up\"") == 1)
        #expect(rig.pipeline.closedTotals.reasons == ["client-disconnected:user": 1])
    }

    @Test func aFloodReachesTheMapperOncePerStepButKeepsEveryEdge() throws {
        let rig = DSURig()
        let (source, channel) = try rig.addSource()
        var batch: [[UInt8]] = []
        for i in 1...1000 {
            batch.append(padData(slot: 0, counter: UInt32(i), micros: UInt64(i) * 100, yaw: 30,
                                 buttons: (400..<500).contains(i) ? [.cross] : []))
        }
        try channel.receiveBatch(batch, from: server)
        let telemetry = try #require(rig.pipeline.sessions.values.first?.telemetry)
        // The first (nothing before it to merge over), then before, during and after the press.
        #expect(telemetry.motionPackets == 4)
        #expect(source.samplesDelivered == 4)
        #expect(rig.log.count("\"left\",\"state\":\"down\"") == 1 && rig.log.count("\"left\",\"state\":\"up\"") == 1)
        #expect(source.summary.contains("1000 pad packets") && source.summary.contains("996 merged"))
    }

    @Test func malformedAndForeignDatagramsAreCountedAndDropped() throws {
        let rig = DSURig()
        let (source, channel) = try rig.addSource()
        var good = padData(slot: 0, counter: 1, micros: 1)
        var badCRC = good; badCRC[90] ^= 1
        var badMagic = good; badMagic[0] = UInt8(ascii: "X")
        try channel.receiveBatch([badCRC, badMagic, Array(good.prefix(30)), [1, 2, 3]], from: server)
        let stranger = try SocketAddress(ipAddress: "127.0.0.1", port: 9999)
        try channel.receive(good, from: stranger)
        #expect(source.dropCounts == [.machine(.decode(.badCRC)): 1, .machine(.decode(.badMagic)): 1, .machine(.decode(.truncated)): 1,
                                  .machine(.decode(.badLength)): 1, .wrongSender: 1])
        #expect(rig.pipeline.sessions.isEmpty)
        good = padData(slot: 0, counter: 2, micros: 2)
        try channel.receive(good, from: server)
        #expect(rig.pipeline.sessions.count == 1)
        let report = rig.pipeline.snapshot(rig.host.report(), now: .zero)
        #expect(report.drops[.dsuSource(server: "127.0.0.1:26760", .machine(.decode(.badCRC)))] == 1)
    }

    @Test func aFullHostRefusesTheSlotAndTakesItWhenRoomIsMade() throws {
        let rig = DSURig(maxSessions: 1)
        let (source, channel) = try rig.addSource()
        try channel.receive(padData(slot: 0, counter: 1, micros: 1), from: server)
        try channel.receive(padData(slot: 1, counter: 1, micros: 1), from: server)
        #expect(source.connectedSlots == [0] && source.refusedWhileFull == 1)
        try channel.receive(padData(slot: 0, counter: 2, micros: 2, connected: false), from: server)
        try channel.receive(padData(slot: 1, counter: 2, micros: 2), from: server)
        #expect(source.connectedSlots.isEmpty)                      // retried at most once a second
        rig.advance(by: .seconds(1))
        try channel.receive(padData(slot: 1, counter: 3, micros: 3), from: server)
        #expect(source.connectedSlots == [1])
    }

    @Test func pointerModeWorksFromADSUSourcesRawSensorsThroughFusion() throws {
        // DSU sends gyro and acceleration, no attitude: the host fuses one (docs/MOTION.md).
        let rig = DSURig(mode: .pointer)
        let (_, channel) = try rig.addSource()
        for i in 1...10 { try channel.receive(padData(slot: 0, counter: UInt32(i), micros: UInt64(i) * 1000, yaw: 50), from: server) }
        #expect(rig.pipeline.sessions.values.compactMap(\.telemetry.note).isEmpty, "no 'needs attitude' note")
        // DSU yaw > 0 turns right: the pointer moves right from the centre, and not vertically.
        let xs = rig.log.lines.compactMap { line -> Int? in
            guard line.contains("move_to"), let r = line.range(of: "\"x\":") else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }
        #expect(xs.count == 10 && xs.first == 960 && xs.last! > 960, "pointer x: \(xs)")
        #expect(rig.log.lines.allSatisfy { !$0.contains("move_to") || $0.contains("\"y\":540") })
    }


    @Test func closingTheSourceReleasesWhatItsSlotsHeld() throws {
        let rig = DSURig()
        let (_, channel) = try rig.addSource()
        try channel.receive(padData(slot: 3, counter: 1, micros: 1, buttons: [.cross, .l1]), from: server)
        #expect(rig.log.count("\"state\":\"down\"") == 2)
        _ = try channel.finish()
        #expect(rig.log.count("\"state\":\"up\"") == 2)
        #expect(rig.pipeline.sessions.isEmpty)
    }
}
