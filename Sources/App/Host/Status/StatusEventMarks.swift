import RemotionProtocol
import RemotionHostLogic

/// What the status lines (`StatusLog`, HostLogic/UI: a controller came or went, its name,
/// address, mode, buttons, the inputs held) could say, as of the last snapshot handed to
/// the builder. A host whose only reader is those lines (`SnapshotInterest.changes`)
/// builds a snapshot at a report tick only when this differs from its sessions then.
/// Exact (the values themselves, not a hash); one entry per open session, replaced only
/// when something changed; comparing allocates nothing.
struct StatusEventMarks {
    private struct Mark: Equatable {
        var name: String
        var address: String
        var mode: MappingSettings.Mode
        var buttons: ButtonSet

        init(_ s: PipelineSession) {
            name = s.telemetry.name
            address = s.telemetry.address
            mode = s.mapper.settings.mode
            buttons = s.telemetry.buttons
        }
    }

    private var marks: [SessionID: Mark] = [:]
    /// Every session's held inputs at once (the injector's tracker compares as a value).
    private var held = HeldInputTracker()

    /// Whether the status lines could say something new about `sessions` and `held`.
    func differ(from sessions: [SessionID: PipelineSession], held: HeldInputTracker) -> Bool {
        guard marks.count == sessions.count, self.held == held else { return true }
        for (id, session) in sessions where marks[id] != Mark(session) { return true }
        return false
    }

    /// Remembers what a snapshot about to be built shows.
    mutating func record(_ sessions: [SessionID: PipelineSession], held: HeldInputTracker) {
        guard differ(from: sessions, held: held) else { return }
        marks = sessions.mapValues(Mark.init)
        self.held = held
    }
}
