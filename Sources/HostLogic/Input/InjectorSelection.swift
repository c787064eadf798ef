/// What `--inject` names: one backend, or `auto` (decided by `InjectorSelection`).
/// The one type for the choice: the command line parses it, the factory opens it.
package enum InjectorChoice: String, Sendable, Hashable, CaseIterable {
    case auto, xtest, uinput, wlroots, libei, cgevent, log, virtual
}

/// Where /dev/uinput stands for this process.
package enum UInputAccess: Sendable, Hashable {
    /// It exists and this process may open it for writing.
    case writable
    /// It exists (or its state is unknown) but this process may not write it.
    case notWritable
    /// There is no /dev/uinput (module not loaded, or a kernel without it).
    case missing
}

/// The platform the host runs on, as far as injection cares.
package enum InjectorPlatform: Sendable, Hashable {
    case linux, macOS, other
}

/// What the Wayland compositor at WAYLAND_DISPLAY answered when asked for its globals.
package struct CompositorFacts: Sendable, Hashable {
    /// WAYLAND_DISPLAY's value.
    package var socket: String
    /// It offers zwlr_virtual_pointer_manager_v1 and zwp_virtual_keyboard_manager_v1.
    package var virtualInput: Bool
    /// Why it could not be asked (no socket, not a compositor); nil when it answered.
    package var problem: String?
    /// The input-related protocols it offers (for `remotion doctor`).
    package var protocols: [String]
    /// Its outputs, one description each ("HEADLESS-1 1280x720 at 0,0 scale 1").
    package var outputs: [String]

    package init(socket: String, virtualInput: Bool, problem: String? = nil, protocols: [String] = [],
                 outputs: [String] = []) {
        self.socket = socket
        self.virtualInput = virtualInput
        self.problem = problem
        self.protocols = protocols
        self.outputs = outputs
    }

    /// One clause for a user: what this compositor lacks, or why it did not answer.
    package var lacking: String {
        if let problem { return "the Wayland socket did not answer as a compositor (\(problem))" }
        return "the compositor at WAYLAND_DISPLAY=\(socket) offers no wlroots virtual pointer and keyboard"
    }
}

/// What the selection looks at, gathered by the executable and decided here.
package struct InjectorFacts: Sendable, Hashable {
    /// The process environment (XDG_SESSION_TYPE, WAYLAND_DISPLAY, DISPLAY, REMOTION_NO_UINPUT).
    package var environment: [String: String]
    package var uinput: UInputAccess
    package var platform: InjectorPlatform
    /// The compositor at WAYLAND_DISPLAY, asked (nil: not asked, or no WAYLAND_DISPLAY).
    package var compositor: CompositorFacts?
    /// Whether libei loads here (nil: not asked; `auto` asks only when an EIS socket is handed,
    /// or on GNOME or KDE on Wayland).
    package var libei: LibeiLibrary?
    /// The RemoteDesktop portal (nil: not asked; `auto` asks on GNOME or KDE on Wayland
    /// without a handed socket when libei loads).
    package var portal: PortalFacts?

    package init(environment: [String: String], uinput: UInputAccess, platform: InjectorPlatform,
                 compositor: CompositorFacts? = nil, libei: LibeiLibrary? = nil, portal: PortalFacts? = nil) {
        self.environment = environment
        self.uinput = uinput
        self.platform = platform
        self.compositor = compositor
        self.libei = libei
        self.portal = portal
    }

    /// A Wayland session: XDG_SESSION_TYPE=wayland, or WAYLAND_DISPLAY set. (GNOME and KDE
    /// also set DISPLAY there, for XWayland.)
    package var waylandSession: String? {
        if environment["XDG_SESSION_TYPE"]?.lowercased() == "wayland" { return "XDG_SESSION_TYPE=wayland" }
        if let w = environment["WAYLAND_DISPLAY"], !w.isEmpty { return "WAYLAND_DISPLAY=\(w)" }
        return nil
    }

    /// DISPLAY when set and non-empty.
    package var display: String? {
        guard let d = environment["DISPLAY"], !d.isEmpty else { return nil }
        return d
    }

    /// REMOTION_NO_UINPUT=1 makes `auto` treat uinput as not writable (tests that must
    /// never inject for real).
    package var uinputForAuto: UInputAccess {
        environment["REMOTION_NO_UINPUT"].map { !$0.isEmpty } == true ? .notWritable : uinput
    }
}

/// The backend to open, why, and what the user must hear about it.
package struct InjectorDecision: Sendable, Hashable {
    /// Never `.auto`.
    package var backend: InjectorChoice
    /// Shown at start-up ("injecting with …").
    package var reason: String
    /// One line shown once at start-up when the choice works badly here (XTest on Wayland).
    package var warning: String?
    /// Set when the backend cannot work as things stand: one line saying what to do.
    /// The host does not start with it.
    package var fix: String?
}

