import RemotionProtocol
import RemotionHostLogic

extension StatusSnapshot {
    /// The terminal view's model, from the snapshot the host's loop published.
    package init(_ snapshot: HostSnapshot, addresses: [String], port: Int, pairingHint: String? = nil,
                 phonePairing: HostStatus.PhonePairing? = nil, notes: [String] = [], recent: [String] = []) {
        var host = HostStatus(name: snapshot.hostName, addresses: addresses, port: UInt16(clamping: port),
                              pairingHint: pairingHint, notes: notes, recent: recent)
        host.phonePairing = phonePairing
        self.init(host: host, controllers: snapshot.controllers.map { ControllerStatus($0, mode: snapshot.settings.mode.rawValue) })
    }
}

extension ControllerStatus {
    init(_ c: ControllerSnapshot, mode: String) {
        let attitude = c.attitude.flatMap { a in a.count == 3 ? Attitude(roll: a[0], pitch: a[1], yaw: a[2]) : nil }
        let pointer = c.pointer.flatMap { p in p.count == 2 ? ScreenPoint(x: p[0], y: p[1]) : nil }
        let held = c.held.compactMap(HeldInput.init(label:))
        self.init(session: SessionID(UInt32(c.session, radix: 16) ?? 0), name: c.name, address: c.address,
                  state: c.state == "connected" ? .connected : .connecting, attitude: attitude, pointer: pointer,
                  buttons: ButtonSet(c.buttons.compactMap { Button(letter: String($0)) }), held: held,
                  link: LinkStats(packetsPerSecond: c.packetRate, lossPercent: c.lossPercent,
                                  latencyP50Millis: c.latencyP50Ms, latencyP99Millis: c.latencyP99Ms),
                  mappingMode: mode, gyro: c.gyro)
    }
}
