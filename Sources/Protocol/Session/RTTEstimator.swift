
/// Smoothed round-trip time and retransmission timeout, RFC 6298 style, with a floor
/// that suits a LAN (a phone on Wi-Fi answers in a few milliseconds; the kernel timer
/// and the host's own scheduling put a practical lower bound near 10 ms).
public struct RTTEstimator: Sendable {
    public struct Configuration: Sendable {
        public var initialRTO: Duration = .milliseconds(250)
        public var minimumRTO: Duration = .milliseconds(15)
        public var maximumRTO: Duration = .seconds(1)
        public init() {}
    }

    public let configuration: Configuration
    public private(set) var smoothed: Duration?
    public private(set) var variation: Duration = .zero
    public private(set) var latest: Duration?

    public init(configuration: Configuration = .init()) { self.configuration = configuration }

    /// Feeds one measured round trip (never from a retransmitted packet: Karn's rule).
    public mutating func addSample(_ rtt: Duration) {
        guard rtt >= .zero else { return }
        latest = rtt
        guard let srtt = smoothed else {
            smoothed = rtt
            variation = rtt / 2
            return
        }
        let deviation = srtt > rtt ? srtt - rtt : rtt - srtt
        variation = variation * 3 / 4 + deviation / 4
        smoothed = srtt * 7 / 8 + rtt / 8
    }

    /// The current retransmission timeout (before any back-off).
    public var retransmissionTimeout: Duration {
        guard let srtt = smoothed else { return configuration.initialRTO }
        let rto = srtt + max(.milliseconds(1), variation * 4)
        return min(configuration.maximumRTO, max(configuration.minimumRTO, rto))
    }
}