package enum InjectorSelection {
    /// `auto` on Linux: libei when an EIS socket is handed to the host (REMOTION_EIS_FD or
    /// LIBEI_SOCKET) and libei.so.1 loads, or on GNOME or KDE on Wayland when libei loads and the
    /// RemoteDesktop portal (version 2+) can hand one (`afterPortalFailure` when it did not); else on a Wayland session the compositor's virtual pointer and keyboard
    /// when it offers them (wlroots: no root), else uinput (XTest would move only the
    /// XWayland pointer); elsewhere uinput when writable, else XTest when DISPLAY is set,
    /// else the log backend. macOS: CGEvent. A named backend is taken as asked, with a
    /// warning for XTest on a Wayland session.
    package static func decide(_ requested: InjectorChoice, _ facts: InjectorFacts) -> InjectorDecision {
        switch requested {
        case .auto:
            return auto(facts)
        case .xtest:
            var d = InjectorDecision(backend: .xtest, reason: "--inject xtest")
            if let wayland = facts.waylandSession {
                d.warning = "WARNING: this is a Wayland session (\(wayland)): XTest reaches only X11 (XWayland) "
                    + "windows and moves their pointer alone; use --inject uinput (docs/INJECTION.md)"
            }
            return d
        case .uinput, .wlroots, .libei, .cgevent, .log, .virtual:
            return InjectorDecision(backend: requested, reason: "--inject \(requested.rawValue)")
        }
    }

    private static func auto(_ facts: InjectorFacts) -> InjectorDecision {
        if facts.platform == .macOS {
            return InjectorDecision(backend: .cgevent, reason: "auto: running on macOS")
        }
        if facts.platform == .linux, let eis = facts.eisSocket {
            if facts.libeiReady {
                return InjectorDecision(backend: .libei,
                                        reason: "auto: an EIS socket is handed to the host (\(eis)) and \(LibeiLibrary.soname) loads")
            }
            var d = withoutLibei(facts)
            let why = facts.libei?.problem ?? "\(LibeiLibrary.soname) was not looked for"
            d.reason += " (an EIS socket is handed, \(eis), but \(why))"
            return d
        }
        if facts.platform == .linux, facts.portalReady, let desktop = facts.eisDesktop, let portal = facts.portal {
            return InjectorDecision(backend: .libei,
                                    reason: "auto: \(desktop) on Wayland, \(LibeiLibrary.soname) loads and \(portal.summary): "
                                        + "an EIS socket from the portal (allowed once, then remembered)")
        }
        return withoutLibei(facts)
    }

    /// `auto` after the RemoteDesktop portal gave no socket (`why`, its one line): the choice
    /// without libei, saying why not.
    package static func afterPortalFailure(_ facts: InjectorFacts, why: String) -> InjectorDecision {
        var d = withoutLibei(facts)
        let clause = "the RemoteDesktop portal gave no EIS socket: \(why)"
        d.reason += " (\(clause))"
        // No way in after it: the portal's line first, then what else would do.
        d.fix = d.fix.map { "\(clause); and \($0)" }
        return d
    }

    private static func withoutLibei(_ facts: InjectorFacts) -> InjectorDecision {
        let uinput = facts.platform == .linux ? facts.uinputForAuto : .missing
        if let wayland = facts.waylandSession, facts.platform == .linux {
            if let compositor = facts.compositor, compositor.virtualInput {
                return InjectorDecision(backend: .wlroots,
                                        reason: "auto: the compositor at WAYLAND_DISPLAY=\(compositor.socket) offers "
                                            + "the wlroots virtual pointer and keyboard (no root needed)")
            }
            var d = InjectorDecision(backend: .uinput,
                                     reason: "auto: a Wayland session (\(wayland)), where only uinput reaches every window")
            if uinput != .writable {
                d.fix = "this is a Wayland session (\(wayland)) where only uinput reaches every window"
                    + (facts.compositor.map { " (\($0.lacking))" } ?? "") + ", and "
                    + UInputAdvice.problem(uinput) + ": " + UInputAdvice.remedy(uinput)
            }
            return d
        }
        if uinput == .writable {
            return InjectorDecision(backend: .uinput, reason: "auto: /dev/uinput is writable")
        }
        if let display = facts.display, facts.platform == .linux {
            return InjectorDecision(backend: .xtest,
                                    reason: "auto: /dev/uinput is not writable and DISPLAY=\(display) is set")
        }
        // (XTest and uinput are built on Linux only: elsewhere but macOS, the log backend.)
        return InjectorDecision(backend: .log,
                                reason: "auto: no writable /dev/uinput, no DISPLAY and not macOS: events are only logged")
    }
}

/// What to tell a user whose /dev/uinput cannot be used (one line each; docs/INJECTION.md).
package enum UInputAdvice {
    /// The udev rule: logind gives the active local session access (uaccess), and the node
    /// exists before the module loads (static_node). No group, no access for other users.
    package static let udevRule = #"KERNEL=="uinput", SUBSYSTEM=="misc", TAG+="uaccess", OPTIONS+="static_node=uinput""#
    package static let rulePath = "/etc/udev/rules.d/60-remotion-uinput.rules"

    package static func problem(_ access: UInputAccess) -> String {
        access == .missing ? "/dev/uinput does not exist" : "/dev/uinput is not writable by this user"
    }

    package static func remedy(_ access: UInputAccess) -> String {
        let load = "load the module with `sudo modprobe uinput` (persist it with "
            + "`echo uinput | sudo tee /etc/modules-load.d/uinput.conf`)"
        let rule = "run `sudo scripts/install.sh --system`, or put `\(udevRule)` in \(rulePath) and run "
            + "`sudo udevadm control --reload && sudo udevadm trigger`"
        return access == .missing ? load + "; " + rule : rule
    }
}
