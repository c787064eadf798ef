import ArgumentParser
import Foundation
import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import RemotionNetwork
import RemotionSystem

struct PairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Pair a controller with a host (run `remotion pair --listen` on the host, then `remotion pair CODE` on the controller).")

    @Argument(help: "The pairing code the host printed (controller side).")
    var code: String?

    @Flag(help: "Host side: open a pairing window and print a pairing code.")
    var listen = false

    @Flag(help: "Host side: open a new pairing window for a phone on the running host and show its QR code.")
    var web = false

    @Option(help: "Host side: address to listen on.")
    var bind = "::"

    @Option(help: "Host side: UDP port, when no `remotion host` runs (a running host pairs on its own port).")
    var port = 7474

    @Option(help: "Host side: the address:port to put in the code (default: the bound address; for a wildcard bind, this machine's first LAN address).")
    var advertise: String?

    @Option(help: "Seconds the pairing window stays open (host) or the controller waits (controller).")
    var window: Double = 120

    @Flag(help: "Host side: accept the controller without asking (for scripts).")
    var yes = false

    @Option(help: "Controller side: the name the host will list this controller under.")
    var name = ProcessInfo.processInfo.hostName

    @Option(help: "Key directory (default: $XDG_DATA_HOME/remotion, i.e. ~/.local/share/remotion).")
    var dataDir: String?

    func validate() throws {
        guard [listen, web, code != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("give one of --listen (host, a controller), --web (host, a phone) or a pairing code (controller)")
        }
        guard window >= 1, window <= 3600 else { throw ValidationError("--window must be between 1 and 3600 seconds") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
    }

    func run() async throws {
        let store = KeyStore(directory: dataDirectory(dataDir, environment: ProcessInfo.processInfo.environment))
        if web { try await runWeb(store: store) } else if listen { try await runHost(store: store) } else { try await runController(store: store) }
    }

    /// Asks the running host for a new phone pairing URL and shows it as a QR code.
    private func runWeb(store: KeyStore) async throws {
        let path = ControlServer.path(dataDirectory: store.directory)
        let client: ControlClient
        do { client = try await ControlClient.connect(path: path) } catch {
            throw UserError("no `remotion host` runs with data directory \(store.directory.path); start it (it shows a QR code itself)")
        }
        let response = try await client.send(ControlRequest("web-pair-window"))
        await client.close()
        guard response.ok, let url = response.string("url") else {
            throw UserError(response.error.map { "the host refused: \($0)" } ?? "the host has no web controller (it runs with --no-web)")
        }
        if isatty(STDOUT_FILENO) == 1, let qr = try? QRCode(text: url) { say(qr.terminalText()) }
        say("pair a phone: \(url)")
        if let ca = response.string("caSHA256") {
            say("the page's CA, SHA-256 (compare with the phone's certificate details before trusting it): \(ca)")
        }
        printErr("remotion pair: scan the code with the phone's camera; the link works once, for 5 minutes")
        // The link admits no one by itself: the phone waits for this computer's answer.
        guard isatty(STDIN_FILENO) == 1 || yes else {
            printErr("remotion pair: then accept the phone with `remotion devices --accept CODE-ID` (the host shows it)")
            return
        }
        guard let link = response.string("link") else { throw UserError("the host did not name the link (an older host?)") }
        try await answerOwnPhone(link: link, store: store)
    }

    /// Waits (for the window) for the phone that uses this command's own link — not another
    /// phone that asked with another link (the host's own QR code, the dashboard's) — shows
    /// who asks, and answers that request.
    private func answerOwnPhone(link: String, store: KeyStore) async throws {
        printErr("remotion pair: waiting for the phone to open the link …")
        let deadline = Date().addingTimeInterval(window)
        while Date() < deadline {
            if let phone = await WaitingPhones.fetch(dataDirectory: store.directory, link: link)?.first(where: { $0.link == link }) {
                let accept = yes ? true : await Task.detached {
                    say("phone \(DeviceListLines.phone(name: phone.name, address: phone.address)) asks to pair (code \(phone.code)).")
                    FileHandle.standardOutput.write(Data("Is this your phone? Accept? [y/N] ".utf8))
                    return readLine()?.lowercased().hasPrefix("y") ?? false
                }.value
                say(try await WaitingPhones.decide(reference: phone.reference, accept: accept, dataDirectory: store.directory))
                return
            }
            try await Task.sleep(for: .milliseconds(300))
        }
        throw UserError("no phone asked to pair within \(Int(window)) s")
    }

    private func runController(store: KeyStore) async throws {
        let parsed: PairingCode
        do { parsed = try PairingCode.parse(code ?? "") } catch { throw UserError(error.description) }
        let key: KeyPair
        do { key = try store.clientKey() } catch { throw UserError("\(error)") }
        printErr("remotion pair: this controller's fingerprint is \(KeyFingerprint.fingerprint(of: key.publicKey))")
        printErr("remotion pair: waiting for the host's user to confirm it ...")
        do {
            let hostKey = try await PairingConnector.pair(code: parsed, staticKey: key, name: name,
                                                          timeout: .secondsDouble(window))
            let entry = try store.addKnownHost(publicKey: hostKey, address: parsed.address)
            print("paired with host \(entry.fingerprint) at \(entry.lastAddress)")
        } catch {
            throw UserError("pairing failed: \(error)")
        }
    }

    private func runHost(store: KeyStore) async throws {
        // A running host opens the window on its own port (asked over its control socket).
        if try await PairThroughHost.run(socket: ControlServer.path(dataDirectory: store.directory),
                                         window: window, advertise: advertise, yes: yes) { return }
        let yes = self.yes
        let paired: PairedController?
        do {
            paired = try await PairingListener.run(
                store: store, bind: bind, port: port, window: window, advertise: advertise,
                opened: { opened in
                    say("host fingerprint: \(opened.hostFingerprint)")
                    say("pairing code (valid \(Int(window)) s, one controller; on the controller run `remotion pair CODE`):")
                    say(opened.code.description)
                },
                ask: { name, fingerprint in
                    yes ? true : await Task.detached { PairThroughHost.ask(name: name, fingerprint: fingerprint) }.value
                },
                refused: { say("refused; nothing was stored") })
        } catch let failure as PairingListener.Failure {
            throw UserError(failure.description)
        }
        guard let paired else { throw UserError("no controller paired within \(Int(window)) s") }
        say(DeviceListLines.pairedNow(name: paired.name, fingerprint: paired.fingerprint))
    }
}

struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices", abstract: "List paired controllers and web controllers (host side) and known hosts, or revoke one.")

    @Option(help: "Remove the paired controller (fingerprint, prefix or name) or web controller (id or name).")
    var revoke: String?

    @Option(help: "Let in the phone that waits as CODE-ID (the running host shows it when a phone asks to pair; `remotion devices` lists them).")
    var accept: String?

    @Option(help: "Refuse the phone that waits as CODE-ID.")
    var deny: String?

    @Option(help: "Let this web controller (id or name) type again: text, Return, Tab from its page.")
    var typing: String?

    @Option(help: "Take typing away from this web controller (id or name); its buttons still work. A running host applies it within a second.")
    var noTyping: String?

    @Option(help: "Key directory (default: $XDG_DATA_HOME/remotion, i.e. ~/.local/share/remotion).")
    var dataDir: String?

    func run() async throws {
        let store = KeyStore(directory: dataDirectory(dataDir, environment: ProcessInfo.processInfo.environment))
        if let reference = accept ?? deny {
            let answer = try await WaitingPhones.decide(reference: reference, accept: accept != nil, dataDirectory: store.directory)
            print(answer)
            return
        }
        do {
            let web = WebCredentialStore(directory: store.directory)
            if let what = typing ?? noTyping {
                let changed = try web.setTyping(what, allowed: typing != nil)
                guard !changed.isEmpty else { throw UserError("no web controller matches '\(what)' (see `remotion devices`)") }
                for d in changed { print(DeviceListLines.typing(id: d.id, name: d.name, mayType: d.mayType)) }
                return
            }
            if let revoke {
                let removed = try store.revoke(revoke)
                let removedWeb = try web.revoke(revoke)
                guard !removed.isEmpty || !removedWeb.isEmpty else {
                    throw UserError("no paired controller or web controller matches '\(revoke)' (see `remotion devices`)")
                }
                for r in removed { print(DeviceListLines.revokedController(name: r.name, fingerprint: r.fingerprint)) }
                for r in removedWeb { print(DeviceListLines.revokedWebController(name: r.name, id: r.id)) }
                return
            }
            let paired = try store.pairedControllers()
            print("paired controllers (\(paired.count)):")
            for p in paired { print(DeviceListLines.pairedController(fingerprint: p.fingerprint, name: p.name, pairedAt: p.pairedAt.formatted(.iso8601))) }
            let phones = try web.devices()
            print("web controllers (\(phones.count)):")
            for p in phones {
                print(DeviceListLines.webController(id: p.id, name: p.name, pairedAt: p.created.formatted(.iso8601), mayType: p.mayType))
            }
            for line in await WaitingPhones.list(dataDirectory: store.directory) { print(line) }
            let hosts = try store.knownHosts()
            print("known hosts (\(hosts.count)):")
            for h in hosts { print("  \(h.fingerprint)  \(h.lastAddress)  paired \(h.pairedAt.formatted(.iso8601))") }
        } catch let error as KeyStoreError {
            throw UserError(error.description)
        } catch let error as PrivateFileError {
            throw UserError(error.description)
        }
    }
}
