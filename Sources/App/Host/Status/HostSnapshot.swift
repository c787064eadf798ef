import RemotionProtocol
import RemotionHostLogic

/// What the host shows about itself and its controllers, in the host's own types: read
/// by the terminal view, the dashboard and the status lines (`--json`, a piped host),
/// written by the host's loop (through `SnapshotBuilder`) while one of them holds a lease
/// (`SnapshotPublisher`). JSON exists only at those edges (HostSnapshot+JSON.swift);
/// readers copy a value, they never wait for the loop (one that arrives asks it once for a
/// fresh snapshot).
package struct HostSnapshot: Sendable, Equatable {
    package var hostName: String = ""
    package var listen: String = ""
    package var injector: String = ""
    package var settings = MappingSettings()
    package var controllers: [ControllerSnapshot] = []
    /// What the host dropped, by typed reason and where (JSON: "drops", keyed by `HostDrop.key`).
    package var drops: [HostDrop: Int] = [:]
    /// The gamepads on this computer `--local-pads` reads and the nodes it skips, with why
    /// (nil: the host was not asked to read them).
    package var localPads: LocalPadInventory?
    /// Seconds since the host started.
    package var uptime: Double = 0
    /// Dashboard requests refused (wrong Host or Origin, not JSON), by reason.
    package var dashboardRefusals: [String: Int] = [:]
    /// The application with the desktop's focus as the focus watcher last said (its WM_CLASS
    /// instance or app_id; nil: none, or no watcher), and the `[[profile]]`s in file order.
    package var focusedApp: String?
    package var profiles: [ProfileSummary] = []
    /// The outputs the injector knows (name, place, size, scale), the one asked for and the one
    /// the pointer covers, and whether `--output` decides; nil: the injector has no outputs and
    /// absolute motion covers the whole screen (docs/INJECTION.md, "Choosing the output").
    package var outputs: PointerOutputs?
    package init() {}
}

/// One `[[profile]]` as the views list it (docs/MOTION.md, "Profiles").
package struct ProfileSummary: Sendable, Equatable, Codable {
    package var app: String
    /// The kind of controller it is limited to (nil: every one).
    package var controller: String?
    /// The mode it sets (nil: it leaves the mode alone).
    package var mode: String?
    /// Its line in the config file (0: not in a file).
    package var line: Int
    /// Its entries in order as written (`[mapping]` keys, button letters, `pad`): what the
    /// dashboard's editor shows and sends back (`ProfileDraft`).
    package var entries: [ProfileDraft.Entry]

    package init(_ profile: FocusProfile) {
        app = profile.app
        controller = profile.controller?.rawValue
        mode = profile.mapping.last { $0.key == "mode" }?.value
        line = profile.line
        entries = profile.draft.entries
    }
}

/// One controller at one moment.
package struct ControllerSnapshot: Sendable, Equatable {
    package var session: SessionID
    /// The name it paired under, or its transport's ("DSU slot 0"); "" when unknown.
    package var name: String = ""
    package var address: String
    package var state: ControllerState = .connected
    package var attitude: Attitude?
    package var pointer: ScreenPoint?
    package var buttons: ButtonSet = .none
    /// OS inputs held for this controller (mouse:left, key:Left, …), sorted.
    package var held: [HeldInput] = []
    package var packetRate: Double = 0
    package var lossPercent: Double = 0
    /// One-way latency percentiles in ms; nil where it is not measured (no shared or
    /// estimated clock: a DSU app, a client that reports no clock offset).
    package var latencyP50Ms: Double?
    package var latencyP99Ms: Double?
    /// Counts per latency bucket; bucket i covers [edges[i], edges[i+1]) milliseconds.
    package var latencyHistogram: [Int] = []
    package var motionPackets: Int = 0
    package var buttonEdges: Int = 0
    /// The most recent pointer positions, oldest first.
    package var trail: [ScreenPoint] = []
    /// Something the user should know, e.g. that pointer mode needs an attitude this
    /// controller does not send.
    package var note: String?
    /// Gyro calibration, rest and clutch; nil until the controller sent gyro rates.
    package var gyro: GyroStatus?
    /// The sample this snapshot's attitude and pointer come from: its own timestamp (the
    /// controller's clock, µs, as received), the same sample's time on the host's clock
    /// (`SampleTimeline`: µs of the host's monotonic `Instant`, what the mapping, the virtual
    /// pad and the DSU server used) and how long before the snapshot it arrived (ms), so a
    /// reading can be lined up with the motion that produced it.
    package var sampleTimestampMicros: UInt64?
    package var sampleHostMicros: UInt64?
    package var sampleAgeMs: Double?
    /// The mode this controller's motion is mapped in (its own, chosen on its page or the
    /// dashboard, or the host's).
    package var mode: MappingSettings.Mode = .pointer
    /// Whether it has a virtual pad now; nil when the host makes none (no `--gamepad`).
    package var pad: Bool?
    /// The app of the `[[profile]]` in force for it (nil: the host's mapping).
    package var profile: String?

    package init(session: SessionID, address: String) {
        self.session = session
        self.address = address
    }

    package static let histogramEdgesMs: [Double] = [0, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64]
}
