import RemotionProtocol

/// The host as a DSU *client* of one DSU server (a phone app such as MotionSource or
/// DSUController): sans-IO. The adapter owns one UDP socket connected to the server,
/// sends every datagram in `Output.datagrams` to it, feeds every datagram it receives
/// to `receive(_:now:)` and calls `tick(now:)` at `nextDeadline`.
///
/// - `start(now:)` sends a version request, a port-info request for slots 0–3 and a
///   pad-data subscription for all pads; every `renewInterval` (1 s) it sends the
///   port-info request and the subscription again, also while the server is silent,
///   so a server that comes back is picked up by itself (a version request rides
///   along while no reply has been seen).
/// - Pad data is accepted when it decodes (magic, version, length, CRC) and its
///   counter is newer than the slot's last one (serial-number order, so the u32 wraps);
///   an equal counter with a newer motion timestamp is accepted too, for servers that
///   never fill the counter. Anything else is counted in `drops`.
/// - Events: `.slotConnected` before a slot's first sample; `.sample` with the packet's
///   µs timestamp, Remotion-frame gyro/acceleration (`DSUAxes`) and buttons through
///   `buttonTable`; `.slotDisconnected` when the slot reports it is not connected (pad
///   data or port info) or when no pad data for it arrived for `silenceTimeout` (2.5 s).
package struct DSUSourceStateMachine: Sendable {
    package struct Configuration: Hashable, Sendable {
        /// Our sender id, random per run (the adapter draws it).
        package var clientID: UInt32
        package var renewInterval: Duration = .seconds(1)
        package var silenceTimeout: Duration = .milliseconds(2500)
        package var buttonTable: DSUButtonTable = .default

        package init(clientID: UInt32, renewInterval: Duration = .seconds(1),
                     silenceTimeout: Duration = .milliseconds(2500), buttonTable: DSUButtonTable = .default) {
            self.clientID = clientID; self.renewInterval = renewInterval
            self.silenceTimeout = silenceTimeout; self.buttonTable = buttonTable
        }
    }

    package enum Event: Hashable, Sendable {
        case slotConnected(UInt8)
        case sample(slot: UInt8, MotionSample)
        /// The slot ended: the server said so (`timedOut` false) or it was silent for
        /// `silenceTimeout` (true).
        case slotDisconnected(UInt8, timedOut: Bool)
        /// The server answered a version request.
        case serverVersion(UInt16)
    }

    package struct Output: Hashable, Sendable {
        package var datagrams: [[UInt8]] = []
        package var events: [Event] = []
        package init() {}
    }

    private struct Slot: Hashable, Sendable {
        var connected = false
        var lastCounter: UInt32?
        var lastTimestamp: UInt64 = 0
        var lastPadDataAt: Instant?
        /// The MAC the server reports for the pad in the slot (its newest pad data).
        var mac = DSUMAC.zero
    }

    package private(set) var configuration: Configuration
    package private(set) var drops = DSUDropCounters()
    /// Accepted pad-data packets.
    package private(set) var accepted = 0
    /// The server's sender id from its latest accepted packet.
    package private(set) var serverID: UInt32?
    package private(set) var serverVersion: UInt16?
    private var slots = [Slot](repeating: Slot(), count: DSU.slotCount)
    private var nextRenewal: Instant?

    package init(configuration: Configuration) { self.configuration = configuration }

    /// The MAC the server reports for the pad in `slot` (from its newest pad data): the
    /// pad's identity, which a slot number is not. nil for an all-zero MAC or no such slot.
    package func mac(ofSlot slot: UInt8) -> DSUMAC? {
        guard Int(slot) < slots.count, slots[Int(slot)].mac != .zero else { return nil }
        return slots[Int(slot)].mac
    }

    /// Slots that currently deliver samples.
    package var connectedSlots: [UInt8] {
        slots.indices.filter { slots[$0].connected }.map { UInt8($0) }
    }

    /// When `tick(now:)` next has work: the next renewal or the earliest slot timeout.
    package var nextDeadline: Instant? {
        slots.reduce(nextRenewal) { d, s in
            guard s.connected, let t = s.lastPadDataAt else { return d }
            return earliest(d, t + configuration.silenceTimeout)
        }
    }

    /// The first requests. Calling it again restarts the renewal schedule.
    package mutating func start(now: Instant) -> Output {
        var out = Output()
        out.datagrams = requests(includingVersion: true)
        nextRenewal = now + configuration.renewInterval
        return out
    }

    /// Renews the subscription when due and times out silent slots.
    package mutating func tick(now: Instant) -> Output {
        var out = Output()
        for i in slots.indices where slots[i].connected {
            if let t = slots[i].lastPadDataAt, now - t >= configuration.silenceTimeout {
                disconnect(i, timedOut: true, into: &out)
            }
        }
        if let due = nextRenewal, now >= due {
            out.datagrams = requests(includingVersion: serverVersion == nil)
            // Catch up without a burst if the caller was late.
            var next = due + configuration.renewInterval
            if next <= now { next = now + configuration.renewInterval }
            nextRenewal = next
        }
        return out
    }

    /// One datagram from the server.
    package mutating func receive(_ datagram: some Collection<UInt8>, now: Instant) -> Output {
        var out = Output()
        let packet: DSUPacket
        do { packet = try DSUCodec.decode(datagram) } catch {
            drops.count(.decode(error))
            return out
        }
        guard packet.message.isFromServer else {
            drops.count(.wrongDirection)
            return out
        }
        if let id = serverID, id != packet.senderID {
            // A new server run (the app restarted): its counters start over.
            for i in slots.indices { slots[i].lastCounter = nil; slots[i].lastTimestamp = 0 }
        }
        serverID = packet.senderID
        switch packet.message {
        case .versionReply(let v):
            serverVersion = v
            out.events.append(.serverVersion(v))
        case .portInfo(let info):
            let i = Int(info.slot)
            if info.state != .connected, slots[i].connected { disconnect(i, timedOut: false, into: &out) }
        case .padData(let p):
            accept(p, now: now, into: &out)
        case .versionRequest, .portInfoRequest, .padDataRequest:
            break   // excluded by isFromServer
        }
        return out
    }

    private mutating func accept(_ p: DSUPadData, now: Instant, into out: inout Output) {
        let i = Int(p.info.slot)
        guard let sample = Self.sample(from: p, table: configuration.buttonTable) else {
            drops.count(.notFinite)   // DSU has no authentication: a NaN or infinity is refused, not fused
            return
        }
        if let last = slots[i].lastCounter {
            let ahead = Int32(bitPattern: p.packetCounter &- last)
            let sameCounterNewerMotion = ahead == 0 && p.motionTimestampMicros > slots[i].lastTimestamp
            guard ahead > 0 || sameCounterNewerMotion else {
                drops.count(.staleCounter)
                return
            }
        }
        slots[i].lastCounter = p.packetCounter
        slots[i].lastTimestamp = p.motionTimestampMicros
        accepted += 1
        guard p.isConnected, p.info.state == .connected else {
            if slots[i].connected { disconnect(i, timedOut: false, into: &out) }
            return
        }
        slots[i].lastPadDataAt = now
        slots[i].mac = p.info.mac
        if !slots[i].connected {
            slots[i].connected = true
            out.events.append(.slotConnected(p.info.slot))
        }
        out.events.append(.sample(slot: p.info.slot, sample))
    }

    /// The Remotion sample a pad-data reply stands for; nil when its gyro or accelerometer
    /// holds a NaN or an infinity (the UDP and web decoders refuse those too).
    package static func sample(from p: DSUPadData, table: DSUButtonTable) -> MotionSample? {
        let values = [p.gyro.pitch, p.gyro.yaw, p.gyro.roll, p.accel.x, p.accel.y, p.accel.z]
        guard values.allSatisfy(\.isFinite) else { return nil }
        return MotionSample(timestampMicros: p.motionTimestampMicros,
                     gyro: DSUAxes.remotionGyro(p.gyro),
                     acceleration: DSUAxes.remotionAccel(p.accel),
                     buttons: table.remotionButtons(for: p.buttons),
                     analog: DSUAxes.remotionAnalog(p),
                     touch: DSUAxes.remotionTouch(p))
    }

    private mutating func disconnect(_ i: Int, timedOut: Bool, into out: inout Output) {
        slots[i].connected = false
        slots[i].lastPadDataAt = nil
        slots[i].lastCounter = nil
        slots[i].lastTimestamp = 0
        out.events.append(.slotDisconnected(UInt8(i), timedOut: timedOut))
    }

    private func requests(includingVersion: Bool) -> [[UInt8]] {
        let id = configuration.clientID
        var d: [[UInt8]] = []
        if includingVersion { d.append(DSUCodec.encode(DSUPacket(senderID: id, message: .versionRequest))) }
        d.append(DSUCodec.encode(DSUPacket(senderID: id, message: .portInfoRequest(slots: [0, 1, 2, 3]))))
        d.append(DSUCodec.encode(DSUPacket(senderID: id, message: .padDataRequest(.allPads))))
        return d
    }
}
