import Foundation
import RemotionProtocol

/// The web controller's JSON text frames (docs/WEB-CONTROLLER.md, "Protocol").
package enum WebClientMessage: Sendable, Equatable {
    case hello(version: Int, id: String, credential: String)
    /// The first message of a second WebSocket, the motion lane: the same device credential
    /// and the label of the session (its welcome's `session`) it joins.
    case lane(version: Int, id: String, credential: String, session: String)
    case recenter
    case mode(MappingSettings.Mode)
    /// Give this controller a virtual pad (true) or take it away: the page's Gamepad mode.
    case pad(Bool)
    /// This controller's gyro as a pad stick (`gyro_stick.target`), chosen on its page.
    case gyroStick(GyroStickSettings.Target)
    /// A manual gyro calibration of this controller (its page's Calibrate).
    case calibrate

    /// The most a text frame from the page may hold.
    package static let maxLength = 1024

    private struct Wire: Decodable {
        var type: String
        var v: Int?
        var id: String?
        var credential: String?
        var command: String?
        var mode: String?
        var session: String?
        var on: Bool?
        var target: String?
    }

    /// Parses one text frame; nil (never a crash) when it is not a message this host knows.
    package static func parse(_ text: String) -> WebClientMessage? {
        guard text.utf8.count <= maxLength,
              let wire = try? JSONDecoder().decode(Wire.self, from: Data(text.utf8)) else { return nil }
        switch wire.type {
        case "hello":
            guard let id = wire.id, let credential = wire.credential, id.count <= 64, credential.count <= 128 else { return nil }
            return .hello(version: wire.v ?? 1, id: id, credential: credential)
        case "lane":
            guard let id = wire.id, let credential = wire.credential, let session = wire.session,
                  id.count <= 64, credential.count <= 128, session.count <= 16 else { return nil }
            return .lane(version: wire.v ?? 1, id: id, credential: credential, session: session)
        case "command":
            switch wire.command {
            case "recenter": return .recenter
            case "calibrate": return .calibrate
            case "mode":
                guard let m = wire.mode.flatMap(MappingSettings.Mode.init(rawValue:)), m != .seed else { return nil }
                return .mode(m)
            case "pad":
                guard let on = wire.on else { return nil }
                return .pad(on)
            case "gyro-stick":
                guard let t = wire.target.flatMap(GyroStickSettings.Target.init(rawValue:)) else { return nil }
                return .gyroStick(t)
            default: return nil
            }
        default: return nil
        }
    }
}

