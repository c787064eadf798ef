import RemotionProtocol
import RemotionHostLogic

extension StatusSnapshot {
    /// The terminal view's model, from the snapshot the host's loop published (typed
    /// values copied across: nothing is parsed back from text).
    package init(_ snapshot: HostSnapshot, addresses: [String], port: Int, pairingHint: String? = nil,
                 phonePairing: HostStatus.PhonePairing? = nil, notes: [String] = [], recent: [String] = []) {
        var host = HostStatus(name: snapshot.hostName, addresses: addresses, port: UInt16(clamping: port),
                              pairingHint: pairingHint, notes: notes + (snapshot.localPads?.lines ?? []) + snapshot.profileLines,
                              recent: recent)
        host.phonePairing = phonePairing
        self.init(host: host, controllers: snapshot.controllers.map(ControllerStatus.init))
    }
}

extension HostSnapshot {
    /// The terminal view's lines about `[[profile]]`: each profile (its app, the kind it is
    /// for, the mode it sets) and the application with the focus; none without profiles.
    /// Names from the desktop are sanitized like every line a person reads.
    package var profileLines: [String] {
        guard !profiles.isEmpty else { return [] }
        let list = profiles.map { p in
            TextFormat.sanitize(p.app) + ([p.controller, p.mode].compactMap { $0 }.isEmpty ? ""
                : " (" + [p.controller, p.mode].compactMap { $0 }.joined(separator: ", ") + ")")
        }
        let focused = focusedApp.map { TextFormat.sanitize(String($0.prefix(64))) } ?? "none"
        let using = controllers.filter { $0.profile != nil }.count
        return ["profiles: " + list.joined(separator: "; "),
                "focused app: \(focused)" + (using > 0 ? " (its profile in force for \(using) of \(controllers.count) controllers)" : "")]
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
