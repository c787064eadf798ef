import Foundation
import RemotionHostLogic
import Testing

/// The doctor's other decisions, from facts (the adapters are exercised by scripts/doctor-test.sh).
@Suite struct DoctorChecksTests {
    let wired = DoctorInterface(name: "eth0", ipv4: [("192.168.1.10", 24)])
    let wifi = DoctorInterface(name: "wlan0", ipv4: [("192.168.2.7", 24)], wireless: true)
    let docker = DoctorInterface(name: "docker0", ipv4: [("172.17.0.1", 16)], virtual: true)
    let lo = DoctorInterface(name: "lo", ipv4: [("127.0.0.1", 8)], loopback: true)

    @Test func theQRLineWarnsWhenAnotherInterfaceLooksLikeTheWiFi() {
        let ok = DoctorNetwork.qrLine(address: "192.168.2.7", webPort: 7476, controllerPort: 7474, bind: "::", interfaces: [lo, wired, wifi])
        #expect(ok.status == .pass && ok.message.contains("https://192.168.2.7:7476") && ok.message.contains("wlan0, Wi-Fi"))
        let other = DoctorNetwork.qrLine(address: "192.168.1.10", webPort: 7476, controllerPort: 7474, bind: "::", interfaces: [lo, wired, wifi])
        #expect(other.status == .warn && other.message.contains("wlan0 (192.168.2.7) looks like the Wi-Fi"))
        #expect(other.fix == "if the phone is on that Wi-Fi: `remotion host --bind 192.168.2.7`")
        #expect(other.details["addresses"] == "192.168.1.10 (eth0), 192.168.2.7 (wlan0)")
        let virtual = DoctorNetwork.qrLine(address: "172.17.0.1", webPort: nil, controllerPort: 7474, bind: "::", interfaces: [lo, docker, wired])
        #expect(virtual.status == .warn && virtual.message.contains("virtual") && virtual.fix?.contains("192.168.1.10") == true)
        let loopback = DoctorNetwork.qrLine(address: "127.0.0.1", webPort: 7476, controllerPort: 7474, bind: "::", interfaces: [lo])
        #expect(loopback.status == .fail)
    }

    @Test func theInjectorLineReusesTheSelection() {
        let x11 = InjectorFacts(environment: ["DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"], uinput: .notWritable, platform: .linux)
        let line = DoctorChecks.injector(.auto, x11)
        #expect(line.status == .pass && line.details["injector"] == "xtest" && line.message.contains("X11 (DISPLAY=:0)"))
        let wayland = InjectorFacts(environment: ["WAYLAND_DISPLAY": "wayland-0"], uinput: .notWritable, platform: .linux)
        let w = DoctorChecks.injector(.auto, wayland)
        #expect(w.status == .fail && w.details["injector"] == "uinput" && w.fix?.contains("udev") == true)
        let none = DoctorChecks.injector(.auto, InjectorFacts(environment: [:], uinput: .missing, platform: .linux))
        #expect(none.status == .fail && none.message.contains("only be logged"))
        #expect(DoctorChecks.injector(.xtest, wayland).status == .warn)
        #expect(DoctorChecks.uinput(.notWritable, needed: true).status == .fail)
        #expect(DoctorChecks.uinput(.notWritable, needed: false).status == .warn)
    }

    /// The uhid grant is an opt-in file that is shipped, not installed: the fix names the
    /// one command that installs it (the shipped copy, else a checkout's install.sh).
    @Test func uhidNamesTheCommandThatInstallsItsOptInRule() {
        let deb = DoctorChecks.uhid(.notWritable, gamepad: true, shippedRule: "/usr/share/remotion/60-remotion-uhid.rules")
        #expect(deb.status == .fail && deb.message.contains("60-remotion-uhid.rules"))
        #expect(deb.fix == "sudo install -m644 /usr/share/remotion/60-remotion-uhid.rules /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger --sysname-match=uhid")
        let checkout = DoctorChecks.uhid(.notWritable, gamepad: true, shippedRule: nil)
        #expect(checkout.fix == "from a checkout: sudo bash scripts/install.sh --system --gamepad")
        #expect(DoctorChecks.uhid(.notWritable, gamepad: false, shippedRule: nil).status == .warn)
        #expect(DoctorChecks.uhid(.missing, gamepad: true, shippedRule: nil).status == .fail)
        #expect(DoctorChecks.uhid(.writable, gamepad: true, shippedRule: nil).status == .pass)
    }

