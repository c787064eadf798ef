import Foundation

/// Who holds a port, from /proc/net/{udp,tcp}{,6} and /proc/PID/fd.
package struct PortHolder: Sendable, Hashable {
    package var pid: Int?
    /// The process's command name (comm); nil when it belongs to another user.
    package var command: String?

    package init(pid: Int?, command: String?) {
        self.pid = pid
        self.command = command
    }

    package var isRemotion: Bool { command == "remotion" }
    var text: String {
        guard let command else { return "a process this user cannot see (another user's; try sudo)" }
        return "\(command)" + (pid.map { " (pid \($0))" } ?? "")
    }
}

package enum AvahiState: Sendable, Hashable {
    case notRunning
    case running(hostName: String?)
}

/// What a browse for the host's own service saw within its wait.
package enum ServiceSighting: Sendable, Hashable {
    /// Seen on these interfaces (names).
    case seen([String])
    case notSeen
}

package enum UnitState: String, Sendable, Hashable {
    case active, inactive, failed, activating, notInstalled, noUserManager
}

/// GStreamer's WebRTC at run time (`WebRTCRuntimeProbe` in RemotionApp).
package enum WebRTCAvailability: Sendable, Hashable {
    case available
    case missing(reason: String, fix: String)
}

/// The page certificate as read from the data directory.
package enum CertificateState: Sendable, Hashable {
    case missing
    case unreadable(String)
    case present(notAfter: Date, fingerprint: String)
}

