import Testing
@testable import RemotionHostLogic

@Suite struct TXTRecordTests {
    @Test func encodesSortedDictionaryAndLowercasesKeys() throws {
        let record = try TXTRecord(["b": "2", "A": "1"])
        #expect(record.strings == ["a=1", "b=2"])
        #expect(record["A"] == "1")
        #expect(record.dictionary == ["a": "1", "b": "2"])
    }

    @Test func enforces255ByteEntries() throws {
        var record = TXTRecord()
        try record.set("k", String(repeating: "x", count: 253)) // 1 + 1 + 253 = 255
        #expect(throws: TXTError.entryTooLong(key: "k", bytes: 256)) {
            try record.set("k", String(repeating: "x", count: 254))
        }
        #expect(throws: TXTError.emptyKey) { try record.set("", "x") }
        #expect(throws: TXTError.keyCharacter(key: "a=b", scalar: 0x3D)) { try record.set("a=b", "x") }
        #expect(throws: TXTError.keyCharacter(key: "ä", scalar: 0xE4)) { try record.set("ä", "x") }
    }

    @Test func decodingIsTolerantAndFirstKeyWins() {
        let record = TXTRecord(decoding: ["v=1", "V=2", "=x", "flag", "caps=a=b"])
        #expect(record.strings == ["v=1", "flag=", "caps=a=b"])
        #expect(record["v"] == "1")
    }
}

@Suite struct HostTXTTests {
    @Test func roundTripsThroughStringsAndDictionary() throws {
        let txt = HostTXT(protocolVersion: 1, hostID: "SHA256:abc", capabilities: ["attitude", "gyro", "buttons16"],
                          extra: ["name": "desk"])
        let strings = try txt.strings()
        #expect(strings == ["v=1", "id=SHA256:abc", "caps=attitude,gyro,buttons16", "name=desk"])
        #expect(try HostTXT(strings: strings) == txt)
        #expect(try HostTXT(dictionary: txt.dictionary()) == txt)
    }

    @Test func minimalRecordFromAvahiPublish() throws {
        let txt = try HostTXT(strings: ["v=1"])
        #expect(txt.protocolVersion == 1 && txt.hostID == nil && txt.capabilities.isEmpty && txt.extra.isEmpty)
    }

    @Test func rejectsBadValues() {
        #expect(throws: TXTError.missingKey("v")) { try HostTXT(strings: ["id=x"]) }
        #expect(throws: TXTError.badValue(key: "v", value: "one", expected: "a decimal number 0-65535")) {
            try HostTXT(strings: ["v=one"])
        }
        #expect(throws: TXTError.self) { try HostTXT(strings: ["v=70000"]) }
        #expect(throws: TXTError.self) { try HostTXT(strings: ["v=1", "caps=gyro,,x"]) }
        #expect(throws: TXTError.self) { try HostTXT(protocolVersion: 1, capabilities: ["Gyro"]).record() }
        #expect(throws: TXTError.self) { try HostTXT(protocolVersion: 1, extra: ["V": "2"]).record() }
        #expect(throws: TXTError.entryTooLong(key: "id", bytes: 303)) {
            try HostTXT(protocolVersion: 1, hostID: String(repeating: "f", count: 300)).record()
        }
    }
}

@Suite struct TXTWireTests {
    @Test func encodesLengthPrefixedStrings() throws {
        let record = try HostTXT(protocolVersion: 1, hostID: "ab").record()
        #expect(record.wireBytes == [3] + Array("v=1".utf8) + [5] + Array("id=ab".utf8))
        #expect(TXTRecord(wireBytes: record.wireBytes) == record)
        #expect(TXTRecord().wireBytes == [0])
        #expect(TXTRecord(wireBytes: [0]).entries.isEmpty)
    }

    @Test func toleratesTruncatedRData() {
        let record = TXTRecord(wireBytes: [3] + Array("v=1".utf8) + [9, 0x61])
        #expect(record.strings == ["v=1"])
    }
}