    @Test func portsHeldByTheHostPassTakenOnesNameTheProgram() {
        let free = DoctorChecks.port(id: "p", what: "page port", proto: .tcp, ports: 7476...7476, holders: [:], flag: "--web-port", blocking: true)
        #expect(free.status == .pass)
        let host = DoctorChecks.port(id: "p", what: "page port", proto: .tcp, ports: 7476...7476,
                                     holders: [7476: PortHolder(pid: 42, command: "remotion")], flag: "--web-port", blocking: true)
        #expect(host.status == .pass && host.message.contains("pid 42"))
        let nginx = DoctorChecks.port(id: "p", what: "page port", proto: .tcp, ports: 7476...7476,
                                      holders: [7476: PortHolder(pid: 7, command: "nginx")], flag: "--web-port", blocking: true)
        #expect(nginx.status == .fail && nginx.message.contains("nginx (pid 7)") && nginx.fix?.contains("--web-port") == true)
        let rtc = DoctorChecks.port(id: "p", what: "data-channel ports", proto: .udp, ports: 7477...7486,
                                    holders: [7480: PortHolder(pid: nil, command: nil)], flag: "--web-rtc-ports", blocking: false)
        #expect(rtc.status == .warn && rtc.message.contains("7480/udp") && rtc.message.contains("another user"))
    }

    @Test func certificateExpiryAndFingerprint() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let fp = "1A2B-3C4D-5E6F-7081-92A3-B4C5-D6E7-F809"
        let good = DoctorChecks.certificate(.present(notAfter: now.addingTimeInterval(400 * 86_400), fingerprint: fp), path: "/d/web-cert.pem", now: now)
        #expect(good.status == .pass && good.message.contains(fp) && good.details["notAfter"] == "2028-02-19")
        let soon = DoctorChecks.certificate(.present(notAfter: now.addingTimeInterval(10 * 86_400), fingerprint: fp), path: "/d/web-cert.pem", now: now)
        #expect(soon.status == .warn && soon.message.contains("in 10 days"))
        let expired = DoctorChecks.certificate(.present(notAfter: now.addingTimeInterval(-86_400), fingerprint: fp), path: "/d/web-cert.pem", now: now)
        #expect(expired.status == .warn && expired.message.contains("expired"))
        #expect(DoctorChecks.certificate(.unreadable("not PEM"), path: "/d/web-cert.pem", now: now).status == .fail)
    }

    @Test func procNetListsBoundUDPAndListeningTCP() {
        let udp = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
             1193: 00000000:1D32 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 123456 2 0000000000000000 0
            """
        #expect(ProcNetSockets.bound(udp, tcp: false).map(\.port) == [7474])
        let tcp = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 00000000:1D34 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777 1 0000000000000000 100 0 0 10 0
               1: 0100007F:1D34 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 778 1 0000000000000000 20 4 30 10 -1
            """
        let listening = ProcNetSockets.bound(tcp, tcp: true)
        #expect(listening.count == 1 && listening[0].port == 7476 && listening[0].inode == 777)
    }

    @Test func theReportExitsOneOnlyOnAFailureAndItsJSONParses() throws {
        var report = DoctorReport(lines: [DoctorLine("a", .pass, "fine"), DoctorLine("b", .warn, "hm", fix: "x")])
        #expect(report.exitCode == 0 && report.text.hasSuffix("nothing stops a phone (1 to know about)\n"))
        report.lines.append(DoctorLine("c", .fail, "broken", fix: "do y", details: ["port": "7474/udp"]))
        #expect(report.exitCode == 1)
        #expect(report.text.contains("✗ broken — fix: do y"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false && (object["checks"] as? [[String: Any]])?.count == 3)
    }

    @Test func theLaserLineSaysWhetherTheCompositorHasTheLayerShell() {
        let sway = CompositorFacts(socket: "wayland-1", virtualInput: true,
                                   protocols: ["zwlr_virtual_pointer_manager_v1", "zwlr_layer_shell_v1"])
        let yes = DoctorChecks.laser(sway)
        #expect(yes?.status == .pass && yes?.message.contains("zwlr_layer_shell_v1") == true)
        let gnome = DoctorChecks.laser(CompositorFacts(socket: "wayland-0", virtualInput: false, protocols: []))
        #expect(gnome?.status == .warn && gnome?.message.contains("no layer shell") == true
                && gnome?.message.contains("moves the pointer") == true && gnome?.message.contains("\n") == false)
        #expect(DoctorChecks.laser(CompositorFacts(socket: "x", virtualInput: false, problem: "silent")) == nil)
    }
}