/// The decisions behind the other lines of `remotion doctor`, each from facts gathered by
/// the adapters (RemotionApp/Doctor). Pure.
package enum DoctorChecks {
    package static func avahi(_ state: AvahiState, discovery: Bool) -> DoctorLine {
        guard discovery else { return DoctorLine("avahi", .pass, "DNS-SD is off (--no-discovery): controllers connect by address") }
        switch state {
        case .notRunning:
            return DoctorLine("avahi", .fail,
                              "avahi-daemon is not running: controllers that look for hosts on the network cannot find this one",
                              fix: "sudo systemctl enable --now avahi-daemon")
        case .running(let name):
            return DoctorLine("avahi", .pass, "avahi-daemon is running" + (name.map { " (host name \($0).local)" } ?? ""))
        }
    }

    package static func announcement(_ sighting: ServiceSighting?, instance: String, interface: String?,
                                     hostRunning: Bool) -> DoctorLine? {
        guard let sighting else { return nil }
        let on = interface.map { " on \($0)" } ?? ""
        let details = ["instance": instance, "interface": interface ?? ""]
        switch sighting {
        case .seen(let names) where interface == nil || names.contains(interface!):
            return DoctorLine("avahi.service", .pass, "\"\(instance)\" is visible to a browse\(on)", details: details)
        case .seen(let names):
            return DoctorLine("avahi.service", .fail,
                              "\"\(instance)\" is announced on \(names.joined(separator: ", ")) but not\(on), where the QR code points",
                              fix: "allow \(interface ?? "that interface") in allow-interfaces of /etc/avahi/avahi-daemon.conf, then `sudo systemctl restart avahi-daemon`",
                              details: details)
        case .notSeen where !hostRunning:
            return DoctorLine("avahi.service", .warn,
                              "the host is not running, so its announcement \"\(instance)\" was not looked for",
                              fix: "start it (`remotion host`, or `systemctl --user start remotion-host`) and run doctor again",
                              details: details)
        case .notSeen:
            return DoctorLine("avahi.service", .fail,
                              "the running host's announcement \"\(instance)\" is not visible to a browse\(on)",
                              fix: "check that the host runs without --no-discovery and that /etc/avahi/avahi-daemon.conf allows \(interface ?? "the interface")",
                              details: details)
        }
    }

    /// The session type and what `--inject` picks (`InjectorSelection.decide`), and why.
    package static func injector(_ requested: InjectorChoice, _ facts: InjectorFacts) -> DoctorLine {
        let decision = InjectorSelection.decide(requested, facts)
        let session: String
        if let wayland = facts.waylandSession { session = "Wayland (\(wayland))" }
        else if let display = facts.display { session = "X11 (DISPLAY=\(display))" }
        else if let type = facts.environment["XDG_SESSION_TYPE"], !type.isEmpty { session = type }
        else { session = "no graphical session" }
        let details = ["session": session, "injector": decision.backend.rawValue, "reason": decision.reason]
        let picks = "session: \(session); --inject \(requested.rawValue) picks \(decision.backend.rawValue)"
        if let fix = decision.fix {
            return DoctorLine("injector", .fail, "\(picks), which cannot work here", fix: fix, details: details)
        }
        if decision.backend == .log && requested == .auto {
            return DoctorLine("injector", .fail, "\(picks): events would only be logged, not injected",
                              fix: "run the host (and doctor) inside your desktop session, or give this user /dev/uinput (the uinput line says how)",
                              details: details)
        }
        if let warning = decision.warning {
            return DoctorLine("injector", .warn, "\(picks) (\(decision.reason))",
                              fix: warning.replacingOccurrences(of: "WARNING: ", with: ""), details: details)
        }
        return DoctorLine("injector", .pass, "\(picks) (\(decision.reason))", details: details)
    }

    /// What the Wayland compositor at WAYLAND_DISPLAY offers for injection, and its outputs
    /// (the names `remotion host --output` takes).
    package static func compositor(_ c: CompositorFacts) -> DoctorLine {
        if let problem = c.problem {
            return DoctorLine("wayland.compositor", .warn, "WAYLAND_DISPLAY=\(c.socket) did not answer as a compositor: \(problem)",
                              fix: "run doctor inside the Wayland session (WAYLAND_DISPLAY names its socket in XDG_RUNTIME_DIR)")
        }
        let protocols = c.protocols.isEmpty ? "no input protocols" : c.protocols.joined(separator: ", ")
        let outputs = c.outputs.isEmpty ? "no outputs" : "outputs: " + c.outputs.joined(separator: "; ")
        let details = ["protocols": c.protocols.joined(separator: ","), "outputs": c.outputs.joined(separator: ";")]
        if c.virtualInput {
            return DoctorLine("wayland.compositor", .pass,
                              "WAYLAND_DISPLAY=\(c.socket) offers \(protocols) (the wlroots injector: no root needed); \(outputs)",
                              details: details)
        }
        return DoctorLine("wayland.compositor", .warn,
                          "WAYLAND_DISPLAY=\(c.socket) offers \(protocols): no wlroots virtual pointer and keyboard; \(outputs)",
                          fix: "on this compositor the host injects through uinput (the uinput line says how)", details: details)
    }

    /// Whether the presenter's laser can draw over the windows on this compositor: the layer
    /// shell (sway, Hyprland, KDE Plasma) or not (GNOME: the laser moves the pointer). Nil when
    /// the compositor did not answer (the compositor line says why).
    package static func laser(_ c: CompositorFacts) -> DoctorLine? {
        guard c.problem == nil else { return nil }
        if c.protocols.contains("zwlr_layer_shell_v1") {
            return DoctorLine("wayland.laser", .pass, "the presenter's laser draws its dot on the layer shell (zwlr_layer_shell_v1)")
        }
        return DoctorLine("wayland.laser", .warn,
                          "the compositor offers no layer shell (zwlr_layer_shell_v1): the presenter's laser moves the pointer instead of drawing a dot",
                          fix: "nothing to do: only the dot is missing; on sway, Hyprland or KDE Plasma the dot is drawn")
    }

    package static func uinput(_ access: UInputAccess, needed: Bool) -> DoctorLine {
        guard access != .writable else { return DoctorLine("device.uinput", .pass, "/dev/uinput is writable") }
        return DoctorLine("device.uinput", needed ? .fail : .warn,
                          UInputAdvice.problem(access) + (needed ? "" : " (the injector picked here does not need it)"),
                          fix: UInputAdvice.remedy(access))
    }

    /// The file that grants /dev/uhid, shipped but not installed (an opt-in: creating HID
    /// devices reaches every kernel HID driver's parser; docs/GAMEPAD.md, docs/SECURITY.md).
    package static let uhidRuleFile = "60-remotion-uhid.rules"

    /// The one command that installs the uhid grant: from the shipped copy when there is one
    /// (the .deb's /usr/share/remotion, or scripts/install.sh's PREFIX/share/remotion), else
    /// from a checkout.
    package static func uhidEnable(shippedRule: String?) -> String {
        guard let rule = shippedRule else { return "from a checkout: sudo bash scripts/install.sh --system --gamepad" }
        return "sudo install -m644 \(rule) /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger --sysname-match=uhid"
    }

    /// /dev/uhid: needed (a fail) when --gamepad or [gamepad] asks for a virtual pad.
    package static func uhid(_ access: UInputAccess, gamepad: Bool, shippedRule: String?) -> DoctorLine {
        let why = gamepad ? " (the virtual gamepad needs it)" : " (only the virtual gamepad needs it)"
        switch access {
        case .writable: return DoctorLine("device.uhid", .pass, "/dev/uhid is writable")
        case .missing:
            return DoctorLine("device.uhid", gamepad ? .fail : .warn, "/dev/uhid does not exist" + why, fix: "sudo modprobe uhid")
        case .notWritable:
            return DoctorLine("device.uhid", gamepad ? .fail : .warn,
                              "/dev/uhid is not writable by this user" + why + "; its grant (\(uhidRuleFile)) is opt-in",
                              fix: uhidEnable(shippedRule: shippedRule))
        }
    }

    /// The kernel's hid-playstation driver, which makes a virtual DualSense a gamepad.
    package static func dualSenseDriver(_ facts: DualSenseDriverFacts) -> DoctorLine {
        guard let problem = facts.problem else {
            let how = facts.registered ? "loaded" : facts.builtIn ? "built in" : "a module udev loads with the pad"
            return DoctorLine("device.hid-playstation", .pass, "hid-playstation drives a virtual DualSense (\(how))")
        }
        return DoctorLine("device.hid-playstation", .warn, "only --gamepad needs it: " + problem)
    }

    /// The host renews a certificate that expires within 30 days at its next start.
    package static func certificate(_ state: CertificateState, path: String, now: Date) -> DoctorLine {
        switch state {
        case .missing:
            return DoctorLine("certificate", .warn, "no page certificate yet in \(path): the host makes one at its first start",
                              fix: "start the host once: `remotion host`")
        case .unreadable(let why):
            return DoctorLine("certificate", .fail, "the page certificate \(path) is unusable: \(why)",
                              fix: "delete \(path) and the web-key.pem beside it; the host issues new ones at its next start")
        case .present(let notAfter, let fingerprint):
            let day = ISO8601DateFormatter.string(from: notAfter, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
            let details = ["notAfter": day, "fingerprint": fingerprint]
            let days = Int(notAfter.timeIntervalSince(now) / 86_400)
            if notAfter <= now {
                return DoctorLine("certificate", .warn, "the page certificate expired on \(day) (fingerprint \(fingerprint))",
                                  fix: "restart the host: it issues a new one (phones keep trusting the CA)", details: details)
            }
            if days < 30 {
                return DoctorLine("certificate", .warn, "the page certificate expires on \(day), in \(days) days (fingerprint \(fingerprint))",
                                  fix: "restart the host: it renews certificates within 30 days of expiry", details: details)
            }
            return DoctorLine("certificate", .pass, "page certificate valid until \(day), fingerprint \(fingerprint)", details: details)
        }
    }

    package static func webRTC(_ availability: WebRTCAvailability, enabled: Bool) -> DoctorLine {
        guard enabled else { return DoctorLine("webrtc", .pass, "WebRTC data channels are off (--no-web-rtc or --no-web)") }
        switch availability {
        case .available:
            return DoctorLine("webrtc", .pass, "GStreamer WebRTC is present: phones use data channels")
        case .missing(let reason, let fix):
            return DoctorLine("webrtc", .warn, "GStreamer WebRTC is missing (\(reason)): phones fall back to the WebSocket", fix: fix)
        }
    }

    package static func unit(_ state: UnitState) -> DoctorLine {
        switch state {
        case .active: return DoctorLine("unit", .pass, "the user unit remotion-host is active")
        case .activating: return DoctorLine("unit", .pass, "the user unit remotion-host is starting")
        case .inactive:
            return DoctorLine("unit", .warn, "the user unit remotion-host is installed but not running",
                              fix: "systemctl --user enable --now remotion-host")
        case .failed:
            return DoctorLine("unit", .warn, "the user unit remotion-host failed",
                              fix: "read why with `journalctl --user -u remotion-host -e`, then `systemctl --user restart remotion-host`")
        case .notInstalled:
            return DoctorLine("unit", .warn, "no user unit remotion-host is installed (the host runs only when started by hand)",
                              fix: "bash scripts/install.sh, then `systemctl --user enable --now remotion-host`")
        case .noUserManager:
            return DoctorLine("unit", .warn, "no systemd user manager here: the user unit cannot be asked")
        }
    }

    /// One line per port the host binds: free, held by a running remotion, or taken.
    package static func port(id: String, what: String, proto: PortProtocol, ports: ClosedRange<Int>,
                             holders: [Int: PortHolder], flag: String, blocking: Bool) -> DoctorLine {
        let text = ports.count == 1 ? "\(ports.lowerBound)/\(proto.rawValue)"
            : "\(ports.lowerBound)-\(ports.upperBound)/\(proto.rawValue)"
        let taken = ports.compactMap { p in holders[p].map { (p, $0) } }
        let details = ["port": text]
        if taken.isEmpty { return DoctorLine(id, .pass, "\(what) \(text): free", details: details) }
        if let host = taken.first(where: { $0.1.isRemotion }), taken.allSatisfy({ $0.1.isRemotion }) {
            return DoctorLine(id, .pass, "\(what) \(text): held by a running remotion" + (host.1.pid.map { " (pid \($0))" } ?? ""),
                              details: details)
        }
        let (port, holder) = taken.first { !$0.1.isRemotion }!
        return DoctorLine(id, blocking ? .fail : .warn,
                          "\(what) \(port)/\(proto.rawValue) is taken by \(holder.text)",
                          fix: "stop it, or give the host another port: `remotion host \(flag) …`", details: details)
    }
}
