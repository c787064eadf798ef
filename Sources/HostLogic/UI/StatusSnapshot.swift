import RemotionProtocol

/// Everything the host's status screen shows, captured at one moment. The host
/// builds a snapshot from its session table and hands it to the pure views.
package struct StatusSnapshot: Hashable, Sendable {
    package var host: HostStatus
    /// Controllers in display order (the views sort nothing themselves).
    package var controllers: [ControllerStatus]

    package init(host: HostStatus, controllers: [ControllerStatus] = []) {
        self.host = host
        self.controllers = controllers
    }
}

/// Where and how the host can be reached.
package struct HostStatus: Hashable, Sendable {
    /// Shown in the pixel-font banner (e.g. the machine's host name).
    package var name: String
    /// Addresses the host listens on, most useful first ("192.168.1.10", "fe80::1").
    package var addresses: [String]
    /// UDP port.
    package var port: UInt16
    /// Extra pairing / discovery help, e.g. "pairing code 4711" or "advertised as _remotion._udp".
    package var pairingHint: String?
    /// A phone pairing link and its QR code as terminal lines (half blocks), while a
    /// window is open: the welcome view shows both.
    package var phonePairing: PhonePairing?

    package struct PhonePairing: Hashable, Sendable {
        package var url: String
        package var qrLines: [String]
        package init(url: String, qrLines: [String]) { self.url = url; self.qrLines = qrLines }
    }
    /// The phone waiting to pair, shown at the top with its keys; nil: none.
    package var waitingPhone: WaitingPhonePrompt?
    /// The host's facts, shown inside the view (injector and why, dashboard, discovery, …).
    package var notes: [String]
    /// The last injected events or log messages (the view's own lines: nothing else may
    /// write to the terminal while it is open).
    package var recent: [String]

    package init(name: String, addresses: [String], port: UInt16, pairingHint: String? = nil,
                 notes: [String] = [], recent: [String] = []) {
        self.name = name
        self.addresses = addresses
        self.port = port
        self.pairingHint = pairingHint
        self.notes = notes
        self.recent = recent
    }

    /// "ADDR:PORT" for the first address ("[v6]:PORT" for IPv6), or nil without addresses.
    package var connectTarget: String? {
        addresses.first.map { Self.endpoint(address: $0, port: port) }
    }

    /// "ADDR:PORT", bracketing IPv6 literals.
    package static func endpoint(address: String, port: UInt16) -> String {
        address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
    }
}

/// Where a controller session is in its life.
package enum ControllerState: String, Hashable, Sendable, CaseIterable {
    case connecting, connected, closing
}

/// Link quality of one controller, measured by the host.
package struct LinkStats: Hashable, Sendable {
    package var packetsPerSecond: Double
    /// Lost datagrams in percent (0…100).
    package var lossPercent: Double
    /// Round-trip latency percentiles in milliseconds; nil until measured.
    package var latencyP50Millis: Double?
    package var latencyP99Millis: Double?

    package init(packetsPerSecond: Double = 0, lossPercent: Double = 0,
                latencyP50Millis: Double? = nil, latencyP99Millis: Double? = nil) {
        self.packetsPerSecond = packetsPerSecond
        self.lossPercent = lossPercent
        self.latencyP50Millis = latencyP50Millis
        self.latencyP99Millis = latencyP99Millis
    }
}

/// A position on the screen in pixels.
package struct ScreenPoint: Hashable, Sendable {
    package var x: Int
    package var y: Int
    package init(x: Int, y: Int) { self.x = x; self.y = y }
}

/// One controller as the status screen shows it.
package struct ControllerStatus: Hashable, Sendable {
    package var session: SessionID
    /// The controller's name: the name it paired under (untrusted: views strip control
    /// characters); empty when unknown (plain sessions), and then only the address shows.
    package var name: String
    /// The client's "ADDR:PORT".
    package var address: String
    package var state: ControllerState
    package var attitude: Attitude?
    /// Where the pointer this controller drives is, if it drives one.
    package var pointer: ScreenPoint?
    /// Controller buttons currently held.
    package var buttons: ButtonSet
    /// Mouse buttons and keys the host holds down for this controller.
    package var held: [HeldInput]
    package var link: LinkStats
    /// The active mapping's name, e.g. "pointer", "gamepad", "slides".
    package var mappingMode: String
    /// Gyro calibration, rest and clutch; nil for a controller that sent no gyro rates.
    package var gyro: GyroStatus?

    package init(session: SessionID, name: String, address: String, state: ControllerState,
                attitude: Attitude? = nil, pointer: ScreenPoint? = nil, buttons: ButtonSet = .none,
                held: [HeldInput] = [], link: LinkStats = LinkStats(), mappingMode: String = "pointer",
                gyro: GyroStatus? = nil) {
        self.session = session
        self.name = name
        self.address = address
        self.state = state
        self.attitude = attitude
        self.pointer = pointer
        self.buttons = buttons
        self.held = held.sorted()
        self.link = link
        self.mappingMode = mappingMode
        self.gyro = gyro
    }
}

extension HeldInput {
    /// "mouse:left", "key:Shift_L": the kind is part of the label, so the mouse button
    /// "left" and the arrow key "Left" never look alike (snapshots carry these labels).
    package var label: String {
        switch self {
        case .mouse(let b): "mouse:\(b)"
        case .key(let k): "key:\(k.name)"
        }
    }

    /// Parses `label`; nil for anything else.
    package init?(label: String) {
        if label.hasPrefix("mouse:"), let b = MouseButton(name: String(label.dropFirst(6))) {
            self = .mouse(b)
        } else if label.hasPrefix("key:"), let k = Key(name: String(label.dropFirst(4))) {
            self = .key(k)
        } else {
            return nil
        }
    }
}
