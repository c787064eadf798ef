import RemotionProtocol

/// A pad's gamepad evdev node as Remotion's buttons and analog state: sans-IO. Keys by
/// position (the kernel's BTN_SOUTH is the bottom face button on every driver: Cross,
/// Nintendo's B), the d-pad from the hat or BTN_DPAD_*, sticks and triggers scaled by the
/// range EVIOCGABS gave (sticks −1…1 with y down, triggers 0…1).
package struct LocalPadControls: Sendable {
    /// Remotion's sixteen buttons from evdev key codes, mirroring the virtual pad's table
    /// (`GamepadButtonTable.standard`) so a pad's buttons come back out of `--gamepad
    /// dualsense` as themselves: A Cross/south, B Circle/east, C–F the d-pad left, right,
    /// up, down, G Square/west, H Triangle/north, I L1, J R1, K L2, L R2, M Options/Start/+,
    /// N Create/Select/−, O PS/Home, P L3. R3 and the capture button are not mapped.
    package static let keyTable: [UInt16: Button] = [
        EvdevCode.btnSouth: .a, EvdevCode.btnEast: .b,
        EvdevCode.btnDpadLeft: .c, EvdevCode.btnDpadRight: .d, EvdevCode.btnDpadUp: .e, EvdevCode.btnDpadDown: .f,
        EvdevCode.btnWest: .g, EvdevCode.btnNorth: .h, EvdevCode.btnTL: .i, EvdevCode.btnTR: .j,
        EvdevCode.btnTL2: .k, EvdevCode.btnTR2: .l, EvdevCode.btnStart: .m, EvdevCode.btnSelect: .n,
        EvdevCode.btnMode: .o, EvdevCode.btnThumbL: .p,
    ]

    private let layout: LocalPadControlLayout
    private let axes: [UInt16: EvdevAbsInfo]
    private var values: [UInt16: Int32]
    private var keys = ButtonSet.none
    private var hat = ButtonSet.none
    private var discarding = false
    /// The buttons as of the last complete frame.
    package private(set) var buttons = ButtonSet.none

    /// `axes`: EVIOCGABS of whichever of the stick, trigger and hat axes the node has;
    /// `pressed`: the keys down at open (EVIOCGKEY), so a press before open is not lost.
    package init(layout: LocalPadControlLayout, axes: [UInt16: EvdevAbsInfo], pressed: Set<UInt16> = []) {
        self.layout = layout
        self.axes = axes
        values = axes.mapValues(\.value)
        keys = ButtonSet(pressed.compactMap { Self.keyTable[$0] })
        hat = hatButtons()
        buttons = ButtonSet(rawValue: keys.rawValue | hat.rawValue)
    }

    /// Feeds events; returns the button edges of each complete frame, releases first.
    package mutating func feed(_ events: [EvdevInputEvent]) -> [(Button, Bool)] {
        var edges: [(Button, Bool)] = []
        for e in events {
            switch (e.type, e.code) {
            case (EvdevCode.synType, EvdevCode.synDropped):
                discarding = true
            case (EvdevCode.synType, EvdevCode.synReport):
                if discarding { discarding = false; continue }
                edges += commit()
            case _ where discarding:
                continue
            case (EvdevCode.keyType, let code):
                guard let b = Self.keyTable[code] else { continue }
                keys.set(b, down: e.value != 0)
            case (EvdevCode.absType, let code) where axes[code] != nil:
                values[code] = e.value
            default:
                continue
            }
        }
        return edges
    }

    /// After SYN_DROPPED: the keys down and the axes' values as reread (EVIOCGKEY, EVIOCGABS).
    package mutating func resync(pressed: Set<UInt16>, values fresh: [UInt16: Int32]) -> [(Button, Bool)] {
        keys = ButtonSet(pressed.compactMap { Self.keyTable[$0] })
        for (code, v) in fresh where axes[code] != nil { values[code] = v }
        return commit()
    }

    /// Every held button released (the node went away).
    package mutating func releaseAll() -> [(Button, Bool)] {
        keys = .none
        hat = .none
        values = [:]
        let released = Button.allCases.filter { buttons.contains($0) }.map { ($0, false) }
        buttons = .none
        return released
    }

    private mutating func commit() -> [(Button, Bool)] {
        hat = hatButtons()
        let now = ButtonSet(rawValue: keys.rawValue | hat.rawValue)
        let changed = Button.allCases.filter { now.contains($0) != buttons.contains($0) }
        buttons = now
        return changed.filter { !now.contains($0) }.map { ($0, false) } + changed.filter { now.contains($0) }.map { ($0, true) }
    }

    private func hatButtons() -> ButtonSet {
        guard layout.dpadHat else { return .none }
        var s = ButtonSet.none
        let x = values[EvdevCode.absHat0X] ?? 0, y = values[EvdevCode.absHat0Y] ?? 0
        if x < 0 { s.insert(.c) }
        if x > 0 { s.insert(.d) }
        if y < 0 { s.insert(.e) }
        if y > 0 { s.insert(.f) }
        return s
    }

    /// Sticks and triggers now (nil when the node has no stick axes).
    package var analog: AnalogState? {
        guard axes[EvdevCode.absX] != nil else { return nil }
        func stick(_ code: UInt16) -> Float {
            guard let a = axes[code], let v = values[code], a.maximum > a.minimum else { return 0 }
            let mid = (Double(a.minimum) + Double(a.maximum)) / 2, half = (Double(a.maximum) - Double(a.minimum)) / 2
            return Float(max(-1, min(1, (Double(v) - mid) / half)))
        }
        func trigger(_ code: UInt16?) -> Float {
            guard let code, let a = axes[code], let v = values[code], a.maximum > a.minimum else { return 0 }
            return Float(max(0, min(1, (Double(v) - Double(a.minimum)) / (Double(a.maximum) - Double(a.minimum)))))
        }
        return AnalogState(leftX: stick(EvdevCode.absX), leftY: stick(EvdevCode.absY), rightX: stick(EvdevCode.absRX),
                           rightY: stick(EvdevCode.absRY), leftTrigger: trigger(layout.leftTrigger),
                           rightTrigger: trigger(layout.rightTrigger))
    }
}
