import Testing
import RemotionTestSupport

@Suite struct ImpairmentProfileTests {
    @Test func parsesTheCompactForm() throws {
        let p = try ImpairmentProfile(parsing: "loss=30,dup=5,reorder=10,delay=5ms,jitter=2ms")
        #expect(p.lossPercent == 30)
        #expect(p.duplicatePercent == 5)
        #expect(p.reorderPercent == 10)
        #expect(p.delay == .milliseconds(5))
        #expect(p.jitter == .milliseconds(2))
        #expect(p.reorderExtraDelay == ImpairmentProfile.defaultReorderExtraDelay)
    }

    @Test func acceptsUnitsPercentSignsAliasesAndSpaces() throws {
        let p = try ImpairmentProfile(parsing: " Loss=2.5% , duplicate=1, gap=1.5ms, delay=250us, jitter=0 ")
        #expect(p.lossPercent == 2.5)
        #expect(p.duplicatePercent == 1)
        #expect(p.reorderExtraDelay == .microseconds(1500))
        #expect(p.delay == .microseconds(250))
        #expect(p.jitter == .zero)
        #expect(try ImpairmentProfile(parsing: "delay=1s").delay == .seconds(1))
        #expect(try ImpairmentProfile(parsing: "delay=7ns").delay == .nanoseconds(7))
    }

    @Test func emptyAndNoneAreClean() throws {
        #expect(try ImpairmentProfile(parsing: "") == .none)
        #expect(try ImpairmentProfile(parsing: "none") == .none)
        #expect(ImpairmentProfile.none.isClean)
    }

    @Test func descriptionRoundTrips() throws {
        let p = try ImpairmentProfile(parsing: "loss=30,dup=5,reorder=10,gap=20ms,delay=5ms,jitter=250us")
        #expect(try ImpairmentProfile(parsing: p.description) == p)
        #expect(ImpairmentProfile.none.description == "none")
    }

    @Test(arguments: [
        ("loss=30,,dup=1", ImpairmentProfileError.emptyItem(position: 2)),
        ("loss", .missingValue(key: "loss")),
        ("loss=", .missingValue(key: "loss")),
        ("lost=3", .unknownKey("lost")),
        ("loss=1,drop=2", .repeatedKey("loss")),
        ("loss=abc", .invalidPercent(key: "loss", text: "abc")),
        ("dup=101", .percentOutOfRange(key: "dup", value: 101)),
        ("reorder=-1", .percentOutOfRange(key: "reorder", value: -1)),
        ("delay=5", .invalidDuration(key: "delay", text: "5")),
        ("delay=5min", .invalidDuration(key: "delay", text: "5min")),
        ("jitter=-2ms", .negativeDuration(key: "jitter")),
    ])
    func refusesBadInputWithATypedError(text: String, expected: ImpairmentProfileError) {
        #expect(throws: expected) { try ImpairmentProfile(parsing: text) }
        #expect(!expected.description.isEmpty)
    }

    @Test func validatedChecksRanges() {
        #expect(throws: ImpairmentProfileError.percentOutOfRange(key: "loss", value: 150)) {
            try ImpairmentProfile(lossPercent: 150).validated()
        }
        #expect(throws: ImpairmentProfileError.negativeDuration(key: "delay")) {
            try ImpairmentProfile(delay: .milliseconds(-1)).validated()
        }
    }
}
