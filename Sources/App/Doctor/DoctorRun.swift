import Crypto
import Foundation
import NIOCore
import RemotionHostLogic
import RemotionNetwork
import X509
#if os(Linux)
import Glibc
import RemotionSystem
#endif

/// `remotion doctor`: gathers the facts (DoctorProbes, Avahi, the data directory) for the
/// host as `remotion host` with the same flags would run, and asks the pure checks in
/// HostLogic/Doctor about them (docs/DOCTOR.md).
package enum DoctorRun {
    package struct Options: Sendable {
        package var bind = "::"
        package var port = 7474
        package var webPort: Int? = 7476
        package var rtcPorts: ClosedRange<Int>? = 7477...7486
        package var dashboardPort: Int? = 7475
        package var discovery = true
        package var instance: InstanceName
        package var inject: InjectorChoice = .auto
        /// --gamepad or [gamepad] asks for a virtual pad (through /dev/uhid).
        package var gamepad = false
        package var dataDirectory: URL
        package var environment: [String: String]
        /// How long the browse for the host's own announcement waits.
        package var browseSeconds: Double = 3

        package init(instance: InstanceName, dataDirectory: URL, environment: [String: String]) {
            self.instance = instance
            self.dataDirectory = dataDirectory
            self.environment = environment
        }
    }

    package static func run(_ o: Options) async -> DoctorReport {
        var lines: [DoctorLine] = []
        let interfaces = DoctorProbes.interfaces()
        let reachable = (try? SocketAddress(ipAddress: o.bind, port: 0)).map(SocketAddress.reachableAddresses(for:)) ?? [o.bind]
        let qr = reachable.first { !$0.contains(":") } ?? reachable.first ?? "127.0.0.1"
        let qrInterface = interfaces.first { $0.holds(qr) }
        lines.append(DoctorNetwork.qrLine(address: qr, webPort: o.webPort, controllerPort: o.port, bind: o.bind,
                                          interfaces: interfaces))

        // The firewall, for a phone on the QR interface's network sending its first packet.
        let firewall = DoctorProbes.firewall()
        let base = FirewallPacket(proto: .udp, port: 0, interface: qrInterface?.name, source: qrInterface?.network(of: qr),
                                  destination: IPv4Prefix(qr))
        if firewall.rulesets.isEmpty, let why = firewall.unreadable.first {
            lines.append(DoctorLine("firewall", .warn, "cannot read the firewall as this user (\(why))",
                                    fix: "run `sudo remotion doctor` to check the firewall"))
        } else {
            func ask(_ id: String, _ what: String, _ proto: PortProtocol, _ ports: ClosedRange<Int>, multicast: String? = nil) {
                var packet = base
                packet.proto = proto
                if let multicast { packet.destination = IPv4Prefix(multicast); packet.multicast = true }
                guard ports.lowerBound > 0 else {
                    lines.append(DoctorLine(id, .warn, "\(what): port 0 picks a free port at each start, so no firewall rule can be checked for it",
                                            fix: "give the host a fixed port"))
                    return
                }
                lines.append(firewall.line(id: id, what: what, ports: ports, packet: packet))
            }
            ask("firewall.controller", "controller port", .udp, o.port...o.port)
            if let web = o.webPort { ask("firewall.web", "page port", .tcp, web...web) }
            if let rtc = o.rtcPorts { ask("firewall.webrtc", "data-channel ports", .udp, rtc) }
            if o.discovery { ask("firewall.mdns", "mDNS", .udp, 5353...5353, multicast: "224.0.0.251") }
        }

        let udp = DoctorProbes.portHolders(.udp), tcp = DoctorProbes.portHolders(.tcp)
        let hostRunning = udp[o.port]?.isRemotion == true || o.webPort.map { tcp[$0]?.isRemotion == true } == true

        // DNS-SD: the daemon, and the host's own service seen from this machine.
        let (avahi, sighting) = await discovery(o, want: qrInterface?.name)
        lines.append(DoctorChecks.avahi(avahi, discovery: o.discovery))
        if o.discovery, case .running = avahi,
           let line = DoctorChecks.announcement(sighting, instance: o.instance.value, interface: qrInterface?.name,
                                                hostRunning: hostRunning) {
            lines.append(line)
        }

        // Injection.
        let uinput = DoctorProbes.access("/dev/uinput")
        let compositor = InjectorFactory.compositorFacts(o.environment)
        let facts = InjectorFacts(environment: o.environment, uinput: uinput, platform: InjectorFactory.platform,
                                  compositor: compositor, libei: InjectorFactory.libeiLibrary(),
                                  portal: InjectorFactory.portalFacts(o.environment))
        if let compositor {
            lines.append(DoctorChecks.compositor(compositor))
            if let laser = DoctorChecks.laser(compositor) { lines.append(laser) }
        }
        if let libei = DoctorChecks.libei(facts) { lines.append(libei) }
        let tokens = PortalTokenStore(directory: o.dataDirectory.path)
        if let portal = DoctorChecks.portal(facts, tokenStored: tokens.hasToken, tokenPath: tokens.path) { lines.append(portal) }
        lines.append(DoctorChecks.injector(o.inject, facts))
        lines.append(DoctorChecks.uinput(uinput, needed: InjectorSelection.decide(o.inject, facts).backend == .uinput))
        lines.append(DoctorChecks.uhid(DoctorProbes.access("/dev/uhid"), gamepad: o.gamepad,
                                       shippedRule: DoctorProbes.shippedUHIDRule()))
        #if os(Linux)
        lines.append(DoctorChecks.dualSenseDriver(UHIDDriverProbe.facts()))
        #endif

        if o.webPort != nil {
            let path = o.dataDirectory.appendingPathComponent(LocalCertificateAuthority.leafFile).path
            lines.append(DoctorChecks.certificate(certificate(at: path), path: path, now: Date()))
        }
        lines.append(DoctorChecks.webRTC(WebRTCRuntimeProbe.availability(), enabled: o.webPort != nil && o.rtcPorts != nil))
        lines.append(DoctorChecks.unit(DoctorProbes.unitState(environment: o.environment)))

        // Ports the host binds: taken by something else stops it (or a part of it).
        if o.port > 0 {
            lines.append(DoctorChecks.port(id: "ports.controller", what: "controller port", proto: .udp, ports: o.port...o.port,
                                           holders: udp, flag: "--port", blocking: true))
        }
        if let web = o.webPort, web > 0 {
            lines.append(DoctorChecks.port(id: "ports.web", what: "page port", proto: .tcp, ports: web...web,
                                           holders: tcp, flag: "--web-port", blocking: true))
        }
        if let rtc = o.rtcPorts, o.webPort != nil {
            lines.append(DoctorChecks.port(id: "ports.webrtc", what: "data-channel ports", proto: .udp, ports: rtc,
                                           holders: udp, flag: "--web-rtc-ports", blocking: false))
        }
        if let dashboard = o.dashboardPort, dashboard > 0 {
            lines.append(DoctorChecks.port(id: "ports.dashboard", what: "dashboard port", proto: .tcp, ports: dashboard...dashboard,
                                           holders: tcp, flag: "--dashboard-port", blocking: false))
        }
        return DoctorReport(lines: lines)
    }

    /// The avahi daemon's state and where a browse for `_remotion._udp` saw this host's name.
    /// The browse ends early once the name shows up on `want` (the QR code's interface).
    static func discovery(_ o: Options, want: String?) async -> (AvahiState, ServiceSighting?) {
        #if os(Linux)
        guard o.discovery else { return (.notRunning, nil) }
        let avahi = AvahiDiscovery()
        for _ in 0..<20 where !avahi.isDaemonRunning { try? await Task.sleep(for: .milliseconds(50)) }
        guard avahi.isDaemonRunning else { return (.notRunning, nil) }
        let state = AvahiState.running(hostName: avahi.daemonHostName)
        let name = o.instance.value
        let browse = Task {
            var found: [String] = []
            for await event in avahi.browse(type: .remotion) {
                guard case .added(let service) = event,
                      service.name == name || service.name.hasPrefix(name + " #") else { continue }
                // The name is read inside the buffer's scope: the pointer if_indextoname returns
                // is the buffer's own, valid only there.
                var buffer = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
                let ifname = buffer.withUnsafeMutableBufferPointer { b in
                    if_indextoname(UInt32(service.interfaceIndex), b.baseAddress).map { String(cString: $0) }
                } ?? "interface \(service.interfaceIndex)"
                if !found.contains(ifname) { found.append(ifname) }
                if Task.isCancelled || want == nil || ifname == want { break }
            }
            return found
        }
        let timer = Task { try? await Task.sleep(for: .seconds(o.browseSeconds)); browse.cancel() }
        let seen = await browse.value
        timer.cancel()
        return (state, seen.isEmpty ? .notSeen : .seen(seen))
        #else
        return (.notRunning, nil)
        #endif
    }

    static func certificate(at path: String) -> CertificateState {
        guard let data = FileManager.default.contents(atPath: path) else {
            return FileManager.default.fileExists(atPath: path) ? .unreadable("this user cannot read it") : .missing
        }
        do {
            let certificate = try Certificate(pemEncoded: String(decoding: data, as: UTF8.self))
            let der = try certificate.derBytes()
            return .present(notAfter: certificate.notValidAfter,
                            fingerprint: WebCertificates.displayFingerprint(Array(SHA256.hash(data: der))))
        } catch {
            return .unreadable("it is not a PEM certificate")
        }
    }
}
