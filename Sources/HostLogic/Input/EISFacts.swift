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
}
