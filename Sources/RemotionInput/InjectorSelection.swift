/// The injection backends the host knows.
public enum InjectorKind: String, Sendable, Hashable, CaseIterable {
    case uinput, xtest, cgevent, log
}

/// What `--inject auto` looks at (gathered by the executable, decided here).
public struct InjectorFacts: Sendable, Hashable {
    /// /dev/uinput exists and this process can open it for writing.
    public var uinputWritable: Bool
    /// The DISPLAY environment variable (nil or empty: no X server).
    public var display: String?
    public var isMacOS: Bool

    public init(uinputWritable: Bool, display: String?, isMacOS: Bool) {
        self.uinputWritable = uinputWritable
        self.display = display
        self.isMacOS = isMacOS
    }
}

/// The backend `--inject auto` picks and why.
public struct InjectorChoice: Sendable, Hashable, CustomStringConvertible {
    public var kind: InjectorKind
    public var reason: String
    public var description: String { "\(kind.rawValue) (\(reason))" }
}

public enum InjectorSelection {
    /// uinput when writable (works under X11, Wayland and the console), else
    /// XTest when DISPLAY is set, else CGEvent on macOS, else the log backend.
    public static func auto(_ facts: InjectorFacts) -> InjectorChoice {
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
