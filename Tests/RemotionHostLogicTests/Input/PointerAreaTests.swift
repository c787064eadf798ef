import RemotionHostLogic
import Testing

/// What absolute motion covers as outputs come and go: the chosen output, else the layout.
@Suite struct PointerAreaTests {
    let one = PointerArea.Output(name: "HEADLESS-1", x: 0, y: 0, width: 1280, height: 720, scale: 1)
    let two = PointerArea.Output(name: "HEADLESS-2", x: 1280, y: 0, width: 512, height: 384, scale: 2)

    @Test func theChosenOutputElseTheLayoutsBoundingBox() {
        #expect(PointerArea.choose("HEADLESS-2", among: [one, two]) == .output(two))
        #expect(PointerArea.choose(nil, among: [one, two]) == .layout(width: 1792, height: 720))
        #expect(PointerArea.choose("HEADLESS-2", among: [one]) == .layout(width: 1280, height: 720))
        #expect(PointerArea.choose(nil, among: []).size.width == 1 && PointerArea.choose(nil, among: []).size.height == 1)
    }

    @Test func theChosenOutputDisabledAndBackIsOneLineEach() {
        let bound = PointerArea.choose("HEADLESS-2", among: [one, two])
        let gone = PointerArea.choose("HEADLESS-2", among: [one])
        let line = gone.change(from: bound, outputs: [one])
        #expect(line == "output \"HEADLESS-2\" is gone; the pointer covers the whole layout (1280x720) until it is back (outputs: HEADLESS-1 1280x720 at 0,0 scale 1)")
        let back = bound.change(from: gone, outputs: [one, two])
        #expect(back == "output \"HEADLESS-2\" is back; the pointer covers it again (HEADLESS-2 512x384 at 1280,0 scale 2)")
        #expect(bound.change(from: bound, outputs: [one, two]) == nil)
    }

    @Test func anOutputAddedToAnUnboundLayoutWidensIt() {
        let three = PointerArea.Output(name: "HEADLESS-3", x: 1792, y: 0, width: 800, height: 600, scale: 1)
        let before = PointerArea.choose(nil, among: [one, two]), after = PointerArea.choose(nil, among: [one, two, three])
        let line = after.change(from: before, outputs: [one, two, three])
        #expect(line?.hasPrefix("the outputs changed; the pointer covers the whole layout, now 2592x720") == true)
        // A change elsewhere that leaves the box as it was says nothing.
        #expect(before.change(from: PointerArea.choose(nil, among: [one, two]), outputs: [one, two]) == nil)
    }
}
