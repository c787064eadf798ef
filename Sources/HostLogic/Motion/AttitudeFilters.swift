import RemotionProtocol

/// The seed's client-side attitude smoothing: a one-pole low-pass filter per axis,
///
///     out = raw · factor + out_prev · (1 - factor)
///
/// except that a yaw jump of more than π (the -π/π seam) resets yaw to the raw
/// value instead of filtering through the jump. The first sample passes through.
package struct SeedLowPassFilter: Sendable, Equatable {
    /// kFilteringFactor: the weight of the new sample, in (0, 1]. 1 disables filtering.
    package var factor: Double
    package private(set) var state: Attitude?

    package init(factor: Double = 0.1) {
        self.factor = factor
    }

    package mutating func filter(_ raw: Attitude) -> Attitude {
        guard let previous = state else {
            state = raw
            return raw
        }
        let k = factor
        var out = Attitude(
            roll: raw.roll * k + previous.roll * (1 - k),
            pitch: raw.pitch * k + previous.pitch * (1 - k),
            yaw: 0)
        if abs(raw.yaw - previous.yaw) > .pi {
            out.yaw = raw.yaw
        } else {
            out.yaw = raw.yaw * k + previous.yaw * (1 - k)
        }
        state = out
        return out
    }

    package mutating func reset() { state = nil }
}

/// Which smoothing the host applies to a controller's attitude before mapping.
package enum MotionFilter: Sendable, Equatable, Hashable {
    case none
    /// The seed's low-pass filter; `factor` is the weight of the new sample.
    case lowPass(factor: Double)
    /// The 1€ filter; cutoffs in Hz, beta in 1/(rad/s).
    case oneEuro(minCutoff: Double, beta: Double, dCutoff: Double)
}

/// The running state of the host-side attitude filter of one session.
package struct AttitudeFilter: Sendable, Equatable {
    package private(set) var choice: MotionFilter
    private var lowPass: SeedLowPassFilter?
    private var oneEuro: AttitudeOneEuroFilter?

    package init(_ choice: MotionFilter) {
        self.choice = choice
        switch choice {
        case .none: break
        case .lowPass(let factor): lowPass = SeedLowPassFilter(factor: factor)
        case let .oneEuro(minCutoff, beta, dCutoff):
            oneEuro = AttitudeOneEuroFilter(minCutoff: minCutoff, beta: beta, dCutoff: dCutoff)
        }
    }

    /// Filters `attitude` sampled at `time` seconds (the sample's own timestamp).
    package mutating func filter(_ attitude: Attitude, at time: Double) -> Attitude {
        if lowPass != nil { return lowPass!.filter(attitude) }
        if oneEuro != nil { return oneEuro!.filter(attitude, at: time) }
        return attitude
    }

    package mutating func reset() {
        lowPass?.reset()
        oneEuro?.reset()
    }
}
