import ArgumentParser
import Foundation
import RemotionApp
import RemotionHostLogic

struct HostsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hosts",
        abstract: "List the Remotion hosts on the network (DNS-SD _remotion._udp), one line each.")

    @Option(help: "Seconds to listen.")
    var timeout: Double = 2

    @Flag(help: "One JSON object per host.")
    var json = false

    func validate() throws {
        guard timeout > 0, timeout <= 60 else { throw ValidationError("--timeout must be between 0 and 60 seconds") }
    }

    func run() async throws {
        guard let backend = DiscoveryBackend.make() else {
            throw UserError("discovery is not available on this platform")
        }
        let hosts = await HostFinder(browser: backend).resolvedHosts(for: .secondsDouble(timeout))
        for h in hosts.sorted(by: { $0.name < $1.name }) {
            let addresses = h.addresses.map(\.description)
            if json {
                let object: [String: Any] = ["name": h.name, "host": h.hostName, "port": Int(h.port),
                                             "addresses": addresses, "txt": h.txt.dictionary]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            } else {
                let txt = h.txt.dictionary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                print("\(h.name)\t\(addresses.joined(separator: ","))\tport \(h.port)\t\(txt)")
            }
        }
        if hosts.isEmpty && !json { printErr("remotion hosts: none found within \(timeout) s") }
    }
}
