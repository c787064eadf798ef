import Foundation
import NIOCore
import Synchronization
import RemotionHostLogic
#if os(Linux)
import Glibc
#endif

/// The doctor's adapters: each gathers one kind of fact from the system for the pure checks
/// in HostLogic/Doctor. None of them changes anything.
package enum DoctorProbes {
    /// Runs a program (found on PATH) with a bounded wait; nil when it is not installed.
    package static func run(_ program: String, _ arguments: [String], seconds: Double = 5) -> (status: Int32, out: String, err: String)? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin")
            .split(separator: ":").map { "\($0)/\(program)" } + ["/usr/sbin/\(program)", "/sbin/\(program)"]
        guard let executable = path.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let deadline = Date().addingTimeInterval(seconds)
        // Read while it runs (a full pipe would block it), then wait for it.
        let outData = ReadBox(), errData = ReadBox()
        let group = DispatchGroup()
        for (pipe, box) in [(out, outData), (err, errData)] {
            group.enter()
            DispatchQueue.global().async { box.set(pipe.fileHandleForReading.readDataToEndOfFile()); group.leave() }
        }
        while process.isRunning && Date() < deadline { usleep(10_000) }
        // SIGTERM, then SIGKILL: a child of the host inherits its ignored SIGTERM (the service
        // group's signal handling), and a wait for one that ignores it would never end.
        if process.isRunning { process.terminate() }
        let killAt = Date().addingTimeInterval(1)
        while process.isRunning && Date() < killAt { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        group.wait()
        return (process.terminationStatus, String(decoding: outData.get(), as: UTF8.self),
                String(decoding: errData.get(), as: UTF8.self))
    }

    /// What one reader thread read.
    private final class ReadBox: Sendable {
        private let data = Mutex(Data())
        func set(_ d: Data) { data.withLock { $0 = d } }
        func get() -> Data { data.withLock { $0 } }
    }

    // MARK: interfaces

    package static func interfaces() -> [DoctorInterface] {
        let devices = (try? System.enumerateDevices()) ?? []
        var order: [String] = []
        var byName: [String: DoctorInterface] = [:]
        for d in devices {
            let name = d.name
            if byName[name] == nil {
                order.append(name)
                let sys = "/sys/class/net/\(name)"
                let fm = FileManager.default
                let state = (try? String(contentsOfFile: sys + "/operstate", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                let flagsText = (try? String(contentsOfFile: sys + "/flags", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                let flags = flagsText.flatMap { Int($0.dropFirst(2), radix: 16) } ?? 0
                byName[name] = DoctorInterface(
                    name: name, ipv4: [], up: state == "up" || (state == "unknown" && flags & 1 != 0),
                    wireless: fm.fileExists(atPath: sys + "/wireless") || fm.fileExists(atPath: sys + "/phy80211"),
                    virtual: !fm.fileExists(atPath: sys + "/device"), loopback: name == "lo" || flags & 8 != 0)
            }
            guard let ip = d.address?.ipAddress else { continue }
            if d.address?.protocol == .inet {
                let mask = d.netmask?.ipAddress.flatMap(IPv4Prefix.parseAddress) ?? UInt32.max
                byName[name]?.ipv4.append((ip, mask.nonzeroBitCount))
            } else if d.address?.protocol == .inet6 {
                byName[name]?.ipv6.append(ip)
            }
        }
        return order.compactMap { byName[$0] }
    }

    // MARK: devices

    /// The shipped, not installed, uhid rule: PREFIX/share/remotion next to the binary's
    /// PREFIX/lib/remotion (the .deb: /usr; scripts/install.sh: its prefix), else nil.
    package static func shippedUHIDRule() -> String? {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? Bundle.main.executablePath ?? "/"
        let binary = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let prefix = binary.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [prefix.appendingPathComponent("share/remotion/\(DoctorChecks.uhidRuleFile)").path,
                          "/usr/share/remotion/\(DoctorChecks.uhidRuleFile)"]
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    package static func access(_ path: String) -> UInputAccess {
        #if os(Linux)
        if Glibc.access(path, W_OK) == 0 { return .writable }
        return errno == ENOENT ? .missing : .notWritable
        #else
        return .missing
        #endif
    }

    // MARK: the user unit

    package static func unitState(environment: [String: String]) -> UnitState {
        guard let result = run("systemctl", ["--user", "is-active", "remotion-host.service"]) else { return .noUserManager }
        let state = result.out.trimmingCharacters(in: .whitespacesAndNewlines)
        switch state {
        case "active", "reloading": return .active
        case "activating": return .activating
        case "failed": return .failed
        case "inactive", "deactivating":
            return unitInstalled(environment: environment) ? .inactive : .notInstalled
        default:
            // "Failed to connect to bus": no user manager (a container, ssh without lingering).
            return result.err.contains("bus") || state.isEmpty ? .noUserManager
                : (unitInstalled(environment: environment) ? .inactive : .notInstalled)
        }
    }

    static func unitInstalled(environment: [String: String]) -> Bool {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let config = environment["XDG_CONFIG_HOME"] ?? home + "/.config"
        return [config + "/systemd/user", "/etc/systemd/user", "/usr/lib/systemd/user", "/usr/local/lib/systemd/user"]
            .contains { FileManager.default.fileExists(atPath: $0 + "/remotion-host.service") }
    }

    // MARK: ports

    /// Who holds each bound port of `proto` (in this process's network namespace).
    package static func portHolders(_ proto: PortProtocol) -> [Int: PortHolder] {
        var inodes: [UInt64: Int] = [:]
        for file in ["/proc/net/\(proto.rawValue)", "/proc/net/\(proto.rawValue)6"] {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for entry in ProcNetSockets.bound(text, tcp: proto == .tcp) { inodes[entry.inode] = entry.port }
        }
        var holders: [Int: PortHolder] = [:]
        for port in Set(inodes.values) { holders[port] = PortHolder(pid: nil, command: nil) }
        guard !inodes.isEmpty, let pids = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return holders }
        for pidText in pids {
            guard let pid = Int(pidText), let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { continue }
            for fd in fds {
                guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
                      link.hasPrefix("socket:["), let inode = UInt64(link.dropFirst(8).dropLast()),
                      let port = inodes[inode] else { continue }
                let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                if holders[port]?.command == nil || holders[port]?.isRemotion == false {
                    holders[port] = PortHolder(pid: pid, command: comm)
                }
            }
        }
        return holders
    }

    // MARK: firewall

    /// nftables (`nft -j list ruleset`) and iptables (`iptables-save`) as far as this user
    /// may read them; ufw's state from its config.
    package static func firewall() -> FirewallCheck {
        var rulesets: [FirewallRuleset] = []
        var unreadable: [String] = []
        var iptables: FirewallRuleset?
        if let save = run("iptables-save", []) {
            if save.status == 0 {
                let r = IptablesRuleset.parse(save.out)
                if r.chains.contains(where: { !$0.rules.isEmpty || $0.policy == "drop" }) { iptables = r }
            } else {
                unreadable.append("iptables-save: " + firstLine(save.err))
            }
        }
        if let nft = run("nft", ["-j", "list", "ruleset"]) {
            if nft.status == 0, var r = try? NftRuleset.parse(nft.out) {
                // iptables-nft's own tables hold `xt` matches nft cannot show: iptables-save reads them.
                if iptables != nil {
                    let xtTables = Set(r.chains.filter { $0.rules.contains { $0.text.contains("xt …") } }.map { "\($0.family) \($0.table)" })
                    r.chains.removeAll { xtTables.contains("\($0.family) \($0.table)") }
                }
                rulesets.append(r)
            } else {
                unreadable.append("nft: " + firstLine(nft.err.isEmpty ? nft.out : nft.err))
            }
        }
        if let iptables { rulesets.append(iptables) }
        let ufwConfig = (try? String(contentsOfFile: "/etc/ufw/ufw.conf", encoding: .utf8)) ?? ""
        let ufwActive = ufwConfig.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "ENABLED=yes" }
        // A tool that could not be read makes the answer incomplete: say so rather than "no rules".
        return FirewallCheck(rulesets: unreadable.isEmpty ? rulesets : [], unreadable: unreadable, ufwActive: ufwActive)
    }

    static func firstLine(_ text: String) -> String {
        let line = text.split(separator: "\n").first.map(String.init) ?? "failed"
        return line.replacingOccurrences(of: "Error: ", with: "")
    }
}
