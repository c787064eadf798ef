import Logging
import NIOCore
import NIOEmbedded
import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol

/// Collects what the log injector writes (the test's thread only).
final class LineLog {
    var lines: [String] = []
    func count(_ fragment: String) -> Int { lines.filter { $0.contains(fragment) }.count }
    /// Sum of the `dx` of every move_by line.
    var movedX: Int {
        lines.reduce(0) { sum, line in
            guard line.contains("\"move_by\""), let r = line.range(of: "\"dx\":") else { return sum }
            return sum + (Int(line[r.upperBound...].prefix { $0 == "-" || $0.isNumber }) ?? 0)
        }
    }
}

/// The real host pieces on one EmbeddedEventLoop: the host's channel handler (plain
/// datagrams), its pipeline injecting into a log, and beside it, on the same loop,
/// whatever DSU channel a test adds. Virtual time: `advance(by:)`, no sockets, no sleeps.
struct DSURig {
    let loop = EmbeddedEventLoop()
    let log = LineLog()
    let pipeline: HostPipeline
    let host: HostChannelHandler<PlainFraming, HostDriver>
    let hostChannel: EmbeddedChannel
    static let dsuServer = try! SocketAddress(ipAddress: "127.0.0.1", port: 26760)

    init(mode: MappingSettings.Mode = .fps, maxSessions: Int = 16, timeout: Duration = .milliseconds(2500)) {
        var settings = MappingSettings()
        settings.mode = mode
        settings.fps.slowSensitivity = 1
        settings.fps.fastSensitivity = 1
        settings.fps.degreesPerScreen = 360            // 1920 px / 360° = 16/3 px per degree
        let log = self.log
        pipeline = HostPipeline(injector: Injector(backend: LogBackend { log.lines.append($0) }),
                                buttonMap: .seedDefault, settings: settings, logger: Logger(label: "dsu-test"))
        var configuration = HostStateMachine<SocketAddress>.Configuration()
        configuration.timeout = timeout
        let driver = HostDriver(loop: loop, pipeline: pipeline, maximumControllers: maxSessions)
        host = HostChannelHandler(configuration: configuration, framing: PlainFraming(), driver: driver)
        hostChannel = EmbeddedChannel(handler: host, loop: loop)
    }

    func advance(by d: Duration) { loop.advanceTime(by: .nanoseconds(d.nanoseconds)) }

    /// The loop's time, as the host's loop hands it to the pipeline's verbs.
    var now: Instant { Instant(loop.now) }

    var nowMicros: UInt64 { UInt64(loop.now.uptimeNanoseconds / 1000) }

    /// A DSU source on its own channel, connected to `dsuServer`.
    func addSource(timeout: Duration = .milliseconds(2500), table: DSUButtonTable = .default) throws
        -> (DSUSourceHandler, EmbeddedChannel) {
        let handler = DSUSourceHandler(server: Self.dsuServer, pipeline: pipeline,
                                       configuration: .init(clientID: 7, silenceTimeout: timeout, buttonTable: table),
                                       logger: Logger(label: "dsu-test"))
        pipeline.dropReporters.append(handler)
        let channel = EmbeddedChannel(handler: handler, loop: loop)
        try channel.connect(to: Self.dsuServer).wait()
        return (handler, channel)
    }

    /// A DSU server channel watching the pipeline.
    func addServer(lifetime: Duration = .seconds(5)) throws -> (DSUServerHandler, EmbeddedChannel) {
        let handler = DSUServerHandler(configuration: .init(serverID: 0xABCD, subscriptionLifetime: lifetime),
                                       logger: Logger(label: "dsu-test"))
        pipeline.observers.append(handler)
        pipeline.dropReporters.append(handler)
        let channel = EmbeddedChannel(handler: handler, loop: loop)
        return (handler, channel)
    }
}

extension EmbeddedChannel {
    /// One datagram in, then the end of the read batch.
    func receive(_ bytes: [UInt8], from address: SocketAddress) throws {
        try receiveBatch([bytes], from: address)
    }

    /// Several datagrams in one read batch (as one recvmmsg call brings them).
    func receiveBatch(_ datagrams: [[UInt8]], from address: SocketAddress) throws {
        for d in datagrams {
            pipeline.syncOperations.fireChannelRead(NIOAny(AddressedEnvelope(remoteAddress: address, data: allocator.buffer(bytes: d))))
        }
        pipeline.syncOperations.fireChannelReadComplete()
        try throwIfErrorCaught()
    }

    func sentDatagrams() throws -> [(SocketAddress, [UInt8])] {
        var out: [(SocketAddress, [UInt8])] = []
        while let e = try readOutbound(as: AddressedEnvelope<ByteBuffer>.self) {
            out.append((e.remoteAddress, Array(e.data.readableBytesView)))
        }
        return out
    }
}

/// A pad-data reply as a DSU server (a phone app) sends it.
func padData(slot: UInt8, counter: UInt32, micros: UInt64, yaw: Float = 0, pitch: Float = 0,
             buttons: [DSUButton] = [], connected: Bool = true) -> [UInt8] {
    var p = DSUPadData(info: DSUSlotInfo(slot: slot, state: connected ? .connected : .disconnected, model: .fullGyro,
                                         connection: .bluetooth, mac: DSUMAC(rawValue: 0xAA00 + UInt64(slot))))
    p.isConnected = connected
    p.packetCounter = counter
    p.motionTimestampMicros = micros
    p.accel = DSUAccel(x: 0, y: -1, z: 0)
    p.gyro = DSUGyro(pitch: pitch, yaw: yaw, roll: 0)
    p.buttons = DSUButtons(buttons)
    return DSUCodec.encode(DSUPacket(senderID: 0x5151, message: .padData(p)))
}
