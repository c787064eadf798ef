import RemotionHostLogic
import RemotionProtocol
import Testing

/// The page's hold-to-aim, shared by the WebSocket and the data channel.
@Suite struct PageClutchTests {
    let sample = MotionSample(timestampMicros: 1, attitude: Attitude(roll: 0, pitch: 0.1, yaw: 0.2),
                              gyro: Vector3(x: 1, y: 2, z: 3), acceleration: Vector3(x: 0, y: 0, z: 1),
                              buttons: ButtonSet([.a]))

    @Test func aPageThatNeverHoldsItIsNotGated() {
        var clutch = PageClutch()
        #expect(clutch.apply(sample, held: false) == sample)
    }

    @Test func onceUsedMotionPassesOnlyWhileHeldAndButtonsAlways() {
        var clutch = PageClutch()
        #expect(clutch.apply(sample, held: true) == sample)
        let released = clutch.apply(sample, held: false)
        #expect(released.attitude == nil && released.gyro == nil && released.acceleration == nil)
        #expect(released.buttons == sample.buttons && released.timestampMicros == sample.timestampMicros)
        #expect(clutch.apply(sample, held: true) == sample)
    }
}
