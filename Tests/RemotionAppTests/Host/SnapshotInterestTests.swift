import Logging
import NIOCore
import NIOEmbedded
import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import Testing

/// The host's UDP handler and pipeline on an EmbeddedChannel: one plain controller sending
/// a motion sample every 100 ms of the loop's virtual time, so each step is one report tick
/// of the real handler. Builds are counted by the pipeline (`snapshotsSubmitted`), not timed.
/// Single-threaded (EmbeddedEventLoop): a test takes its leases before it makes the rig.
final class InterestRig {
    let publisher: SnapshotPublisher
    let pipeline: HostPipeline
    let channel: EmbeddedChannel
    let controller = try! SocketAddress(ipAddress: "127.0.0.1", port: 40000)
    let session = SessionID(0x5eed_0001)
    private var samples: UInt32 = 0
    private var edges: UInt32 = 0
    private var buttons = ButtonSet.none

    init(publisher: SnapshotPublisher) {
        self.publisher = publisher
        pipeline = HostPipeline(injector: Injector(backend: VirtualScreenBackend(geometry: ScreenGeometry(width: 1920, height: 1080))),
                                buttonMap: .seedDefault, settings: MappingSettings(), logger: Logger(label: "interest"),
                                publisher: publisher)
        let loop = EmbeddedEventLoop()
        let driver = HostDriver(loop: loop, pipeline: pipeline, maximumControllers: 16)
        channel = EmbeddedChannel(handler: HostChannelHandler(configuration: .init(), framing: PlainFraming(), driver: driver),
                                  loop: loop)
    }

    var now: Instant { Instant(channel.embeddedEventLoop.now) }

    /// One datagram as one wake-up's batch; the host's answers are read and dropped.
    func send(_ message: Message) throws {
        let bytes = PlainDatagram(session: session, message: message).encode()
        try channel.writeInbound(AddressedEnvelope(remoteAddress: controller, data: channel.allocator.buffer(bytes: bytes)))
        channel.pipeline.fireChannelReadComplete()
        while try channel.readOutbound(as: AddressedEnvelope<ByteBuffer>.self) != nil {}
    }

    /// The controller says hello: its session opens (a report at once: it came).
    func open() throws { try send(.ping(clientTimeMicros: 1, clockOffsetMicros: 0)) }

    /// A press or release of A (held as the left mouse button by the seed's map).
    func press(_ down: Bool) throws {
        edges += 1
        buttons.set(.a, down: down)
        try send(.buttons([ButtonEvent(sequence: edges, button: .a, isDown: down, timestampMicros: UInt64(samples) * 100_000)]))
    }

    /// `count` report ticks, 100 ms apart, a motion sample after each; returns how many
    /// snapshots' inputs the pipeline handed to its builder meanwhile.
    func ticks(_ count: Int) throws -> Int {
        let before = pipeline.snapshotsSubmitted
        for _ in 0..<count {
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(100))
            samples += 1
            let yaw = Double(samples % 20) * 0.01
            try send(.motion(MotionPacket(sequence: samples, buttonSequence: edges, sample: MotionSample(
                timestampMicros: UInt64(samples) * 100_000, attitude: Attitude(roll: 0, pitch: 0, yaw: yaw), buttons: buttons))))
        }
        return pipeline.snapshotsSubmitted - before
    }
}

/// A status snapshot is built only for a reader: with no lease the loop builds nothing,
/// a lease gets a current snapshot at once, and the building stops with the last lease.
@Suite(.serialized) struct SnapshotInterestTests {
    @Test func withNoLeaseNoSnapshotIsBuiltOverManyTicks() throws {
        let rig = InterestRig(publisher: SnapshotPublisher())
        try rig.open()
        try rig.press(true)
        #expect(try rig.ticks(50) == 0, "nobody reads: no inputs handed over in 50 ticks")
        #expect(rig.publisher.generation == 0 && !rig.pipeline.wantsReport)
        // Nothing the snapshot shows was lost meanwhile: the engine counted on, and a
        // snapshot built now has every sample and the press.
        rig.pipeline.publishNow(now: rig.now)
        let shown = rig.publisher.current().controllers
        #expect(shown.map(\.motionPackets) == [50] && shown.map(\.buttonEdges) == [1], "\(shown)")
        #expect(shown.first?.held.map(\.label) == ["mouse:left"])
        _ = try rig.channel.finish()
    }

    @Test func aLeaseGetsACurrentSnapshotAtOnce() async throws {
        let rig = try await PipelineRig.start()
        try await rig.host.announceStart()
        // A controller comes while nobody reads: nothing is built for it.
        _ = try await rig.drive([.sessionOpened(SessionID(9), .udp(PipelineRig.address))])
        #expect(rig.publisher.current().controllers.isEmpty, "the start's snapshot, still: nobody read since")
        var leases = [await rig.publisher.lease(.everyTick)]
        #expect(rig.publisher.current().controllers.map(\.session) == [SessionID(9)], "built before the lease was handed over")
        #expect(rig.publisher.interest == .everyTick)
        leases.removeAll()
        #expect(rig.publisher.interest == nil)
        // A one-off read (GET /api/snapshot) is built for too, with no lease kept.
        _ = try await rig.drive([.sessionClosed(SessionID(9), .timedOut)])
        #expect(rig.publisher.interest == nil)
        #expect(await rig.publisher.fresh().controllers.isEmpty)
        await rig.stop()
    }

    @Test func droppingTheLastLeaseStopsTheBuilding() async throws {
        let publisher = SnapshotPublisher()
        var leases = [await publisher.lease(.everyTick), await publisher.lease(.everyTick)]
        let rig = InterestRig(publisher: publisher)
        try rig.open()
        #expect(try rig.ticks(20) == 20, "a live reader: a snapshot every tick")
        leases.removeLast()
        #expect(try rig.ticks(20) == 20, "the other reader still holds its lease")
        leases.removeAll()
        #expect(publisher.interest == nil)
        #expect(try rig.ticks(20) == 0, "the last lease gone: nothing built")
        _ = try rig.channel.finish()
    }

    @Test func theStatusLinesGetASnapshotOnlyWhenWhatTheySayChanged() async throws {
        let publisher = SnapshotPublisher()
        var leases = [await publisher.lease(.changes)]
        let rig = InterestRig(publisher: publisher)
        try rig.open()
        #expect(rig.pipeline.snapshotsSubmitted == 1, "the controller came")
        #expect(try rig.ticks(30) == 0, "motion alone changes no line")
        try rig.press(true)
        #expect(try rig.ticks(30) == 1, "the press (buttons and the held mouse:left): one snapshot")
        try rig.press(false)
        #expect(try rig.ticks(30) == 1, "the release: one")
        #expect(rig.pipeline.setMode(rig.session, .fps) == .fps)
        #expect(try rig.ticks(30) == 1, "its mode: one")
        leases.removeAll()
        try rig.press(true)
        #expect(try rig.ticks(30) == 0, "no reader left")
        _ = try rig.channel.finish()
    }
}
