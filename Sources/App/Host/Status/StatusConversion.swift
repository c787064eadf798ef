import RemotionProtocol
import RemotionHostLogic

extension StatusSnapshot {
    /// The terminal view's model, from the snapshot the host's loop published (typed
    /// values copied across: nothing is parsed back from text).
    package init(_ snapshot: HostSnapshot, addresses: [String], port: Int, pairingHint: String? = nil,
                 phonePairing: HostStatus.PhonePairing? = nil, notes: [String] = [], recent: [String] = []) {
        var host = HostStatus(name: snapshot.hostName, addresses: addresses, port: UInt16(clamping: port),
                              pairingHint: pairingHint, notes: notes + (snapshot.localPads?.lines ?? []), recent: recent)
        host.phonePairing = phonePairing
        self.init(host: host, controllers: snapshot.controllers.map(ControllerStatus.init))
    }
}

extension ControllerStatus {
    init(_ c: ControllerSnapshot) {
        self.init(session: c.session, name: c.name, address: c.address, state: c.state, attitude: c.attitude,
                  pointer: c.pointer, buttons: c.buttons, held: c.held,
                  link: LinkStats(packetsPerSecond: c.packetRate, lossPercent: c.lossPercent,
                                  latencyP50Millis: c.latencyP50Ms, latencyP99Millis: c.latencyP99Ms),
                  mappingMode: c.mode.rawValue, gyro: c.gyro)
    }
}
