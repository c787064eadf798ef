/// What the client streams once connected.
public struct StreamPlan: Sendable {
    public var source: any MotionSource
    /// Samples per second.
    public var rate: Double
    /// Stop after this many seconds of streaming (nil: until stopped, or the end of a replay).
    public var duration: Double?
    public var presses: PressScript
    /// Sticks and triggers sent with every sample (nil: the controller has none).
    public var analog: AnalogState?

    public init(source: any MotionSource, rate: Double, duration: Double?, presses: PressScript, analog: AnalogState? = nil) {
        self.source = source; self.rate = rate; self.duration = duration; self.presses = presses; self.analog = analog
    }
}
