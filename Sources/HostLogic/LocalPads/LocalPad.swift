import RemotionProtocol

/// One pad a person owns, read from its evdev nodes: the Motion Sensors node (required)
/// and its gamepad node (paired when found, `LocalPadNodes`). Sans-IO: raw events in,
/// Remotion's events out; the adapter reads the nodes and hands the events to the host's
/// external-controller seam.
package struct LocalPad: Sendable {
    /// A motion sample, with the buttons and analog state as of its frame, or a button edge
    /// from the gamepad node (between samples; the next sample agrees): what a backlog of
    /// late motion is merged from (`LateMotion`).
    package typealias Event = LateMotion.Event

    private var motion: LocalPadMotionDecoder
    private var controls: LocalPadControls?
    package var driver: LocalPadDriver { motion.driver }
    package var counters: LocalPadCounters {
        var c = motion.counters
        c.buttonsDroppedByKernel = buttonsDroppedByKernel
        return c
    }
    private var buttonsDroppedByKernel = 0
    package var frames: Int { motion.frames }
    package var hasControls: Bool { controls != nil }

    package init(driver: LocalPadDriver, motionAxes: [UInt16: EvdevAbsInfo]) throws(LocalPadError) {
        motion = try LocalPadMotionDecoder(driver: driver, axes: motionAxes)
    }

    /// The gamepad node was found (at open or later): its axes and the keys down now.
    package mutating func attachControls(axes: [UInt16: EvdevAbsInfo], pressed: Set<UInt16> = []) -> [Event] {
        let c = LocalPadControls(layout: driver.controls, axes: axes, pressed: pressed)
        controls = c
        return Button.allCases.filter { c.buttons.contains($0) }.map { .button($0, isDown: true) }
    }

    /// The gamepad node went away: everything it held is released.
    package mutating func detachControls() -> [Event] {
        guard var c = controls else { return [] }
        let released = c.releaseAll()
        controls = nil
        return released.map { .button($0.0, isDown: $0.1) }
    }

    package mutating func motionEvents(_ events: [EvdevInputEvent]) -> [Event] {
        let buttons = controls?.buttons ?? .none, analog = controls?.analog
        return motion.feed(events).map { s in
            var s = s
            s.buttons = buttons
            s.analog = analog
            return .sample(s)
        }
    }

    /// The motion node's events as read, with the node's state asked (EVIOCGABS, by the
    /// adapter) where the kernel dropped some: the frames queued after a SYN_DROPPED carry
    /// only what changed since the dropped ones, so they are read against the reread
    /// values, not the stale ones (a pad turning steadily sends no ABS event at all).
    package mutating func motionEvents(_ events: [EvdevInputEvent], stateAfterDrop: () -> [UInt16: Int32]) -> [Event] {
        guard events.contains(where: Self.isDrop) else { return motionEvents(events) }   // the usual read: no copy
        var out: [Event] = []
        for (chunk, dropped) in Self.chunks(events) {
            out += motionEvents(Array(chunk))
            if dropped { resyncMotion(values: stateAfterDrop()) }
        }
        return out
    }

    package mutating func controlEvents(_ events: [EvdevInputEvent]) -> [Event] {
        guard controls != nil else { return [] }
        return controls!.feed(events).map { .button($0.0, isDown: $0.1) }
    }

    /// The gamepad node's events as read, resynced (EVIOCGKEY, EVIOCGABS) where the kernel
    /// dropped some, before the frames queued after the drop.
    package mutating func controlEvents(_ events: [EvdevInputEvent],
                                        stateAfterDrop: () -> (pressed: Set<UInt16>, values: [UInt16: Int32])) -> [Event] {
        guard events.contains(where: Self.isDrop) else { return controlEvents(events) }
        var out: [Event] = []
        for (chunk, dropped) in Self.chunks(events) {
            out += controlEvents(Array(chunk))
            if dropped {
                buttonsDroppedByKernel += 1
                let state = stateAfterDrop()
                out += resyncControls(pressed: state.pressed, values: state.values)
            }
        }
        return out
    }

    static func isDrop(_ e: EvdevInputEvent) -> Bool { e.type == EvdevCode.synType && e.code == EvdevCode.synDropped }

    /// The events cut after each SYN_DROPPED (which ends its chunk, `dropped` true).
    static func chunks(_ events: [EvdevInputEvent]) -> [(ArraySlice<EvdevInputEvent>, dropped: Bool)] {
        var out: [(ArraySlice<EvdevInputEvent>, dropped: Bool)] = []
        var start = events.startIndex
        for (i, e) in events.enumerated() where isDrop(e) {
            out.append((events[start...i], dropped: true))
            start = i + 1
        }
        if start < events.endIndex { out.append((events[start...], dropped: false)) }
        return out
    }

    package mutating func resyncMotion(values: [UInt16: Int32]) { motion.resync(values: values) }

    package mutating func resyncControls(pressed: Set<UInt16>, values: [UInt16: Int32]) -> [Event] {
        guard controls != nil else { return [] }
        return controls!.resync(pressed: pressed, values: values).map { .button($0.0, isDown: $0.1) }
    }

    package mutating func countPartialRead() { motion.countPartialRead() }

    /// The motion node was read `micros` after the oldest event it returned.
    package mutating func noteReadLag(_ micros: Int64) { motion.noteReadLag(micros) }
}
