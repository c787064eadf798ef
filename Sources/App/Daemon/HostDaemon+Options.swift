import Foundation
import RemotionHostLogic

extension HostDaemon {
    /// What `remotion host` was asked for, grouped by the subsystem that reads it (one
    /// group per service `Wiring.assemble` starts). Defaults are the command's.
    package struct Options: Sendable {
        /// The controllers' UDP socket and the sessions on it.
        package struct Controllers: Sendable {
            package var bind = "::"
            package var port = 7474
            /// Silence after which a session ends (its held input released).
            package var timeout: Duration = .milliseconds(2500)
            package var maximum = 16
            /// Plain datagrams, no pairing (`--insecure`).
            package var insecure = false
        }

        /// What is injected into the OS, and the mapping that decides it.
        package struct Injection: Sendable {
            package var choice: InjectorChoice = .auto
            package var environment: [String: String] = ProcessInfo.processInfo.environment
            /// The host's profile (button map and mapping settings) and where it is saved.
            package var profile = MappingProfile()
            package var configPath: String?
            /// The output absolute motion covers (`--output`, wlroots injector); nil: the whole layout.
            package var output: String?
            /// `output` came from `--output`: the command line decides, the dashboard cannot change it.
            package var outputFromCommandLine = false
            /// `[[profile]]`: the mapping while an application has the focus (docs/MOTION.md, "Profiles").
            package var profiles = FocusProfiles()
        }

        /// The phone page (HTTPS, WebSocket and WebRTC data channels).
        package struct Web: Sendable {
            /// nil: no web controller (`--no-web`).
            package var port: Int? = 7476
            /// The data channels' UDP ports (nil: WebSocket only).
            package var rtcPorts: ClosedRange<Int>? = 7477...7486
            /// Open a phone pairing window at start: nil decides (only when the terminal view
            /// is open and no phone is paired yet); true also when not interactive (the link
            /// then goes only to the 0600 ready file, never to stdout); false never.
            package var pairAtStart: Bool?
            /// Whether phones may type (their page's keyboard is a full keyboard): `--no-typing`.
            package var typing = true
        }

        /// DSU: apps the host reads controllers from, and the server it offers.
        package struct DSU: Sendable {
            package var sources: [DSUSourceConfig] = []
            package var serve: DSUEndpoint?
        }

        package var instance: InstanceName
        package var dataDirectory: URL
        package var controllers = Controllers()
        package var injection = Injection()
        package var web = Web()
        package var dsu = DSU()
        /// A virtual DualSense per controller (`--gamepad`, `[gamepad]`; docs/GAMEPAD.md); no pad
        /// by default. Gyro as a pad stick is in the profile (`injection.profile`, `gyro_stick.*`:
        /// `--gyro-stick` and `[gamepad] gyro` set the host's).
        package var gamepad = GamepadConfig()
        /// Where the virtual pads' reports go: /dev/uhid, or /dev/null for benchmarks only
        /// (`--gamepad-sink null`, hidden; `NullPadSink`: this machine has no /dev/uhid).
        package var gamepadSink = GamepadSink.uhid
        /// The gamepads plugged into this computer as controllers (`--local-pads`,
        /// `[local-pads]`; docs/LOCAL-PADS.md); off by default.
        package var localPads = LocalPadsConfig()
        /// nil: no dashboard (`--no-dashboard`).
        package var dashboardPort: Int? = 7475
        package var discovery = true
        package var readyFile: String?
        /// The readiness record and events as JSON lines on stdout (`--json`).
        package var json = false

        package init(instance: InstanceName, dataDirectory: URL) {
            self.instance = instance
            self.dataDirectory = dataDirectory
        }
    }
}

/// Where `--gamepad`'s pads write their reports.
package enum GamepadSink: String, Sendable, CaseIterable {
    /// A virtual DualSense per controller through /dev/uhid.
    case uhid
    /// Benchmarks only: the same pad code, each report written to /dev/null and timed
    /// (`NullPadSink`; scripts/bench-gamepad.sh).
    case null
}