/// What the host says to the page.
package enum WebHostMessage: Sendable, Equatable {
    case welcome(host: String, session: SessionID, mode: MappingSettings.Mode, timeout: Double, name: String)
    case refused(reason: String, message: String)
    case mode(MappingSettings.Mode)
    case closing(reason: String, message: String)
    /// A motion lane joined its session.
    case lane(session: String)
    /// The answer to a pad command: whether this controller has a virtual pad now, and
    /// whether the host makes pads at all (`--gamepad`).
    case pad(on: Bool, available: Bool)
    /// The answer to a gyro-stick command: the target in effect for this controller.
    case gyroStick(GyroStickSettings.Target)
    /// Rumble (0…255 each: the heavy motor, the light one) and the light's colour, from a
    /// game writing to this controller's virtual pad (docs/GAMEPAD.md "Rumble and lightbar").
    case feedback(ControllerFeedback)
    /// A manual calibration of this controller: started or running (its progress, 0 … 1),
    /// done, failed because it moved, or not available (docs/WEB-CONTROLLER.md, "Calibrate").
    case calibration(CalibrationReport)
    /// The `[[profile]]` in force for this controller changed (the focus moved): its app (nil:
    /// none) and the mode in force, whether the profile sets it. Versioned (`v`: 1); an older
    /// page passes a type it does not know by.
    case profile(ProfileInForce)

    /// What the host tells the page unasked (`ControllerNotice`), as a message.
    package init(_ notice: ControllerNotice) {
        switch notice {
        case .feedback(let f): self = .feedback(f)
        case .calibration(let c): self = .calibration(c)
        case .profile(let p): self = .profile(p)
        }
    }

    package var text: String {
        func q(_ s: String) -> String { JSONText.quote(s) }
        switch self {
        case let .welcome(host, session, mode, timeout, name):
            return "{\"type\":\"welcome\",\"host\":\(q(host)),\"session\":\(q(session.description)),\"mode\":\(q(mode.rawValue)),\"timeout\":\(timeout),\"name\":\(q(name))}"
        case let .refused(reason, message):
            return "{\"type\":\"refused\",\"reason\":\(q(reason)),\"message\":\(q(message))}"
        case let .mode(mode):
            return "{\"type\":\"mode\",\"mode\":\(q(mode.rawValue))}"
        case let .closing(reason, message):
            return "{\"type\":\"closing\",\"reason\":\(q(reason)),\"message\":\(q(message))}"
        case let .lane(session):
            return "{\"type\":\"lane\",\"session\":\(q(session))}"
        case let .gyroStick(target):
            return "{\"type\":\"gyro-stick\",\"target\":\(q(target.rawValue))}"
        case let .pad(on, available):
            return "{\"type\":\"pad\",\"on\":\(on),\"available\":\(available)}"
        case let .feedback(f):
            let light = f.lightbar.map { q($0.hex) } ?? "null"
            return "{\"type\":\"feedback\",\"rumble\":[\(f.rumbleLow),\(f.rumbleHigh)],\"lightbar\":\(light)}"
        case let .profile(p):
            let app = p.app.map(q) ?? "null"
            return "{\"type\":\"profile\",\"v\":1,\"app\":\(app),\"mode\":\(q(p.mode.rawValue)),\"sets_mode\":\(p.setsMode)}"
        case let .calibration(report):
            switch report {
            case .running(let p):
                let percent = p.isFinite ? Int((Swift.min(Swift.max(p, 0), 1) * 100).rounded(.down)) : 0
                return "{\"type\":\"calibration\",\"state\":\"running\",\"progress\":\(Double(percent) / 100)}"
            case .done:
                return "{\"type\":\"calibration\",\"state\":\"done\",\"progress\":1}"
            case .moved:
                return "{\"type\":\"calibration\",\"state\":\"failed\",\"reason\":\"moved\"}"
            case .unavailable(let why):
                return "{\"type\":\"calibration\",\"state\":\"unavailable\",\"reason\":\(q(why.rawValue))}"
            }
        }
    }
}

/// Estimates (host clock − page clock) from the page's pings, so sample timestamps
/// become one-way latencies. Each ping gives hostReceive − pageSend − rtt/2; the
/// median of the last few rejects a ping delayed by a hiccup.
package struct WebClockOffset: Sendable {
    private var estimates: [Double] = []
    package static let window = 9

    package init() {}

    /// A ping that left the page at `pageTimeMillis` arrived now; `rttMillis` is the
    /// page's current round-trip estimate (nil before it has one).
    package mutating func ping(pageTimeMillis: Double, rttMillis: Double?, hostNowMillis: Double) {
        estimates.append(hostNowMillis - pageTimeMillis - (rttMillis ?? 0) / 2)
        if estimates.count > Self.window { estimates.removeFirst() }
    }

    /// host − page, milliseconds; nil before the first ping.
    package var offsetMillis: Double? {
        guard !estimates.isEmpty else { return nil }
        return estimates.sorted()[estimates.count / 2]
    }

    /// The one-way latency of a sample taken at `sampleMillis` (page clock) and handled
    /// at `hostNowMillis` (host clock), in microseconds; nil before the first ping (no
    /// estimate yet) or when it is not plausible (HostStateMachine.plausibleLatency, the
    /// one rule every transport's latency passes).
    package func latencyMicros(sampleMillis: Double, hostNowMillis: Double) -> Int64? {
        guard let offset = offsetMillis else { return nil }
        let v = (hostNowMillis - (sampleMillis + offset)) * 1000
        guard v.isFinite, abs(v) < 1e15 else { return nil }
        return HostStateMachine<String>.plausibleLatency(Int64(v))
    }
}
