/// Every command of the host's control socket (docs/SECURITY.md §5), in one place. The
/// socket speaks names (`{"command":"web-pair-decide",…}`); the host answers by case.
package enum ControlCommand: String, CaseIterable, Sendable {
    /// Who the host is and where it listens.
    case status
    /// UDP controllers' pairing (`remotion pair --listen`, docs/SECURITY.md §3 and §5.1).
    case pairWindow = "pair-window", pairWait = "pair-wait", pairDecide = "pair-decide"
    /// Phones (docs/WEB-CONTROLLER.md): a pairing link, the counters, the phones waiting
    /// for the person at the computer, and the answer.
    case webPairWindow = "web-pair-window", webStats = "web-stats"
    case webPairRequests = "web-pair-requests", webPairDecide = "web-pair-decide"
}

/// The host's answer to each command, complete by construction: the switch in `handler`
/// names every case, and a host without pairing (`--insecure`) or without a web
/// controller still answers each of its commands, saying why not.
package struct ControlCommands: Sendable {
    package struct Pairing: Sendable {
        package var window: ControlHandler
        package var wait: ControlHandler
        package var decide: ControlHandler

        package init(window: @escaping ControlHandler, wait: @escaping ControlHandler, decide: @escaping ControlHandler) {
            self.window = window
            self.wait = wait
            self.decide = decide
        }

        /// A host with `--insecure` pairs nothing.
        package static var off: Pairing {
            let off: ControlHandler = { _, _ in .failure("the host runs with --insecure: no pairing (restart it without --insecure)") }
            return Pairing(window: off, wait: off, decide: off)
        }
    }

    package struct Web: Sendable {
        package var pairWindow: ControlHandler
        package var stats: ControlHandler
        package var pairRequests: ControlHandler
        package var pairDecide: ControlHandler

        package init(pairWindow: @escaping ControlHandler, stats: @escaping ControlHandler,
                     pairRequests: @escaping ControlHandler, pairDecide: @escaping ControlHandler) {
            self.pairWindow = pairWindow
            self.stats = stats
            self.pairRequests = pairRequests
            self.pairDecide = pairDecide
        }
    }

    package var status: ControlHandler
    package var pairing: Pairing
    /// nil: the web controller is off (`--no-web`) or could not start.
    package var web: Web?

    package init(status: @escaping ControlHandler, pairing: Pairing, web: Web?) {
        self.status = status
        self.pairing = pairing
        self.web = web
    }

    package func handler(for command: ControlCommand) -> ControlHandler {
        let webOff: ControlHandler = { _, _ in .failure("the web controller is off on this host (--no-web, or it could not start: see its output)") }
        switch command {
        case .status: return status
        case .pairWindow: return pairing.window
        case .pairWait: return pairing.wait
        case .pairDecide: return pairing.decide
        case .webPairWindow: return web?.pairWindow ?? webOff
        case .webStats: return web?.stats ?? webOff
        case .webPairRequests: return web?.pairRequests ?? webOff
        case .webPairDecide: return web?.pairDecide ?? webOff
        }
    }

    /// What the socket serves: every command by its name.
    package var byName: [String: ControlHandler] {
        Dictionary(uniqueKeysWithValues: ControlCommand.allCases.map { ($0.rawValue, handler(for: $0)) })
    }
}
