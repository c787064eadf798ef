import RemotionProtocol

/// Remotion as a DSU *server*: serves up to four of its controllers to emulators
/// (Dolphin, Cemu, yuzu forks, …). Sans-IO and generic over the adapter's address type
/// (e.g. NIO's `SocketAddress`) and the controller id (e.g. `SessionID`).
///
/// - Slots 0–3 are filled in connect order (`attach`); `detach` frees a slot, and the
///   next `attach` takes the lowest free one.
/// - Requests from any number of clients (`receive`): a version request is answered
///   with 1001; a port-info request with one 32-byte reply per listed slot (an empty
///   slot reports its number with state 0 — never 12 zero bytes, which Dolphin would
///   read as slot 0); a pad-data request records a subscription (all, by slot, by
///   MAC; also for slots not yet filled), alive while its latest request is under
///   `subscriptionLifetime` (5 s) old.
/// - `update(_:sample:now:)` builds one pad-data packet for the controller's slot —
///   per-slot counter + 1 (kept across controllers), sample timestamp, gyro and accelerometer converted by
///   `DSUAxes` — and returns it for every client subscribed to that slot.
/// - A controller without gyro rates gets them from attitude deltas over the sample
///   timestamps; without an accelerometer it reports gravity at its attitude, or
///   (0, 0, −1) g (flat) when it has no attitude either.
/// - The protocol has no authentication: the adapter binds 127.0.0.1 unless the user
///   asks otherwise. `maxClients` bounds memory against address floods.
package struct DSUServerStateMachine<Address: Hashable & Sendable, ControllerID: Hashable & Sendable>: Sendable {
    package struct Configuration: Hashable, Sendable {
        package var serverID: UInt32
        package var subscriptionLifetime: Duration = .seconds(5)
        package var maxClients = 16
        package var maxMACsPerClient = 8
        package var buttonTable: DSUButtonTable = .default
        package var connection: DSUConnectionType = .bluetooth
        package var battery: DSUBattery = .notApplicable

        package init(serverID: UInt32, subscriptionLifetime: Duration = .seconds(5), maxClients: Int = 16,
                     maxMACsPerClient: Int = 8, buttonTable: DSUButtonTable = .default) {
            self.serverID = serverID; self.subscriptionLifetime = subscriptionLifetime
            self.maxClients = maxClients; self.maxMACsPerClient = maxMACsPerClient
            self.buttonTable = buttonTable
        }
    }

    /// One datagram to send.
    package struct Outgoing: Hashable, Sendable {
        package var to: Address
        package var bytes: [UInt8]
    }

    package private(set) var configuration: Configuration
    package private(set) var drops = DSUDropCounters()
    private var slots: [DSUServedSlot<ControllerID>?] = Array(repeating: nil, count: DSU.slotCount)
    private var clients: [Address: DSUClientSubscription] = [:]
    /// Per-slot packet counters. They outlive the controller in the slot, so a client
    /// that drops older counters keeps accepting a slot after it changes hands.
    private var counters = [UInt32](repeating: 0, count: DSU.slotCount)

    package init(configuration: Configuration) { self.configuration = configuration }

    // MARK: controllers

    /// Gives `controller` the lowest free slot (or its current one); nil when all four
    /// are taken. `mac` identifies it to clients that subscribe by MAC; the default is
    /// the locally administered 02:52:4d:00:00:0N (N = slot + 1).
    package mutating func attach(_ controller: ControllerID, mac: DSUMAC? = nil) -> UInt8? {
        if let s = slot(of: controller) { return s }
        guard let free = slots.firstIndex(where: { $0 == nil }) else { return nil }
        let id = mac ?? DSUMAC(rawValue: 0x02_52_4D_00_00_00 | UInt64(free + 1))
        slots[free] = DSUServedSlot(controller: controller, mac: id)
        return UInt8(free)
    }

    /// Frees the controller's slot; returns it (nil if it had none).
    @discardableResult
    package mutating func detach(_ controller: ControllerID) -> UInt8? {
        guard let s = slot(of: controller) else { return nil }
        slots[Int(s)] = nil
        return s
    }

    package func slot(of controller: ControllerID) -> UInt8? {
        slots.firstIndex { $0?.controller == controller }.map { UInt8($0) }
    }

    package func slotInfo(_ slot: UInt8) -> DSUSlotInfo {
        guard Int(slot) < DSU.slotCount, let s = slots[Int(slot)] else { return .empty(slot: slot) }
        return DSUSlotInfo(slot: slot, state: .connected, model: .fullGyro,
                           connection: configuration.connection, mac: s.mac, battery: configuration.battery)
    }

    /// The pad-data packets for one controller sample: the same bytes for each client
    /// subscribed to the controller's slot. Empty if it has no slot or nobody listens
    /// (the counter still advances, so clients see the gap).
    package mutating func update(_ controller: ControllerID, sample: MotionSample, now: Instant) -> [Outgoing] {
        guard let s = slot(of: controller), var served = slots[Int(s)] else { return [] }
        counters[Int(s)] &+= 1
        let gyro = served.gyro(for: sample)
        let accel = DSUServedSlot<ControllerID>.acceleration(for: sample)
        slots[Int(s)] = served
        let targets = subscribers(slot: s, mac: served.mac, now: now)
        guard !targets.isEmpty else { return [] }
        let buttons = configuration.buttonTable.dsuButtons(for: sample.buttons)
        var pad = DSUPadData(info: slotInfo(s), isConnected: true, packetCounter: counters[Int(s)],
                             analog: DSUAnalogButtons(digital: buttons),
                             motionTimestampMicros: sample.timestampMicros,
                             accel: DSUAxes.dsuAccel(accel).physical, gyro: DSUAxes.dsuGyro(gyro).physical)
        pad.buttons = buttons
        // The controller's own sticks and triggers (the page's Gamepad mode, `--analog`, a pad).
        if let analog = sample.analog { DSUAxes.apply(analog, to: &pad) }
        // Its touchpad's fingers (a DSU source's, a pad's).
        if let touch = sample.touch { DSUAxes.apply(touch, to: &pad) }
        let bytes = DSUCodec.encode(DSUPacket(senderID: configuration.serverID, message: .padData(pad)))
        return targets.map { Outgoing(to: $0, bytes: bytes) }
    }

    // MARK: clients

    /// Clients with a live subscription (any rule).
    package func liveClients(now: Instant) -> [Address] {
        clients.compactMap { addr, sub in
            sub.lastRequest.map { now - $0 < configuration.subscriptionLifetime } == true ? addr : nil
        }
    }

    package func subscribers(slot: UInt8, mac: DSUMAC, now: Instant) -> [Address] {
        clients.compactMap { addr, sub in
            sub.wants(slot: slot, mac: mac, now: now, lifetime: configuration.subscriptionLifetime) ? addr : nil
        }
    }

    /// One datagram from a client; returns the replies.
    package mutating func receive(_ datagram: some Collection<UInt8>, from address: Address,
                                  now: Instant) -> [Outgoing] {
        let packet: DSUPacket
        do { packet = try DSUCodec.decode(datagram) } catch {
            drops.count(.decode(error))
            return []
        }
        let id = configuration.serverID
        switch packet.message {
        case .versionRequest:
            return [Outgoing(to: address, bytes: DSUCodec.encode(DSUPacket(senderID: id, message: .versionReply(DSU.version))))]
        case .portInfoRequest(let requested):
            return requested.map {
                Outgoing(to: address, bytes: DSUCodec.encode(DSUPacket(senderID: id, message: .portInfo(slotInfo($0)))))
            }
        case .padDataRequest(let r):
            subscribe(address, r, now: now)
            return []
        case .versionReply, .portInfo, .padData:
            drops.count(.wrongDirection)
            return []
        }
    }

    private mutating func subscribe(_ address: Address, _ r: DSUPadRequest, now: Instant) {
        if clients[address] == nil {
            expireClients(now: now)
            guard clients.count < configuration.maxClients else {
                drops.count(.tooManyClients)
                return
            }
        }
        var sub = clients[address] ?? DSUClientSubscription()
        if !sub.record(r, now: now, lifetime: configuration.subscriptionLifetime,
                       maxMACs: configuration.maxMACsPerClient) {
            drops.count(.tooManyMACs)
        }
        clients[address] = sub
    }

    /// Forgets clients whose every rule has expired.
    package mutating func expireClients(now: Instant) {
        let lifetime = configuration.subscriptionLifetime
        clients = clients.filter { _, sub in sub.lastRequest.map { now - $0 < lifetime } ?? false }
        for k in clients.keys { clients[k]?.expire(now: now, lifetime: lifetime) }
    }

    /// Housekeeping: expires clients. Call at `nextDeadline`.
    package mutating func tick(now: Instant) { expireClients(now: now) }

    /// When the oldest live client would expire (nil without clients).
    package var nextDeadline: Instant? {
        clients.values.compactMap { $0.lastRequest.map { $0 + configuration.subscriptionLifetime } }.min()
    }
}
