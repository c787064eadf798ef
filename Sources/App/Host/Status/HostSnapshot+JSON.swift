import RemotionProtocol
import RemotionHostLogic

// The snapshot's JSON, used only at the edges (the dashboard's API and WebSocket, tests
// that read them). The shape is the dashboard's (docs/DASHBOARD.md): the session as hex,
// the state as a word, attitude [roll, pitch, yaw] in radians, pointer and trail points
// as [x, y], buttons as their letters ("AB"), held inputs as labels ("mouse:left").

extension HostSnapshot: Codable {
    private enum Keys: String, CodingKey {
        case hostName, listen, injector, settings, controllers, drops, uptime, dashboardRefusals, localPads
        case focusedApp, profiles
        case outputs
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init()
        hostName = try c.decode(String.self, forKey: .hostName)
        listen = try c.decode(String.self, forKey: .listen)
        injector = try c.decode(String.self, forKey: .injector)
        settings = try c.decode(MappingSettings.self, forKey: .settings)
        controllers = try c.decode([ControllerSnapshot].self, forKey: .controllers)
        for (key, n) in try c.decode([String: Int].self, forKey: .drops) {
            guard let drop = HostDrop(key: key) else {
                throw DecodingError.dataCorruptedError(forKey: .drops, in: c, debugDescription: "no drop is called \(key)")
            }
            drops[drop, default: 0] += n
        }
        uptime = try c.decode(Double.self, forKey: .uptime)
        dashboardRefusals = try c.decodeIfPresent([String: Int].self, forKey: .dashboardRefusals) ?? [:]
        localPads = try c.decodeIfPresent(LocalPadInventory.self, forKey: .localPads)
        focusedApp = try c.decodeIfPresent(String.self, forKey: .focusedApp)
        profiles = try c.decodeIfPresent([ProfileSummary].self, forKey: .profiles) ?? []
        outputs = try c.decodeIfPresent(PointerOutputs.self, forKey: .outputs)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(hostName, forKey: .hostName)
        try c.encode(listen, forKey: .listen)
        try c.encode(injector, forKey: .injector)
        try c.encode(settings, forKey: .settings)
        try c.encode(controllers, forKey: .controllers)
        try c.encode(Dictionary(drops.map { ($0.key.key, $0.value) }, uniquingKeysWith: +), forKey: .drops)
        try c.encode(uptime, forKey: .uptime)
        try c.encode(dashboardRefusals, forKey: .dashboardRefusals)
        try c.encodeIfPresent(localPads, forKey: .localPads)
        try c.encode(focusedApp, forKey: .focusedApp)
        try c.encode(profiles, forKey: .profiles)
        try c.encode(outputs, forKey: .outputs)
    }
}

extension ControllerSnapshot: Codable {
    private enum Keys: String, CodingKey {
        case session, name, address, state, attitude, pointer, buttons, held, packetRate, lossPercent
        case latencyP50Ms, latencyP99Ms, latencyHistogram, motionPackets, buttonEdges, trail, note, gyro
        case sampleTimestampMicros, sampleHostMicros, sampleAgeMs, mode, pad, profile
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let hex = try c.decode(String.self, forKey: .session)
        guard let raw = UInt32(hex, radix: 16) else {
            throw DecodingError.dataCorruptedError(forKey: .session, in: c, debugDescription: "not a session id: \(hex)")
        }
        self.init(session: SessionID(raw), address: try c.decode(String.self, forKey: .address))
        name = try c.decodeIfPresent(String.self, forKey: .name) ?? ""
        state = ControllerState(rawValue: try c.decode(String.self, forKey: .state)) ?? .connected
        attitude = try c.decodeIfPresent([Double].self, forKey: .attitude).flatMap { a in
            a.count == 3 ? Attitude(roll: a[0], pitch: a[1], yaw: a[2]) : nil
        }
        pointer = try c.decodeIfPresent([Int].self, forKey: .pointer).flatMap(Self.point)
        buttons = ButtonSet(try c.decode(String.self, forKey: .buttons).compactMap { Button(letter: String($0)) })
        held = try c.decode([String].self, forKey: .held).compactMap(HeldInput.init(label:))
        packetRate = try c.decode(Double.self, forKey: .packetRate)
        lossPercent = try c.decode(Double.self, forKey: .lossPercent)
        latencyP50Ms = try c.decodeIfPresent(Double.self, forKey: .latencyP50Ms)
        latencyP99Ms = try c.decodeIfPresent(Double.self, forKey: .latencyP99Ms)
        latencyHistogram = try c.decode([Int].self, forKey: .latencyHistogram)
        motionPackets = try c.decode(Int.self, forKey: .motionPackets)
        buttonEdges = try c.decode(Int.self, forKey: .buttonEdges)
        trail = try c.decode([[Int]].self, forKey: .trail).compactMap(Self.point)
        note = try c.decodeIfPresent(String.self, forKey: .note)
        gyro = try c.decodeIfPresent(GyroStatus.self, forKey: .gyro)
        sampleTimestampMicros = try c.decodeIfPresent(UInt64.self, forKey: .sampleTimestampMicros)
        sampleHostMicros = try c.decodeIfPresent(UInt64.self, forKey: .sampleHostMicros)
        sampleAgeMs = try c.decodeIfPresent(Double.self, forKey: .sampleAgeMs)
        mode = try c.decodeIfPresent(String.self, forKey: .mode).flatMap(MappingSettings.Mode.init(rawValue:)) ?? .pointer
        pad = try c.decodeIfPresent(Bool.self, forKey: .pad)
        profile = try c.decodeIfPresent(String.self, forKey: .profile)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode("\(session)", forKey: .session)
        try c.encode(name, forKey: .name)
        try c.encode(address, forKey: .address)
        try c.encode(state.rawValue, forKey: .state)
        try c.encode(attitude.map { [$0.roll, $0.pitch, $0.yaw] }, forKey: .attitude)
        try c.encode(pointer.map { [$0.x, $0.y] }, forKey: .pointer)
        try c.encode(buttons.buttons.map(\.letter).joined(), forKey: .buttons)
        try c.encode(held.map(\.label), forKey: .held)
        try c.encode(packetRate, forKey: .packetRate)
        try c.encode(lossPercent, forKey: .lossPercent)
        try c.encode(latencyP50Ms, forKey: .latencyP50Ms)
        try c.encode(latencyP99Ms, forKey: .latencyP99Ms)
        try c.encode(latencyHistogram, forKey: .latencyHistogram)
        try c.encode(motionPackets, forKey: .motionPackets)
        try c.encode(buttonEdges, forKey: .buttonEdges)
        try c.encode(trail.map { [$0.x, $0.y] }, forKey: .trail)
        try c.encodeIfPresent(note, forKey: .note)
        try c.encodeIfPresent(gyro, forKey: .gyro)
        try c.encode(sampleTimestampMicros, forKey: .sampleTimestampMicros)
        try c.encode(sampleHostMicros, forKey: .sampleHostMicros)
        try c.encode(sampleAgeMs, forKey: .sampleAgeMs)
        try c.encode(mode.rawValue, forKey: .mode)
        try c.encode(pad, forKey: .pad)
        try c.encode(profile, forKey: .profile)
    }

    private static func point(_ p: [Int]) -> ScreenPoint? { p.count == 2 ? ScreenPoint(x: p[0], y: p[1]) : nil }
}
