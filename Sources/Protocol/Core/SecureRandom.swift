/// The system's cryptographic generator (`SystemRandomNumberGenerator`: getrandom on Linux,
/// arc4random on macOS) as a value with storage, the generator every adapter hands the
/// sans-IO code (`inout some RandomNumberGenerator`).
///
/// Why not `SystemRandomNumberGenerator` itself: it is an empty type, and Swift 6.3 passes an
/// `inout` of an empty type across modules as a placeholder address; ThreadSanitizer's access
/// instrumentation reads the shadow of that address and stops on a SEGV before any race
/// report (seen in `ExternalControllers.open` and `SecureHost.init`, docs/benchmarks-history.md,
/// "Chasing the heap corruption"). One word of state (how many words were drawn) gives it a
/// real address; the words themselves are the system's.
public struct SecureRandom: RandomNumberGenerator, Sendable {
    private var system = SystemRandomNumberGenerator()
    /// Words drawn from the system so far.
    public private(set) var drawn: UInt64 = 0

    public init() {}

    public mutating func next() -> UInt64 {
        drawn &+= 1
        return system.next()
    }
}
