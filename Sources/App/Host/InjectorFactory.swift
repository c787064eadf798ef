import RemotionProtocol
import RemotionHostLogic
#if os(Linux)
import Glibc
import RemotionSystem
#endif
#if os(macOS)
import Darwin
#endif

/// Builds the injector backend the user asked for (`--inject`), explaining an `auto` pick.
package enum InjectorFactory {
    package enum Choice: String, CaseIterable, Sendable {
        case auto, xtest, uinput, cgevent, log, virtual
    }

    package struct Made {
        package var backend: any InjectorBackend
        /// Why this backend: the user's flag, or what `auto` looked at.
        package var reason: String
    }

    /// Opens the backend. Throws `InjectionError` with a message saying what to fix.
    package static func make(_ choice: Choice, environment: [String: String],
                            screen: ScreenGeometry = ScreenGeometry(width: 1920, height: 1080),
                            log: InjectionLogOutput = InjectionLogOutput()) throws(InjectionError) -> Made {
        switch choice {
        case .auto:
            // REMOTION_NO_UINPUT=1 makes auto pass over uinput (tests that must not inject for real).
            let uinput = environment["REMOTION_NO_UINPUT"] == nil && uinputWritable()
            let pick = InjectorSelection.auto(InjectorFacts(uinputWritable: uinput,
                                                            display: environment["DISPLAY"], isMacOS: isMacOS))
            let concrete = Choice(rawValue: pick.kind.rawValue) ?? .log
            var made = try make(concrete, environment: environment, screen: screen, log: log)
            made.reason = "auto: \(pick.reason)"
            return made
        case .log:
            return Made(backend: LogBackend(screen: screen, sink: log.line, flush: log.flush), reason: "--inject log")
        case .virtual:
            return Made(backend: VirtualScreenBackend(geometry: screen), reason: "--inject virtual")
        case .xtest:
            #if os(Linux)
            return Made(backend: try XTestBackend(displayName: environment["DISPLAY"]), reason: "--inject xtest")
            #else
            throw InjectionError(.unavailable, backend: "xtest", "XTest injection is built on Linux only")
            #endif
        case .uinput:
            #if os(Linux)
            return Made(backend: try UInputBackend(screen: screen), reason: "--inject uinput")
            #else
            throw InjectionError(.unavailable, backend: "uinput", "uinput injection exists on Linux only")
            #endif
        case .cgevent:
            #if os(macOS)
            return Made(backend: try CGEventBackend(), reason: "--inject cgevent")
            #else
            throw InjectionError(.unavailable, backend: "cgevent", "CGEvent injection exists on macOS only")
            #endif
        }
    }

    static var isMacOS: Bool {
        #if os(macOS)
        true
        #else
        false
        #endif
    }

    static func uinputWritable() -> Bool {
        #if os(Linux) || os(macOS)
        access("/dev/uinput", W_OK) == 0
        #else
        false
        #endif
    }
}
