import RemotionHostLogic
import Testing

/// The laser dot on a layout of outputs: the output the point is on, the corner inside it.
@Suite struct LaserPlacementTests {
    // The sway stage's layout: 1280x720 at 0,0 and a scale-2 1024x768 (512x384 logical) at 1280,0.
    let layout = [LaserPlacement.Output(x: 0, y: 0, width: 1280, height: 720),
                  LaserPlacement.Output(x: 1280, y: 0, width: 512, height: 384)]

    @Test func aPointOnTheLayoutLandsOnTheOutputItIsOnWithTheDotCentredThere() {
        #expect(flat(LaserPlacement.place(x: 640, y: 360, outputs: layout, pinned: nil, diameter: 28)) == [0, 626, 346])
        #expect(flat(LaserPlacement.place(x: 1536, y: 192, outputs: layout, pinned: nil, diameter: 28)) == [1, 242, 178])
    }

    @Test func aPointBoundToOneOutputIsInThatOutputsPixels() {
        #expect(flat(LaserPlacement.place(x: 256, y: 192, outputs: layout, pinned: 1, diameter: 28)) == [1, 242, 178])
        #expect(flat(LaserPlacement.place(x: 1, y: 1, outputs: layout, pinned: 5, diameter: 28)) == nil)
    }

    @Test func offEveryOutputTheNearestTakesItAndTheDotStaysWhole() {
        // Below the smaller output, beside the larger one: HEADLESS-2's bottom edge is nearer.
        #expect(flat(LaserPlacement.place(x: 1600, y: 400, outputs: layout, pinned: nil, diameter: 28)) == [1, 320 - 14, 384 - 28])
        #expect(flat(LaserPlacement.place(x: -50, y: 5, outputs: layout, pinned: nil, diameter: 28)) == [0, 0, 0])
        #expect(flat(LaserPlacement.place(x: .max, y: 10, outputs: layout, pinned: nil, diameter: 28)) == [1, 512 - 28, 0])
    }

    @Test func aLayoutWithNegativeCornersIsCountedFromItsSmallestCorner() {
        let left = [LaserPlacement.Output(x: -800, y: -100, width: 800, height: 600),
                    LaserPlacement.Output(x: 0, y: 0, width: 1920, height: 1080)]
        // The injector's (0, 0) is the layout's (-800, -100): the left output's corner.
        #expect(flat(LaserPlacement.place(x: 14, y: 14, outputs: left, pinned: nil, diameter: 28)) == [0, 0, 0])
        #expect(flat(LaserPlacement.place(x: 900, y: 200, outputs: left, pinned: nil, diameter: 28)) == [1, 86, 86])
    }

    func flat(_ p: (output: Int, left: Int, top: Int)?) -> [Int]? { p.map { [$0.output, $0.left, $0.top] } }

    @Test func noOutputsNoPlace() {
        #expect(flat(LaserPlacement.place(x: 0, y: 0, outputs: [], pinned: nil, diameter: 28)) == nil)
    }
}
