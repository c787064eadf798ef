@testable import RemotionHostLogic
import Testing

@Suite struct ConfigUpdateTests {
    @Test func replacesAnExistingMappingLineAndKeepsTheRest() throws {
        let text = "# my config\n[buttons]\nA = \"left\"\n\n[mapping]\nsensitivity = 1.0 # was\nmode = \"pointer\"\n"
        let updated = HostConfig.updatingMapping(key: "sensitivity", value: "1.5", in: text)
        #expect(updated == "# my config\n[buttons]\nA = \"left\"\n\n[mapping]\nsensitivity = 1.5\nmode = \"pointer\"\n")
        let parsed = try HostConfig.parse(updated, path: "c.toml")
        #expect(parsed.mapping.map { "\($0.key)=\($0.value)" } == ["sensitivity=1.5", "mode=pointer"])
    }

    @Test func addsDottedKeysQuotedToTheMappingTable() throws {
        let text = "[mapping]\nmode = \"fps\"\n\n[buttons]\nB = \"right\"\n"
        let updated = HostConfig.updatingMapping(key: "pointer.fov_x", value: "45", in: text)
        let parsed = try HostConfig.parse(updated, path: "c.toml")
        #expect(parsed.mapping.map { "\($0.key)=\($0.value)" } == ["mode=fps", "pointer.fov_x=45"])
        let again = HostConfig.updatingMapping(key: "pointer.fov_x", value: "50", in: updated)
        #expect(try HostConfig.parse(again, path: "c.toml").mapping.map(\.value) == ["fps", "50"])
    }

    @Test func createsTheTableWhenMissingAndQuotesStrings() throws {
        let updated = HostConfig.updatingMapping(key: "filter", value: "one-euro", in: "")
        #expect(updated == "[mapping]\nfilter = \"one-euro\"\n")
        #expect(try HostConfig.parse(updated, path: "c.toml").mapping.first?.quoted == true)
    }
}
