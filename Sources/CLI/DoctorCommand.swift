import ArgumentParser
import Foundation
import RemotionApp
import RemotionHostLogic

/// `remotion doctor`: what stops a phone from reaching this host, one line per check
/// (docs/DOCTOR.md). It takes `remotion host`'s flags, so it checks the ports, interfaces and
/// injector that host would use; with no flags it reads them from the installed user unit's
/// ExecStart line when there is one.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check what stops a phone from connecting: addresses, firewall, avahi, injector, devices, certificate, ports.",
        usage: "remotion doctor [<remotion host's flags>] [--json]",
        discussion: "Takes the same flags as `remotion host`, and checks the host they would start (with none, the flags of the installed user unit's ExecStart). Here --json writes one JSON object to stdout. Exit status 0 when nothing blocks a phone, 1 otherwise.")

    @OptionGroup(title: "The host to check (remotion host's flags)")
    var host: HostCommand

    @Option(help: ArgumentHelp("Seconds to browse for the host's own DNS-SD announcement.", visibility: .hidden))
    var browseSeconds: Double = 3

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var host = self.host
        var from: String?
        if Self.noHostFlags(CommandLine.arguments), let (unit, arguments) = Self.unitArguments(environment: environment) {
            do {
                var parsed = try HostCommand.parse(arguments)
                parsed.json = host.json
                host = parsed
                from = unit
            } catch {
                printErr("remotion doctor: \(unit): ExecStart has flags remotion host does not take (\(oneLine(HostCommand.message(for: error)))); checking the defaults")
            }
        }
        // The config file is read as the host reads it: a broken one stops the host, so it is a problem here too.
        var configLine: DoctorLine?
        var filePad = false
        do {
            let loaded = try ConfigLoader.load(explicitPath: host.config, environment: environment)
            filePad = loaded.gamepad.pad != nil
            if let path = loaded.path {
                // An app that two profiles name: the first wins, the second never applies.
                if let shadow = loaded.profiles.shadowNotes(path: path).first {
                    configLine = DoctorLine("config", .warn, shadow)
                } else {
                    configLine = DoctorLine("config", .pass, "config \(path) reads cleanly")
                }
            }
        } catch {
            configLine = DoctorLine("config", .fail, "\(error)", fix: "fix the file, or start the host with another --config")
        }
        let machine = ProcessInfo.processInfo.hostName
        let instance: InstanceName
        do { instance = try host.name.map { try InstanceName($0) } ?? DiscoveryBackend.defaultInstanceName(hostName: machine) }
        catch { throw UserError("--name: \(error)") }
        var options = DoctorRun.Options(instance: instance, dataDirectory: dataDirectory(host.dataDir, environment: environment),
                                        environment: environment)
        options.bind = host.bind
        options.port = host.port
        options.webPort = host.noWeb ? nil : host.webPort
        options.rtcPorts = host.noWebRtc ? nil : WebControllerService.rtcPorts(host.webRtcPorts)
        options.dashboardPort = host.noDashboard ? nil : host.dashboardPort
        options.discovery = !host.noDiscovery
        options.inject = host.inject
        options.gamepad = host.gamepad.map { $0 != "none" } ?? filePad   // the flag wins, as in `remotion host`
        options.browseSeconds = browseSeconds
        var report = await DoctorRun.run(options)
        if let from { report.lines.insert(DoctorLine("flags", .pass, "checking the host as \(from) starts it"), at: 0) }
        if let configLine { report.lines.insert(configLine, at: from == nil ? 0 : 1) }
        FileHandle.standardOutput.write(Data((host.json ? report.json : report.text).utf8))
        // Exit 1 with the report as the only output (a thrown ExitCode would add an empty "remotion:" line).
        if report.exitCode != 0 { Foundation.exit(report.exitCode) }
    }

    /// True when nothing after `doctor` is a host flag (only --json / --browse-seconds).
    static func noHostFlags(_ arguments: [String]) -> Bool {
        guard let i = arguments.firstIndex(of: "doctor") else { return false }
        var k = i + 1
        while k < arguments.count {
            let a = arguments[k]
            if a == "--json" || a.hasPrefix("--browse-seconds=") { k += 1 } else if a == "--browse-seconds" { k += 2 } else { return false }
        }
        return true
    }

    /// The installed user unit's `ExecStart=… host FLAGS`: its path and FLAGS (split on spaces).
    static func unitArguments(environment: [String: String]) -> (String, [String])? {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let config = environment["XDG_CONFIG_HOME"] ?? home + "/.config"
        for dir in [config + "/systemd/user", "/etc/systemd/user", "/usr/local/lib/systemd/user", "/usr/lib/systemd/user"] {
            let path = dir + "/remotion-host.service"
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") where line.hasPrefix("ExecStart=") {
                let words = line.dropFirst("ExecStart=".count).split(separator: " ").map(String.init)
                guard let h = words.firstIndex(of: "host") else { continue }
                let flags = Array(words[(h + 1)...])
                return flags.isEmpty ? nil : (path, flags)
            }
        }
        return nil
    }
}
