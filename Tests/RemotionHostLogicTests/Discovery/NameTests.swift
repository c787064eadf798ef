import Testing
@testable import RemotionHostLogic

@Suite struct ServiceTypeTests {
    @Test func defaultTypeIsRemotionUDP() {
        #expect(ServiceType.remotion.description == "_remotion._udp")
        #expect(ServiceType.remotion.transport == .udp)
    }

    @Test func parsesValidTypes() throws {
        let a = try ServiceType(parsing: "_remotion._udp")
        #expect(a == ServiceType.remotion)
        let b = try ServiceType(parsing: "_x-1._tcp.")
        #expect(b.name == "x-1" && b.transport == .tcp)
        #expect(try ServiceType(name: "abcdefghijklmno", transport: .udp).name.count == 15)
    }

    @Test(arguments: [
        ("", DiscoveryNameError.emptyServiceName),
        ("abcdefghijklmnop", .serviceNameTooLong("abcdefghijklmnop", length: 16)),
        ("re_motion", .serviceNameCharacter("re_motion", character: "_")),
        ("rémote", .serviceNameCharacter("rémote", character: "é")),
        ("1234", .serviceNameWithoutLetter("1234")),
        ("-remote", .serviceNameHyphenAtEnd("-remote")),
        ("remote-", .serviceNameHyphenAtEnd("remote-")),
        ("re--mote", .serviceNameDoubleHyphen("re--mote")),
    ])
    func rejectsBadServiceNames(name: String, expected: DiscoveryNameError) {
        #expect(throws: expected) { try ServiceType(name: name, transport: .udp) }
    }

    @Test func rejectsBadTypeSyntax() {
        #expect(throws: DiscoveryNameError.badTransport("_sctp")) { try ServiceType(parsing: "_remotion._sctp") }
        #expect(throws: DiscoveryNameError.self) { try ServiceType(parsing: "remotion._udp") }
        #expect(throws: DiscoveryNameError.self) { try ServiceType(parsing: "_remotion") }
        #expect(throws: DiscoveryNameError.self) { try ServiceType(parsing: "_a._b._udp") }
    }

    @Test func errorsSayWhatToChange() {
        #expect(DiscoveryNameError.serviceNameTooLong("x", length: 16).description.contains("at most 15"))
        #expect(DiscoveryNameError.badTransport("_sctp").description.contains("use _udp or _tcp"))
        #expect(DiscoveryNameError.instanceNameTooLong("x", bytes: 70).description.contains("at most 63 bytes"))
    }
}

@Suite struct InstanceNameTests {
    @Test func acceptsUTF8WithSpacesAndDots() throws {
        #expect(try InstanceName("Milan's Mac Pro. Büro 2").value == "Milan's Mac Pro. Büro 2")
        #expect(try InstanceName(String(repeating: "a", count: 63)).value.utf8.count == 63)
        // 21 three-byte characters = 63 bytes
        #expect(try InstanceName(String(repeating: "語", count: 21)).value.count == 21)
    }

    @Test func rejectsEmptyLongAndControl() {
        #expect(throws: DiscoveryNameError.emptyInstanceName) { try InstanceName("") }
        #expect(throws: DiscoveryNameError.instanceNameTooLong(String(repeating: "a", count: 64), bytes: 64)) {
            try InstanceName(String(repeating: "a", count: 64))
        }
        #expect(throws: DiscoveryNameError.instanceNameTooLong(String(repeating: "語", count: 22), bytes: 66)) {
            try InstanceName(String(repeating: "語", count: 22))
        }
        #expect(throws: DiscoveryNameError.instanceNameControlCharacter("a\tb", scalar: 9)) { try InstanceName("a\tb") }
        #expect(throws: DiscoveryNameError.instanceNameControlCharacter("a\u{7F}", scalar: 0x7F)) {
            try InstanceName("a\u{7F}")
        }
    }

    @Test func defaultNameFromHostName() {
        #expect(InstanceName.defaultName(hostName: "desk").value == "Remotion on desk")
        #expect(InstanceName.defaultName(hostName: "desk.example.org").value == "Remotion on desk")
        #expect(InstanceName.defaultName(hostName: "").value == "Remotion")
        #expect(InstanceName.defaultName(hostName: "bad\u{1}host").value == "Remotion on badhost")
    }

    @Test func defaultNameTruncatesOnCharacterBoundary() throws {
        // "Remotion on " is 12 bytes; 51 bytes left. 17 × "語" = 51 bytes fits exactly, 18th must go.
        let name = InstanceName.defaultName(hostName: String(repeating: "語", count: 30))
        #expect(name.value == "Remotion on " + String(repeating: "語", count: 17))
        #expect(name.value.utf8.count == 63)
        // Emoji with a skin tone modifier (8 bytes) is kept whole or dropped whole.
        let emoji = "👍🏽"
        let cut = InstanceName.defaultName(hostName: String(repeating: "x", count: 45) + emoji + emoji)
        #expect(cut.value == "Remotion on " + String(repeating: "x", count: 45))
        #expect(try InstanceName(cut.value) == cut)
    }
}
