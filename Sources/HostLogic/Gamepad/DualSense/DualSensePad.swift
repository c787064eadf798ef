import RemotionProtocol

/// The UHID conversation of one virtual DualSense as a state machine: the adapter hands it
/// what the kernel said (`Event`) and the host's pad state; it returns what to write
/// (`Action`). No I/O, no clock: times come with the states.
///
/// Lifecycle: `create()` → the device is created; the kernel answers START when a driver
/// binds (before that, input reports would be refused), then asks its feature reports with
/// GET_REPORT (every one is answered, or probing fails); `update` encodes a state into an
/// input report once started; `finish` sends the rest state (sticks centred, triggers 0,
/// buttons up) and then destroys the device, so nothing a game reads stays held.
package struct DualSensePad: Sendable {
    /// What UHID reports (linux/uhid.h: UHID_FEATURE_REPORT 0, OUTPUT 1, INPUT 2).
    package enum ReportType: UInt8, Sendable { case feature = 0, output = 1, input = 2 }

    package enum Event: Hashable, Sendable {
        case start
        case stop
        case open
        case close
        case getReport(id: UInt32, number: UInt8, type: UInt8)
        case setReport(id: UInt32, number: UInt8, type: UInt8, data: [UInt8])
        case output(data: [UInt8], type: UInt8)
    }

    /// What UHID_CREATE2 carries.
    package struct Creation: Hashable, Sendable {
        package var name: String
        package var phys: String
        package var uniq: String
        package var bus: UInt16
        package var vendor: UInt32
        package var product: UInt32
        package var version: UInt32
        package var descriptor: [UInt8]

        package init(name: String, phys: String, uniq: String, bus: UInt16, vendor: UInt32, product: UInt32,
                     version: UInt32, descriptor: [UInt8]) {
            self.name = name; self.phys = phys; self.uniq = uniq; self.bus = bus
            self.vendor = vendor; self.product = product; self.version = version; self.descriptor = descriptor
        }
    }

    package enum Action: Hashable, Sendable {
        case create(Creation)
        case input([UInt8])
        case getReportReply(id: UInt32, error: UInt16, data: [UInt8])
        case setReportReply(id: UInt32, error: UInt16)
        /// A game's rumble or lightbar, for the controller.
        case output(DualSenseOutput)
        case destroy
    }

    /// Counters a status line can show.
    package struct Counters: Hashable, Sendable {
        package var reportsSent = 0
        package var featuresAnswered = 0
        package var featuresRefused = 0
        package var outputsMalformed = 0
    }

    /// EIO, what the pad answers to a report it does not have.
    package static let refused: UInt16 = 5

    package let bus: DualSenseBus
    package let mac: DualSenseMAC
    package let name: String
    package private(set) var started = false
    package private(set) var opened = false
    package private(set) var destroyed = false
    package private(set) var counters = Counters()
    private var encoder: DualSenseInputReport
    private var last: GamepadState?

    /// The HID device's phys; Remotion's own pads are "remotion/<MAC>" (local pads leave them out).
    package let phys: String

    /// `name` and `phys` other than Remotion's own only for the local-pads guest stage, whose
    /// probe pad stands in for a DualSense a person owns (`gamepad-probe --as-owned`).
    package init(identity: String, bus: DualSenseBus = .bluetooth, name: String = "Remotion virtual DualSense",
                 phys: String? = nil) {
        self.bus = bus
        self.mac = DualSenseMAC(identity: identity)
        self.name = name
        self.phys = phys ?? "remotion/\(mac)"
        self.encoder = DualSenseInputReport(bus: bus)
    }

    package func create() -> [Action] {
        [.create(Creation(
            name: name, phys: phys, uniq: mac.description, bus: bus.linuxBus,
            vendor: DualSenseReports.vendorID, product: DualSenseReports.productID, version: 0x0100,
            descriptor: DualSenseDescriptor.bytes(for: bus)))]
    }

    package mutating func handle(_ event: Event) -> [Action] {
        guard !destroyed else { return [] }
        switch event {
        case .start:
            started = true
            return []
        case .stop:
            started = false
            return []
        case .open:
            opened = true
            return []
        case .close:
            opened = false
            return []
        case let .getReport(id, number, type):
            if type == ReportType.feature.rawValue,
               let data = DualSenseFeatures.answer(id: number, bus: bus, mac: mac) {
                counters.featuresAnswered += 1
                return [.getReportReply(id: id, error: 0, data: data)]
            }
            counters.featuresRefused += 1
            return [.getReportReply(id: id, error: Self.refused, data: [])]
        case let .setReport(id, number, type, data):
            // Feature writes (SDL's and the driver's set-up) are accepted; an output report
            // sent this way is the same as UHID_OUTPUT.
            if type == ReportType.output.rawValue, number == data.first {
                return [.setReportReply(id: id, error: 0)] + outputActions(data)
            }
            return [.setReportReply(id: id, error: 0)]
        case let .output(data, _):
            return outputActions(data)
        }
    }

    /// The input report for `state`, once the kernel has started the device (UHID refuses
    /// input before START).
    package mutating func update(_ state: GamepadState) -> [Action] {
        var report: [UInt8] = []
        return input(state, into: &report) ? [.input(report)] : []
    }

    /// `update`'s input report written into `report` (reused: the per-sample path allocates
    /// nothing); false when there is none to send (not started, or destroyed).
    package mutating func input(_ state: GamepadState, into report: inout [UInt8]) -> Bool {
        last = state
        guard started, !destroyed else { return false }
        counters.reportsSent += 1
        encoder.encode(state, into: &report)
        return true
    }

    /// The rest state (if the device was ever started), then destroy. Idempotent.
    package mutating func finish(at time: Instant) -> [Action] {
        guard !destroyed else { return [] }
        var actions: [Action] = []
        if started {
            let rest = (last ?? GamepadState(motion: .still(at: time))).rest(at: time)
            actions += update(rest)
        }
        destroyed = true
        started = false
        return actions + [.destroy]
    }

    private mutating func outputActions(_ data: [UInt8]) -> [Action] {
        guard let output = DualSenseOutput.parse(data) else {
            counters.outputsMalformed += 1
            return []
        }
        return [.output(output)]
    }
}
