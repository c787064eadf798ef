import Testing
import RemotionCore
@testable import RemotionWire

@Suite struct RoundTripTests {
    @Test func pingIs25Bytes() throws {
        let d = PlainDatagram(session: SessionID(7), message: .ping(clientTimeMicros: 1, clockOffsetMicros: -2))
        #expect(d.encode().count == 25)
        #expect(try PlainDatagram.decode(d.encode()) == d)
    }
}
