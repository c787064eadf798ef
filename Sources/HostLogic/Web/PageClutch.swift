import RemotionProtocol

/// The page's hold-to-aim, one for every web transport (WebSocket and data channel): once
/// the page's clutch has been held in a session, motion moves the pointer only while it is
/// held (JoyShockMapper's GYRO_ON); the frame's buttons stay the truth either way.
///
/// Not `GyroClutch`: that one is the host's `fps.clutch`, keyed to a controller button and
/// gating the FPS gyro inside the mapper; this one is a control on the page that gates every
/// mode, and a page that never uses it is not gated at all.
package struct PageClutch: Sendable, Equatable {
    private var used = false

    package init() {}

    /// `sample` as the mapper should see it: without its motion fields while the clutch is
    /// in use and released.
    package mutating func apply(_ sample: MotionSample, held: Bool) -> MotionSample {
        used = used || held
        guard used, !held else { return sample }
        var gated = sample
        gated.attitude = nil
        gated.gyro = nil
        gated.acceleration = nil
        return gated
    }
}
