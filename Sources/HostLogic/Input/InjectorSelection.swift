/// The injection backends the host knows.
package enum InjectorKind: String, Sendable, Hashable, CaseIterable {
    case uinput, xtest, cgevent, log
}

/// What `--inject auto` looks at (gathered by the executable, decided here).
package struct InjectorFacts: Sendable, Hashable {
    /// /dev/uinput exists and this process can open it for writing.
    package var uinputWritable: Bool
    /// The DISPLAY environment variable (nil or empty: no X server).
    package var display: String?
    package var isMacOS: Bool

    package init(uinputWritable: Bool, display: String?, isMacOS: Bool) {
        self.uinputWritable = uinputWritable
        self.display = display
        self.isMacOS = isMacOS
    }
}

/// The backend `--inject auto` picks and why.
package struct InjectorChoice: Sendable, Hashable, CustomStringConvertible {
    package var kind: InjectorKind
    package var reason: String
    package var description: String { "\(kind.rawValue) (\(reason))" }
}

package enum InjectorSelection {
    /// uinput when writable (works under X11, Wayland and the console), else
    /// XTest when DISPLAY is set, else CGEvent on macOS, else the log backend.
    package static func auto(_ facts: InjectorFacts) -> InjectorChoice {
        if facts.uinputWritable {
            return InjectorChoice(kind: .uinput, reason: "/dev/uinput is writable")
        }
        if let display = facts.display, !display.isEmpty {
            return InjectorChoice(kind: .xtest,
                                  reason: "/dev/uinput is not writable and DISPLAY=\(display) is set")
        }
        if facts.isMacOS {
            return InjectorChoice(kind: .cgevent, reason: "running on macOS")
        }
        return InjectorChoice(kind: .log,
                              reason: "no writable /dev/uinput, no DISPLAY and not macOS: events are only logged")
    }
}
