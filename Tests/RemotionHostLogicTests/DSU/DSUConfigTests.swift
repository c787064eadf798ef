import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// `--dsu ADDR[:PORT]`, `--dsu-serve [ADDR:]PORT` and the `[[dsu]]` tables of config.toml.
@Suite struct DSUConfigTests {
    @Test(arguments: [
        ("192.168.1.20", "192.168.1.20", 26760),
        ("192.168.1.20:26761", "192.168.1.20", 26761),
        (" 10.0.0.2:1 ", "10.0.0.2", 1),
        ("[::1]:26762", "::1", 26762),
        ("[fe80::1]", "fe80::1", 26760),
        ("::1", "::1", 26760),
    ])
    func sourceAddresses(text: String, host: String, port: Int) throws {
        #expect(try DSUEndpoint.source(text) == DSUEndpoint(host: host, port: port))
    }

    @Test(arguments: ["", ":26760", "1.2.3.4:", "1.2.3.4:0", "1.2.3.4:65536", "1.2.3.4:x", "[::1", "[]:1", "[::1]x"])
    func badSourceAddressesSayWhatToWrite(text: String) {
        let error = #expect(throws: DSUEndpoint.ParseError.self) { try DSUEndpoint.source(text) }
        #expect(error?.message.isEmpty == false)
    }

    @Test(arguments: [
        ("26760", "127.0.0.1", 26760),
        ("0", "127.0.0.1", 0),
        ("0.0.0.0:26761", "0.0.0.0", 26761),
        ("[::1]:26762", "::1", 26762),
    ])
    func serverAddressesDefaultToLoopback(text: String, host: String, port: Int) throws {
        #expect(try DSUEndpoint.server(text) == DSUEndpoint(host: host, port: port))
    }

    @Test(arguments: ["", "host", "1.2.3.4", ":26760", "1.2.3.4:70000", "::1:26760"])
    func badServerAddresses(text: String) {
        #expect(throws: DSUEndpoint.ParseError.self) { try DSUEndpoint.server(text) }
    }

    @Test func loopbackIsRecognisedInEveryForm() {
        for h in ["127.0.0.1", "127.1.2.3", "::1", "0:0:0:0:0:0:0:1", "::0001", "::ffff:127.0.0.1"] {
            #expect(DSUEndpoint(host: h, port: 1).isLoopback, "\(h)")
        }
        for h in ["0.0.0.0", "192.168.1.2", "::", "1::", "fe80::1", "::2", "::ffff:10.0.0.1", "128.0.0.1"] {
            #expect(!DSUEndpoint(host: h, port: 1).isLoopback, "\(h)")
        }
        #expect(DSUEndpoint(host: "::1", port: 5).description == "[::1]:5")
        #expect(DSUEndpoint(host: "1.2.3.4", port: 5).description == "1.2.3.4:5")
    }

    @Test func configTablesBecomeSourcesInFileOrder() throws {
        let text = """
        [mapping]
        mode = "fps"

        [[dsu]]
        address = "192.168.1.20"
        home = "P"
        l3 = "none"

        [[dsu]]   # a second phone
        address = "[::1]:26761"
        """
        let config = try HostConfig.parse(text, path: "config.toml")
        #expect(config.dsuSources.count == 2)
        let first = config.dsuSources[0]
        #expect(first.endpoint == DSUEndpoint(host: "192.168.1.20", port: 26760))
        #expect(first.origin == "config.toml:4")
        #expect(first.buttonTable[.home] == .p && first.buttonTable[.l3] == nil)
        #expect(first.buttonTable[.cross] == .a)                        // the rest keeps the default
        #expect(config.dsuSources[1].endpoint == DSUEndpoint(host: "::1", port: 26761))
        #expect(config.dsuSources[1].buttonTable == .default)
        #expect(config.mapping.map(\.key) == ["mode"])
    }

    @Test(arguments: [
        ("[[dsu]]\nhome = \"P\"", "config.toml:1: [[dsu]] needs an address"),
        ("[[dsu]]\naddress = \"1.2.3.4:0\"", "config.toml:2: [[dsu]] address: '1.2.3.4:0': the port must be"),
        ("[[dsu]]\naddress = \"1.2.3.4\"\nhome = \"Q\"", "config.toml:3: [[dsu]] \"Q\" is not a Remotion button"),
        ("[[dsu]]\naddress = \"1.2.3.4\"\nthumb = \"A\"", "config.toml:3: [[dsu]] \"thumb\" is not a DSU button"),
        ("[[dsu]]\naddress = \"1.2.3.4\"\naddress = \"1.2.3.5\"", "config.toml:3: key \"address\" is set twice in this [[dsu]]"),
        ("[[dsu]]\naddress = 5", "config.toml:2: [[dsu]] address needs a quoted value"),
    ])
    func badTablesNameFileLineAndFix(text: String, expected: String) {
        let error = #expect(throws: ConfigError.self) { try HostConfig.parse(text, path: "config.toml") }
        #expect(error?.description.hasPrefix(expected) == true, "got: \(error?.description ?? "no error")")
    }

    @Test func theSameKeyInTwoElementsIsFine() throws {
        let config = try HostConfig.parse("[[dsu]]\naddress = \"1.1.1.1\"\n[[dsu]]\naddress = \"2.2.2.2\"\n", path: "c")
        #expect(config.dsuSources.map(\.endpoint.host) == ["1.1.1.1", "2.2.2.2"])
        #expect(config.dsuSources.map(\.origin) == ["c:1", "c:3"])
    }

    @Test func dashboardUpdatesLeaveDSUTablesAlone() throws {
        let text = "[[dsu]]\naddress = \"1.1.1.1\"\n"
        let updated = HostConfig.updatingMapping(key: "mode", value: "fps", in: text)
        let config = try HostConfig.parse(updated, path: "c")
        #expect(config.dsuSources.count == 1 && config.mapping.map(\.value) == ["fps"])
    }
}
