/// What `--inject auto` and `remotion doctor` know of the libei route: whether libei can be
/// loaded here (asked by the executable; nil when not asked).
package struct LibeiLibrary: Sendable, Hashable {
    /// Why libei.so.1 (or libxkbcommon) cannot be loaded; nil when it can.
    package var problem: String?

    package init(problem: String?) { self.problem = problem }

    package static let soname = "libei.so.1"
}

extension InjectorFacts {
    /// The EIS socket handed to the host, as the person would name it: `REMOTION_EIS_FD=N`
    /// (a descriptor it inherited) or `LIBEI_SOCKET=PATH`; nil when neither is set.
    /// (Whether the descriptor is an open socket is checked when the injector opens it.)
    package var eisSocket: String? {
        if let fd = environment[InjectorFacts.eisDescriptorVariable], !fd.isEmpty {
            return "\(InjectorFacts.eisDescriptorVariable)=\(fd.prefix(20))"
        }
        if let path = environment["LIBEI_SOCKET"], !path.isEmpty { return "LIBEI_SOCKET=\(path.prefix(200))" }
        return nil
    }

    /// `REMOTION_EIS_FD`: an EIS socket the host inherited (from the RemoteDesktop portal's
    /// or mutter's ConnectToEIS).
    package static let eisDescriptorVariable = "REMOTION_EIS_FD"

    /// GNOME or KDE on Wayland (XDG_CURRENT_DESKTOP names it): desktops whose compositor
    /// offers injection only through EIS (libei), or else uinput. Nil elsewhere.
    package var eisDesktop: String? {
        guard waylandSession != nil, let desktops = environment["XDG_CURRENT_DESKTOP"] else { return nil }
        for name in desktops.split(separator: ":") {
            let upper = name.uppercased()
            if upper == "GNOME" || upper == "KDE" { return String(name) }
        }
        return nil
    }

    /// libei can be used by `auto`: a socket is handed and the library loads.
    var libeiReady: Bool { eisSocket != nil && libei != nil && libei?.problem == nil }

    /// `auto` may ask the RemoteDesktop portal for a socket: none is handed, GNOME or KDE on
    /// Wayland, libei loads and the portal's RemoteDesktop is version 2 or later.
    var portalReady: Bool {
        eisSocket == nil && eisDesktop != nil && libei != nil && libei?.problem == nil && portal?.connectsToEIS == true
    }
}

/// What the session bus says of the RemoteDesktop portal (asked by the executable).
package struct PortalFacts: Sendable, Hashable {
    /// The RemoteDesktop interface's version; nil when there is no portal (`problem` says why).
    package var version: UInt32?
    package var problem: String?

    package init(version: UInt32?, problem: String?) {
        self.version = version
        self.problem = problem
    }

    /// Version 2 or later: ConnectToEIS and persist_mode.
    package var connectsToEIS: Bool { (version ?? 0) >= PortalRemoteDesktopFlow.minimumVersion }

    /// One clause: the portal as found.
    package var summary: String {
        if let version { return "the RemoteDesktop portal is version \(version)" }
        return "no RemoteDesktop portal (\(problem ?? "not asked"))"
    }
}
