import Testing
import RemotionProtocol
@testable import RemotionHostLogic

private func run(_ mode: GyroClutch.Mode, _ presses: [ButtonSet]) -> [Bool] {
    var clutch = GyroClutch(mode: mode)
    return presses.map { clutch.update(buttons: $0) }
}

private let up = ButtonSet.none
private let r = ButtonSet([.c])
private let other = ButtonSet([.a])
private let both = ButtonSet([.a, .c])

@Suite struct GyroClutchTests {
    @Test func always() {
        #expect(run(.always, [up, r, other, both]) == [true, true, true, true])
        #expect(GyroClutch(mode: .always).isEnabled)
    }

    @Test func holdToEnable() {
        #expect(!GyroClutch(mode: .holdToEnable(.c)).isEnabled)
        #expect(run(.holdToEnable(.c), [up, r, r, both, other, up]) == [false, true, true, true, false, false])
    }

    @Test func holdToDisable() {
        #expect(GyroClutch(mode: .holdToDisable(.c)).isEnabled)
        #expect(run(.holdToDisable(.c), [up, r, both, other, up]) == [true, false, false, true, true])
    }

    @Test func toggleFlipsOnEachPress() {
        #expect(run(.toggle(.c), [up, r, r, up, up, r, up, other, both, up])
                == [false, true, true, true, true, false, false, false, true, true])
    }

    @Test func toggleNeedsAnEdge() {
        // Held from the very first sample: not a press.
        #expect(run(.toggle(.c), [r, r, up, r]) == [false, false, false, true])
    }

    @Test func resetAndModeChange() {
        var clutch = GyroClutch(mode: .toggle(.c))
        clutch.update(buttons: up); clutch.update(buttons: r)
        #expect(clutch.isEnabled)
        clutch.reset()
        #expect(!clutch.isEnabled)
        clutch.update(buttons: up); clutch.update(buttons: r)
        #expect(clutch.isEnabled)
        clutch.mode = .toggle(.d)
        let toggledAfterChange = clutch.update(buttons: r)
        #expect(!toggledAfterChange)
        clutch.mode = .holdToDisable(.d)
        let heldOther = clutch.update(buttons: r)
        #expect(heldOther)
    }
}
