import Foundation
import Testing
import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import RemotionTestSupport

@Suite struct MobileConfigTests {
    let start = Date(timeIntervalSince1970: 1_760_000_000)

    func parse(_ xml: String) throws -> [String: Any] {
        let object = try PropertyListSerialization.propertyList(from: Data(xml.utf8), options: [], format: nil)
        return try #require(object as? [String: Any])
    }

    @Test func profileCarriesTheCAAsARootPayload() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let certs = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "Studio <Mac>", addresses: [], now: start)
        let xml = LocalCertificateAuthority.mobileconfig(caDER: certs.caDER, hostname: "Studio <Mac>")
        let plist = try parse(xml)
        #expect(plist["PayloadType"] as? String == "Configuration")
        #expect(plist["PayloadVersion"] as? Int == 1)
        #expect(plist["PayloadIdentifier"] as? String == "local.remotion.web-ca.studio--mac")
        #expect(plist["PayloadDisplayName"] as? String == "Remotion local CA (Studio <Mac>)")
        let content = try #require(plist["PayloadContent"] as? [[String: Any]])
        #expect(content.count == 1)
        let root = content[0]
        #expect(root["PayloadType"] as? String == "com.apple.security.root")
        #expect((root["PayloadContent"] as? Data).map(Array.init) == certs.caDER)
        let uuids = [plist["PayloadUUID"] as? String, root["PayloadUUID"] as? String].compactMap { $0 }
        #expect(uuids.count == 2 && uuids[0] != uuids[1])
        for u in uuids { #expect(UUID(uuidString: u) != nil, "\(u)") }
    }

    @Test func identifiersAreStablePerCA() throws {
        let dirA = try TemporaryDirectory(); defer { dirA.remove() }
        let dirB = try TemporaryDirectory(); defer { dirB.remove() }
        let a = try LocalCertificateAuthority.loadOrCreate(directory: dirA.url, hostname: "studio", addresses: [], now: start)
        let b = try LocalCertificateAuthority.loadOrCreate(directory: dirB.url, hostname: "studio", addresses: [], now: start)
        let a1 = LocalCertificateAuthority.mobileconfig(caDER: a.caDER, hostname: "studio")
        let a2 = LocalCertificateAuthority.mobileconfig(caDER: a.caDER, hostname: "studio")
        #expect(a1 == a2)   // a re-download is byte-identical
        let pa = try parse(a1), pb = try parse(LocalCertificateAuthority.mobileconfig(caDER: b.caDER, hostname: "studio"))
        #expect(pa["PayloadUUID"] as? String != pb["PayloadUUID"] as? String)   // another CA, other UUIDs
        #expect(pa["PayloadIdentifier"] as? String == pb["PayloadIdentifier"] as? String)   // same host: replaces
    }
}
