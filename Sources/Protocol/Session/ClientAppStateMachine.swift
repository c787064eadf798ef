/// The seed's nine client states (menu, browsing, selecting, resolving, no service,
/// connecting, timeout, disconnected, connected) as a pure state machine. Discovery,
/// the connection and the motion source are driven through the actions it returns.
public struct ClientAppStateMachine<Address: Hashable & Sendable>: Sendable {
    public enum State: String, Sendable, CaseIterable {
        case menu, browsing, selecting, resolving, noService, connecting, timeout, disconnected, connected
    }

    public enum Event: Sendable, Equatable {
        /// The user asks to connect with discovery.
        case start
        /// The user gave addresses directly: skip discovery.
        case connectDirect([Address])
        /// The browser's live list of host names changed.
        case hostsChanged([String])
        case browseTimedOut
        /// The user picked a host (in `selecting`), or a name was given on the command line.
        case select(String)
        case resolved([Address])
        case resolveFailed
        case connectionSucceeded
        case connectionTimedOut
        case connectionLost
        /// The user goes back to the menu (cancel, or quit).
        case menu
    }

    public enum Action: Sendable, Equatable {
        case startBrowsing
        case stopBrowsing
        case showHosts([String])
        case resolve(String)
        case connect(Address)
        case disconnect
        case startMotion
        case stopMotion
    }

    public private(set) var state: State = .menu
    /// Addresses still to try for the chosen host, in order.
    public private(set) var pendingAddresses: [Address] = []
    /// When set, the browser picks this host by name instead of asking the user.
    public var preferredHost: String?

    public init(preferredHost: String? = nil) { self.preferredHost = preferredHost }

    public mutating func handle(_ event: Event) -> [Action] {
        switch (state, event) {
        case (.menu, .start), (.noService, .start), (.timeout, .start), (.disconnected, .start):
            state = .browsing
            return [.startBrowsing]
        case (.menu, .connectDirect(let addrs)), (.noService, .connectDirect(let addrs)),
             (.timeout, .connectDirect(let addrs)), (.disconnected, .connectDirect(let addrs)):
            pendingAddresses = addrs
            state = .resolving
            return switchToConnecting()
        case (.browsing, .hostsChanged(let names)), (.selecting, .hostsChanged(let names)):
            return hostsChanged(names)
        case (.browsing, .browseTimedOut):
            state = .noService
            return [.stopBrowsing]
        case (.selecting, .select(let name)), (.browsing, .select(let name)):
            state = .resolving
            return [.resolve(name)]
        case (.resolving, .resolved(let addrs)):
            pendingAddresses = addrs
            return [.stopBrowsing] + switchToConnecting()
        case (.resolving, .resolveFailed):
            state = .noService
            return [.stopBrowsing]
        case (.connecting, .connectionSucceeded):
            state = .connected
            pendingAddresses = []
            return [.startMotion]
        case (.connecting, .connectionTimedOut):
            if pendingAddresses.isEmpty {
                state = .timeout
                return [.disconnect]
            }
            return [.disconnect] + switchToConnecting()
        case (.connected, .connectionLost):
            state = .disconnected
            return [.stopMotion, .disconnect]
        case (_, .menu):
            return switchToMenu()
        default:
            return []
        }
    }

    /// Every (state, event) pair that changes something, for documentation and tests.
    public static func isLegal(_ state: State, _ event: Event) -> Bool {
        var m = ClientAppStateMachine()
        m.state = state
        let before = m
        let actions = m.handle(event)
        return !actions.isEmpty || m.state != before.state
    }

    private mutating func hostsChanged(_ names: [String]) -> [Action] {
        if let preferred = preferredHost {
            guard names.contains(preferred) else {
                state = .browsing
                return []
            }
            state = .resolving
            return [.resolve(preferred)]
        }
        switch names.count {
        case 0:
            state = .browsing
            return [.showHosts([])]
        case 1:
            state = .resolving
            return [.resolve(names[0])]
        default:
            state = .selecting
            return [.showHosts(names)]
        }
    }

    /// The seed's switchToConnectingState: only from resolving or connecting; takes the
    /// next address, or ends in no service when none is left.
    private mutating func switchToConnecting() -> [Action] {
        guard state == .resolving || state == .connecting else { return [] }
        guard !pendingAddresses.isEmpty else {
            state = .noService
            return []
        }
        state = .connecting
        return [.connect(pendingAddresses.removeFirst())]
    }

    /// The seed's switchToMenuState: stop what the current state started.
    private mutating func switchToMenu() -> [Action] {
        let actions: [Action]
        switch state {
        case .menu: actions = []
        case .browsing, .selecting, .resolving, .noService: actions = [.stopBrowsing]
        case .connecting, .timeout, .disconnected: actions = [.stopBrowsing, .disconnect]
        case .connected: actions = [.stopMotion, .disconnect]
        }
        state = .menu
        pendingAddresses = []
        return actions
    }
}
