import RemotionProtocol
import RemotionHostLogic

/// A DSU server the host reads controllers from (`--dsu-source`): the host's
/// `DSUSourceStateMachine` for it, and the sessions of its slots.
package struct DSUSourcePeer {
    package let server: PeerAddress
    var source: DSUSourceStateMachine
    /// Each connected slot's session.
    package internal(set) var sessions: [UInt8: SessionID] = [:]
    /// Slots refused while the host was full, and when they were last tried (retried every second).
    var waiting: [UInt8: Instant] = [:]
    /// The server's packet counter per slot (its pad data's).
    var counters: [UInt32] = [0, 0, 0, 0]
}

extension EnginePair {
    /// The host starts reading the DSU server at `server`: its first requests go out.
    @discardableResult
    package func addDSUServer(at server: PeerAddress) -> Int {
        var peer = DSUSourcePeer(server: server, source: DSUSourceStateMachine(configuration: .init(clientID: 0x5041)))
        let out = peer.source.start(now: now)
        dsuSources.append(peer)
        dsuDeliver(dsuSources.count - 1, out)
        return dsuSources.count - 1
    }

    /// One datagram from DSU server `k`, as the host's DSU socket reads it.
    package func dsuDatagram(_ k: Int, _ bytes: [UInt8]) {
        let out = dsuSources[k].source.receive(bytes, now: now)
        dsuDeliver(k, out)
    }

    /// DSU server `k`'s pad data for `slot`: the next packet counter, the pad connected
    /// unless `connected` is false, its motion at `timestampMicros` on the server's clock.
    package func dsuPad(_ k: Int, slot: UInt8, timestampMicros: UInt64, gyro: DSUGyro = .zero, accel: DSUAccel = .zero,
                        buttons: DSUButtons = .none, connected: Bool = true) {
        let i = Int(slot) % 4
        dsuSources[k].counters[i] &+= 1
        dsuDatagram(k, Self.dsuPadData(slot: slot, counter: dsuSources[k].counters[i], timestampMicros: timestampMicros,
                                       gyro: gyro, accel: accel, buttons: buttons, connected: connected))
    }

    /// A pad-data packet as a DSU server sends it.
    package static func dsuPadData(slot: UInt8, counter: UInt32, timestampMicros: UInt64, gyro: DSUGyro = .zero,
                                   accel: DSUAccel = .zero, buttons: DSUButtons = .none, connected: Bool = true,
                                   sticks: (UInt8, UInt8, UInt8, UInt8) = (128, 128, 128, 128)) -> [UInt8] {
        let info = DSUSlotInfo(slot: slot, state: connected ? .connected : .disconnected, model: .fullGyro,
                               connection: .bluetooth, mac: DSUMAC(rawValue: 0x02_0000_0000_10 + UInt64(slot)),
                               battery: .notApplicable)
        var pad = DSUPadData(info: info, isConnected: connected, packetCounter: counter,
                             leftStickX: sticks.0, leftStickY: sticks.1, rightStickX: sticks.2, rightStickY: sticks.3,
                             analog: DSUAnalogButtons(digital: buttons), motionTimestampMicros: timestampMicros,
                             accel: accel, gyro: gyro)
        pad.buttons = buttons
        return DSUCodec.encode(DSUPacket(senderID: 0xD5, message: .padData(pad)))
    }

    /// The host stops reading DSU server `k`: every slot's session closes.
    package func removeDSUServer(_ k: Int) {
        for slot in dsuSources[k].sessions.keys.sorted() { dsuClose(k, slot, reason: .clientDisconnected(.user)) }
        dsuSources[k].waiting = [:]
    }

    /// The source machine's output performed as the host's DSU handler does: events into
    /// the engine (a slot's session opened, its samples, closed), requests to the server.
    func dsuDeliver(_ k: Int, _ out: DSUSourceStateMachine.Output) {
        for event in out.events {
            switch event {
            case .slotConnected(let slot):
                dsuOpen(k, slot)
            case let .sample(slot, sample):
                if dsuSources[k].sessions[slot] == nil, let tried = dsuSources[k].waiting[slot], now - tried >= .seconds(1) {
                    dsuOpen(k, slot)
                }
                guard let id = dsuSources[k].sessions[slot] else { continue }
                let latency = DSUSampleLatency.micros(timestampMicros: sample.timestampMicros, now: now, fromLoopback: true)
                engine.perform(.motion(sample, latencyMicros: latency), for: id, screen: Self.screen, now: now, into: &pending)
                route()
            case let .slotDisconnected(slot, timedOut):
                dsuSources[k].waiting[slot] = nil
                dsuClose(k, slot, reason: timedOut ? .timedOut : .clientDisconnected(.user))
            case .serverVersion:
                break
            }
        }
        for datagram in out.datagrams {
            counts.toDSUServer += 1
            record(.toDSUServer(k, datagram))
        }
    }

    private func dsuOpen(_ k: Int, _ slot: UInt8) {
        guard dsuSources[k].sessions[slot] == nil else { return }
        let origin = ControllerOrigin<Address>.dsu(server: dsuSources[k].server, slot: slot)
        guard let id = engine.open(from: origin, name: "dsu slot \(slot)", screen: Self.screen, now: now,
                                   random: &random, into: &pending) else {
            dsuSources[k].waiting[slot] = now
            return
        }
        dsuSources[k].waiting[slot] = nil
        dsuSources[k].sessions[slot] = id
        route()
    }

    private func dsuClose(_ k: Int, _ slot: UInt8, reason: SessionCloseReason) {
        guard let id = dsuSources[k].sessions.removeValue(forKey: slot) else { return }
        engine.perform(.close(reason), for: id, screen: Self.screen, now: now, into: &pending)
        route()
    }
}
