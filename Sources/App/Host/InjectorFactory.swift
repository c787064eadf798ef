import RemotionProtocol
import RemotionHostLogic
#if os(Linux)
import Glibc
import RemotionSystem
#endif
#if os(macOS)
import Darwin
#endif

/// Opens the injector backend the user asked for (`--inject`). What to open is decided by
/// `InjectorSelection` (pure); this gathers its facts and opens the backend.
package enum InjectorFactory {
    package struct Made {
        package var backend: any InjectorBackend
        /// Why this backend: the user's flag, or what `auto` looked at; a warning (XTest on
        /// a Wayland session) is part of it, so it is shown once, at start-up.
        package var reason: String
    }

    /// `REMOTION_ECHO_INJECTED=1`: every injected event is also written to stdout as a JSON
    /// line (the `--inject log` format; `move_to` lines carry the screen they were mapped
    /// on), so a test can compare what the OS saw with what the host meant.
    package static let echoVariable = "REMOTION_ECHO_INJECTED"

    /// Opens the backend. Throws `InjectionError` with a message saying what to fix.
    /// `dataDirectory`: where the RemoteDesktop portal's restore token is kept (nil: `auto`
    /// does not ask the portal, and `--inject libei` asks it without keeping a token).
    package static func make(_ choice: InjectorChoice, environment: [String: String],
                            screen: ScreenGeometry = ScreenGeometry(width: 1920, height: 1080),
                            output: String? = nil,
                            log: InjectionLogOutput = InjectionLogOutput(),
                            dataDirectory: String? = nil) throws(InjectionError) -> Made {
        let compositor = choice == .auto ? compositorFacts(environment) : nil
        var facts = InjectorFacts(environment: environment, uinput: uinputAccess(), platform: platform,
                                  compositor: compositor)
        if choice == .auto, facts.eisSocket != nil { facts.libei = libeiLibrary() }
        if choice == .auto, facts.eisSocket == nil, facts.eisDesktop != nil, dataDirectory != nil {
            facts.libei = libeiLibrary()
            if facts.libei?.problem == nil { facts.portal = portalFacts(environment) }
        }
        var decision = InjectorSelection.decide(choice, facts)
        if let fix = decision.fix {
            throw InjectionError(.unavailable, backend: decision.backend.rawValue, fix)
        }
        var backend: any InjectorBackend
        var portalNote = ""
        if decision.backend == .libei, facts.eisSocket == nil {
            switch openThroughPortal(environment: environment, dataDirectory: dataDirectory) {
            case .success(let (made, note)):
                backend = made
                portalNote = "; \(note)"
            case .failure(let failure) where choice == .auto:
                decision = InjectorSelection.afterPortalFailure(facts, why: failure.message)
                if let fix = decision.fix { throw InjectionError(.unavailable, backend: decision.backend.rawValue, fix) }
                backend = try open(decision.backend, environment: environment, screen: screen, output: output, log: log)
            case .failure(let failure):
                throw failure
            }
        } else {
            backend = try open(decision.backend, environment: environment, screen: screen, output: output, log: log)
        }
        if environment[echoVariable] == "1", decision.backend != .log {
            backend = EchoingBackend(backend, sink: log.line, flush: log.flush)
        }
        let reason = decision.reason + portalNote + (decision.warning.map { "; \($0)" } ?? "")
        return Made(backend: backend, reason: reason)
    }

    /// The RemoteDesktop portal as the session bus shows it (nil off Linux).
    package static func portalFacts(_ environment: [String: String]) -> PortalFacts? {
        #if os(Linux)
        RemoteDesktopPortal.facts(environment: environment)
        #else
        nil
        #endif
    }

    /// libei on a socket from the RemoteDesktop portal, with the stored restore token (the
    /// person is asked once; the portal's new token replaces it). The injector and one clause
    /// on how it went, or the portal's one line.
    private static func openThroughPortal(environment: [String: String], dataDirectory: String?) -> Result<(any InjectorBackend, String), InjectionError> {
        #if os(Linux)
        // No consent asked for an injector that cannot open.
        if let problem = LibeiBackend.libraryProblem() { return .failure(InjectionError(.unavailable, backend: "libei", problem)) }
        let store = dataDirectory.map { PortalTokenStore(directory: $0) }
        let run = RemoteDesktopPortal.connect(environment: environment, storedToken: store?.load())
        var notes: [String] = []
        if let store, let problem = store.apply(run.outcome.token) { notes.append(problem) }
        if run.ignoredResponses > 0 {
            notes.append("\(run.ignoredResponses) Response signal(s) not from the portal on the awaited path ignored")
        }
        guard let socket = run.socket else {
            let failure = run.outcome.failure ?? .callFailed(step: "ConnectToEIS", message: "no socket")
            var line = failure.line
            if run.outcome.usedStoredToken, case .drop = run.outcome.token { line += "; the stored permission was dropped" }
            if !notes.isEmpty { line += " (\(notes.joined(separator: "; ")))" }
            return .failure(InjectionError(.unavailable, backend: "libei", line))
        }
        let how = run.outcome.usedStoredToken ? "the portal's permission stored at the last start was used"
            : "the desktop asked for permission"
        let kept: String
        switch run.outcome.token {
        case .store: kept = store.map { "remembered in \($0.path)" } ?? "not remembered (no data directory)"
        case .drop, .keep: kept = "not remembered: the desktop asks again next time"
        }
        notes.insert("the RemoteDesktop portal handed the EIS socket (\(how); \(kept))", at: 0)
        do throws(InjectionError) {
            return .success((try LibeiBackend(source: .descriptor(socket.fd), portal: socket.portal), notes.joined(separator: "; ")))
        } catch {
            return .failure(error)
        }
        #else
        _ = (environment, dataDirectory)
        return .failure(InjectionError(.unavailable, backend: "libei", "libei injection exists on Linux only"))
        #endif
    }

    private static func open(_ backend: InjectorChoice, environment: [String: String], screen: ScreenGeometry,
                             output: String?, log: InjectionLogOutput) throws(InjectionError) -> any InjectorBackend {
        switch backend {
        case .auto, .log:
            return LogBackend(screen: screen, sink: log.line, flush: log.flush)
        case .virtual:
            return VirtualScreenBackend(geometry: screen)
        case .xtest:
            #if os(Linux)
            return try XTestBackend(displayName: environment["DISPLAY"],
                                    keymapRecord: XTestBackend.keymapRecordPath(environment: environment,
                                                                                displayName: environment["DISPLAY"]))
            #else
            throw InjectionError(.unavailable, backend: "xtest", "XTest injection is built on Linux only")
            #endif
        case .uinput:
            #if os(Linux)
            return try UInputBackend(screen: screen)
            #else
            throw InjectionError(.unavailable, backend: "uinput", "uinput injection exists on Linux only")
            #endif
        case .wlroots:
            #if os(Linux)
            guard let socket = environment["WAYLAND_DISPLAY"], !socket.isEmpty else {
                throw InjectionError(.unavailable, backend: "wlroots",
                                     "WAYLAND_DISPLAY is not set: run the host inside the Wayland session (e.g. from sway's config or a terminal in it)")
            }
            return try WaylandBackend(display: socket, output: output)
            #else
            throw InjectionError(.unavailable, backend: "wlroots", "wlroots injection exists on Linux only")
            #endif
        case .libei:
            #if os(Linux)
            return try LibeiBackend(source: libeiSource(environment))
            #else
            throw InjectionError(.unavailable, backend: "libei", "libei injection exists on Linux only")
            #endif
        case .cgevent:
            #if os(macOS)
            return try CGEventBackend()
            #else
            throw InjectionError(.unavailable, backend: "cgevent", "CGEvent injection exists on macOS only")
            #endif
        }
    }

    /// `REMOTION_EIS_FD`: an EIS socket this process inherited (the launcher asked the
    /// compositor: the RemoteDesktop portal's or mutter's ConnectToEIS); else `LIBEI_SOCKET`,
    /// libei's own variable for a socket path.
    package static let eisDescriptorVariable = InjectorFacts.eisDescriptorVariable

    /// Whether libei.so.1 loads here (nil off Linux).
    package static func libeiLibrary() -> LibeiLibrary? {
        #if os(Linux)
        LibeiLibrary(problem: LibeiBackend.libraryProblem())
        #else
        nil
        #endif
    }

    #if os(Linux)
    static func libeiSource(_ environment: [String: String]) throws(InjectionError) -> LibeiSource {
        if let text = environment[eisDescriptorVariable] {
            guard let fd = Int32(text), fd > 2, isSocket(fd) else {
                throw InjectionError(.unavailable, backend: "libei",
                                     "\(eisDescriptorVariable)=\(text.prefix(20)) is not an open socket of this process: hand the EIS socket down as an inherited descriptor")
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            return .descriptor(fd)
        }
        if let path = environment["LIBEI_SOCKET"], !path.isEmpty { return .socket(path) }
        throw InjectionError(.unavailable, backend: "libei",
                             "no EIS socket: start the host with \(eisDescriptorVariable) (a socket from the RemoteDesktop portal's ConnectToEIS) or LIBEI_SOCKET (docs/INJECTION.md, \"libei\")")
    }

    private static func isSocket(_ fd: Int32) -> Bool {
        var st = stat()
        return fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK
    }
    #endif

    static var platform: InjectorPlatform {
        #if os(Linux)
        .linux
        #elseif os(macOS)
        .macOS
        #else
        .other
        #endif
    }

    /// What the compositor at WAYLAND_DISPLAY offers (nil: no WAYLAND_DISPLAY, or not Linux).
    package static func compositorFacts(_ environment: [String: String]) -> CompositorFacts? {
        #if os(Linux)
        guard let socket = environment["WAYLAND_DISPLAY"], !socket.isEmpty else { return nil }
        switch WaylandProbe.read(display: socket) {
        case .success(let probe):
            return CompositorFacts(socket: socket, virtualInput: probe.hasVirtualInput, protocols: probe.inputProtocols,
                                   outputs: probe.outputs.map(\.description))
        case .failure(let e): return CompositorFacts(socket: socket, virtualInput: false, problem: e.message)
        }
        #else
        return nil
        #endif
    }

    /// Whether /dev/uinput exists and this process may write it.
    static func uinputAccess() -> UInputAccess {
        #if os(Linux) || os(macOS)
        if access("/dev/uinput", W_OK) == 0 { return .writable }
        return errno == ENOENT ? .missing : .notWritable
        #else
        .missing
        #endif
    }
}
