import RemotionProtocol

/// One thing the pipeline decided for one session, for the host's outputs to perform, in
/// order (`PipelineCore` appends them; the host routes each to the outputs that accept its
/// `kind`, docs/INJECTION.md "Outputs"). Pointer moves, buttons, keys and wheel go to the
/// injector (XTest, uinput, log); a pad's state goes to its virtual pad (a DualSense on
/// /dev/uhid); text to type and the laser the host performs itself. Nothing here performs
/// anything: the host's adapters do.
package enum PipelineOutput: Sendable, Hashable {
    /// One input event and one flush (a motion frame: `moveTo`, `moveBy`).
    case input(InputEvent)
    /// Several events in one frame, one flush (a key chord: modifiers, then the key).
    case inputs([InputEvent])
    /// The session ended: release every input the injector still holds for it.
    case releaseHeld
    /// The session's virtual pad comes into being; `identity` names the controller
    /// stably (its paired name, else its address without the port), so a controller that
    /// comes back gets the same pad address.
    case padOpened(identity: String)
    /// What the session's pad shows now.
    case pad(GamepadState)
    /// The session ended: its pad shows `rest` (sticks centred, triggers and buttons up, no
    /// rotation), then goes away. Never a pad left holding an input.
    case padClosed(rest: GamepadState)
    /// Rumble and light for the session's controller (a game wrote them to its pad): the
    /// host sends it on the controller's own transport (UDP, the page's socket or channel).
    case feedback(ControllerFeedback)
    /// A manual calibration's progress or end, for the session's controller to show (its
    /// page); the host sends it on the controller's own transport where it has a way back.
    case calibration(CalibrationReport)
    /// Something the host should say (log, status).
    case note(PipelineNote)
    /// Remember the session's gyro calibration (the host's calibration memory writes it).
    case calibrationSave(CalibrationSave)
    /// Text the session's page sent, its typing allowed and within its `TextBudget`: the
    /// host types it through its injector's backend (`TextTypingBackend`), which says what
    /// it could not type, and gives the borrowed keycodes back later (`typingRestoreDeadline`).
    case text(String)
    /// The session's presenter laser went on or off; its dot starts at `from`, where the
    /// session's pointer was (nil: none yet). The host's laser hook draws it.
    case laser(on: Bool, from: ScreenPoint?)
    /// The focus profile in force for the session changed (`[[profile]]`): its page shows
    /// which one, and the mode in force (the host sends it on the page's transport).
    case profile(ProfileInForce)

    /// Which outputs take it.
    package var kind: Kind {
        switch self {
        case .input, .inputs, .releaseHeld: .input
        case .padOpened, .pad, .padClosed: .pad
        case .note: .note
        case .feedback, .calibration, .profile: .feedback
        case .calibrationSave: .calibrationSave
        case .text: .text
        case .laser: .laser
        }
    }

    /// What an output accepts (`HostOutput.accepts`).
    package struct Kind: OptionSet, Sendable, Hashable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Pointer, mouse buttons, keys, wheel, and the release of what a session held.
        package static let input = Kind(rawValue: 1 << 0)
        /// A session's virtual pad: opened, its states, rest then closed.
        package static let pad = Kind(rawValue: 1 << 1)
        /// Words for the log and the status (the host says them itself).
        package static let note = Kind(rawValue: 1 << 2)
        /// Back to the controller: rumble and light, a calibration's progress (the host sends it itself).
        package static let feedback = Kind(rawValue: 1 << 3)
        /// A calibration to remember (the host keeps it itself).
        package static let calibrationSave = Kind(rawValue: 1 << 4)
        /// Text to type (the host types it itself, through the injector's backend, and tells the page what it could not).
        package static let text = Kind(rawValue: 1 << 5)
        /// A presenter's laser on or off (the host's laser hook takes it).
        package static let laser = Kind(rawValue: 1 << 6)
    }
}

/// What the host tells a controller on the controller's own transport, unasked: a game's
/// rumble and light, a manual calibration's progress. A transport that can show them (the
/// phone's page) registers a sink for them when it opens its session.
package enum ControllerNotice: Sendable, Hashable {
    case feedback(ControllerFeedback)
    case calibration(CalibrationReport)
    case profile(ProfileInForce)
}

/// Which `[[profile]]` is in force for a controller and the mode in force with it, for its
/// page (docs/WEB-CONTROLLER.md, "Protocol": the `profile` message).
package struct ProfileInForce: Sendable, Hashable {
    /// The profile's `app`; nil: none, the host's mapping (with the page's own mode).
    package var app: String?
    /// The mode the session maps with now.
    package var mode: MappingSettings.Mode
    /// Whether the profile names the mode (then it wins over the page's choice while in force).
    package var setsMode: Bool

    package init(app: String?, mode: MappingSettings.Mode, setsMode: Bool) {
        self.app = app
        self.mode = mode
        self.setsMode = setsMode
    }
}

/// What the pipeline wants said about a session.
package enum PipelineNote: Sendable, Hashable {
    /// Pointer or seed mode needs an attitude this controller neither sends nor gives the
    /// gyro and acceleration to fuse (said once per session; also in its status note).
    case missingAttitude(mode: MappingSettings.Mode)
    /// A calibrate button started a gyro calibration (`started`), or calibration is off.
    case calibration(started: Bool)

    /// The words for the log and the status.
    package var text: String {
        switch self {
        case let .missingAttitude(mode):
            "\(mode.rawValue) mode needs attitude, which this controller does not send (nor gyro and acceleration to fuse one from); "
                + "use FPS mode (mode = \"fps\" in [mapping] or the dashboard) — it works from the gyro rates"
        case let .calibration(started):
            started ? "gyro calibration started; hold the controller still" : "gyro calibration is off"
        }
    }
}
