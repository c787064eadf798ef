// swift-tools-version:6.1
import PackageDescription

// Layers (docs/ARCHITECTURE.md), one folder each under Sources/:
//   Protocol/   RemotionProtocol   sans-IO: wire codec, session state machines, Noise, the
//                                  secure sessions, motion sources. Bytes, events and the
//                                  time in; bytes, events and the next deadline out.
//   HostLogic/  RemotionHostLogic  sans-IO: motion mapping and filters, input mapping and
//                                  config, the discovery model, terminal views.
//   Network/    RemotionNetwork    SwiftNIO adapters: UDP transport and its Noise framing.
//   System/     RemotionSystem     OS adapters: XTest, uinput, CGEvent, Avahi, Bonjour.
//   App/        RemotionApp        the host pipeline, the demo, the web dashboard.
//   CLI/        remotion           argument parsing and wiring only.
//   CLibraries/ system libraries (X11/XTest, Avahi, zlib, GStreamer webrtcbin + its C shim); Testing/ test support and fuzzers.
// The sans-IO targets import no NIO, no Glibc and no Foundation networking
// (scripts/check-layers.sh checks it in CI).
let nio: [Target.Dependency] = [
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "NIOPosix", package: "swift-nio"),
]
let package = Package(
    name: "Remotion",
    platforms: [.macOS(.v15)],
    products: [
        // RemotionProtocol: the wire format and the sans-IO state machines of both ends.
        // RemotionNetwork: the UDP transport of both ends over SwiftNIO (ClientService for a
        // controller, HostService for a host), Noise framing and the key store.
        .library(name: "RemotionProtocol", targets: ["RemotionProtocol"]),
        .library(name: "RemotionNetwork", targets: ["RemotionNetwork"]),
        .executable(name: "remotion", targets: ["remotion"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-numerics.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        // Without its default ConfigurationSupport trait: nothing here reads swift-configuration,
        // which would otherwise be compiled into every build (about 21,000 lines).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.0.0"),
        // Already built for Hummingbird: the phone's WebSocket is served by a NIO handler of
        // ours (HTTP/1 ↔ HTTPTypes codec for the pages beside it).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        // The web controller: TLS for the phone's page (secure context for motion sensors)
        // and the per-host local CA that issues its certificate.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    ],
    targets: [
        // MARK: sans-IO
        .target(name: "RemotionProtocol", dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "RealModule", package: "swift-numerics"),
        ], path: "Sources/Protocol"),
        .target(name: "RemotionHostLogic", dependencies: [
            "RemotionProtocol", "CZlib", .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "RealModule", package: "swift-numerics"),
        ], path: "Sources/HostLogic"),

        // MARK: adapters
        .target(name: "RemotionNetwork", dependencies: ["RemotionProtocol"] + nio, path: "Sources/Network"),
        .target(name: "RemotionSystem", dependencies: [
            "RemotionProtocol", "RemotionHostLogic",
            .target(name: "CX11", condition: .when(platforms: [.linux])),
            .target(name: "CAvahi", condition: .when(platforms: [.linux])),
            .target(name: "CDesktopNotify", condition: .when(platforms: [.linux])),
            .target(name: "CWayland", condition: .when(platforms: [.linux])),
            .target(name: "CLibEI", condition: .when(platforms: [.linux])),
            "CQREncode",
        ], path: "Sources/System"),
        .target(name: "RemotionApp", dependencies: [
            "RemotionProtocol", "RemotionHostLogic", "RemotionNetwork", "RemotionSystem",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "HummingbirdTLS", package: "hummingbird"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOTLS", package: "swift-nio"),      // TLSUserEvent (the connection guard)
            // The phone's WebSocket on its connection's loop (WebControllerChannel).
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Crypto", package: "swift-crypto"),
            .target(name: "CWebRTCPeer", condition: .when(platforms: [.linux])),
        ] + nio, path: "Sources/App", resources: [.copy("Dashboard/Resources"), .copy("Web/Page")]),
        .executableTarget(name: "remotion", dependencies: [
            "RemotionProtocol", "RemotionHostLogic", "RemotionNetwork", "RemotionSystem", "RemotionApp",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),   // the demo's Ctrl-C
        ] + nio, path: "Sources/CLI"),

        // MARK: system libraries
        .systemLibrary(name: "CZlib", path: "Sources/CLibraries/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(name: "CX11", path: "Sources/CLibraries/CX11", pkgConfig: "xtst",
                       providers: [.apt(["libx11-dev", "libxtst-dev"])]),
        .systemLibrary(name: "CAvahi", path: "Sources/CLibraries/CAvahi", pkgConfig: "avahi-client",
                       providers: [.apt(["libavahi-client-dev"])]),
        // The web controller's WebRTC data channels: GStreamer's webrtcbin (libnice ICE,
        // DTLS, SCTP) behind a small C shim (GLib's signal macros and variadic emitters do
        // not import into Swift). GStreamer is loaded at run time (gst_api.h): no -dev
        // package at build time, and the host runs without it (the page uses the WebSocket).
        .target(name: "CWebRTCPeer", path: "Sources/CLibraries/CWebRTCPeer",
                linkerSettings: [.linkedLibrary("dl")]),
        // Desktop notifications (a phone asks to pair: Accept / Deny) through GIO's GDBus,
        // loaded at run time like GStreamer: no -dev package, and a host with no session bus
        // runs without them.
        .target(name: "CDesktopNotify", path: "Sources/CLibraries/CDesktopNotify",
                linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
        // Injection on wlroots compositors (virtual pointer and keyboard protocols) through
        // libwayland-client, loaded at run time: no -dev package, the .deb's Depends unchanged.
        .target(name: "CWayland", path: "Sources/CLibraries/CWayland",
                linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
        // Injection through a compositor's EIS (GNOME, KDE) with libei, loaded at run time:
        // Debian 12 has no libei, and the .deb's Depends stay as they are.
        .target(name: "CLibEI", path: "Sources/CLibraries/CLibEI",
                linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
        .systemLibrary(name: "CQREncode", path: "Sources/CLibraries/CQREncode", pkgConfig: "libqrencode",
                       providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]),

        // MARK: testing: support (Xvfb, loopback helpers, the impairment relay), fuzzing
        .target(name: "RemotionTestSupport", dependencies: [
            "RemotionProtocol", .target(name: "CX11", condition: .when(platforms: [.linux])),
        ] + nio, path: "Sources/Testing/Support"),
        .target(name: "RemotionFuzzChecks", dependencies: ["RemotionProtocol"], path: "Sources/Testing/FuzzChecks"),
        .target(name: "RemotionGamepadFuzzChecks", dependencies: ["RemotionHostLogic", "RemotionFuzzChecks"],
                path: "Sources/Testing/GamepadFuzzChecks"),
        // The whole sans-IO host fuzzed: every origin's decoder into the pipeline with every output on.
        .target(name: "RemotionHostFuzzChecks", dependencies: ["RemotionHostLogic", "RemotionFuzzChecks"],
                path: "Sources/Testing/HostFuzzChecks"),
        // The libFuzzer targets, one executable for one sanitizer build; REMOTION_FUZZ_TARGET picks
        // one at start (docs/FUZZING.md; scripts/fuzz.sh builds it with --sanitize=fuzzer)
        .executableTarget(name: "FuzzTargets", dependencies: [
            "RemotionFuzzChecks", "RemotionGamepadFuzzChecks", "RemotionHostFuzzChecks", "RemotionHostLogic", "RemotionProtocol",
        ], path: "Sources/Testing/Fuzzers/FuzzTargets"),
        .executableTarget(name: "FuzzSeeds", dependencies: ["RemotionFuzzChecks"], path: "Sources/Testing/Fuzzers/FuzzSeeds"),
        // ns per motion sample, release mode (docs/BENCHMARKS.md)
        .executableTarget(name: "MotionBench", dependencies: ["RemotionHostLogic", "RemotionProtocol"],
                          path: "Sources/Testing/MotionBench"),
        // The benchmark's load: N controllers with real sessions, paced with sendmmsg (scripts/bench.sh).
        .executableTarget(name: "remotion-load", dependencies: ["RemotionProtocol", "RemotionNetwork", "CLoadSend"], path: "Sources/Testing/LoadSender"),
        // What SwiftNIO alone costs a UDP receiver: the benchmark's second floor (scripts/bench.sh, mode nio).
        .executableTarget(name: "remotion-nio-floor", dependencies: nio, path: "Sources/Testing/NIOFloor"),
        .target(name: "CLoadSend", path: "Sources/Testing/CLoadSend"),
        // The in-process core benchmark: ns and allocations per motion packet, plain and Noise (scripts/bench.sh).
        .executableTarget(name: "remotion-core-bench", dependencies: [
            "RemotionProtocol", "RemotionHostLogic", "RemotionNetwork", .product(name: "Crypto", package: "swift-crypto"),
        ] + nio, path: "Sources/Testing/CoreBench"),

        // MARK: tests, one target per library target
        .testTarget(name: "RemotionProtocolTests", dependencies: ["RemotionProtocol", "RemotionFuzzChecks"]),
        .testTarget(name: "RemotionHostLogicTests", dependencies: [
            "RemotionHostLogic", "RemotionProtocol", "RemotionGamepadFuzzChecks", "RemotionHostFuzzChecks", "CZlib", .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "RealModule", package: "swift-numerics"),
        ], exclude: ["UI/Golden"]),
        .testTarget(name: "RemotionNetworkTests", dependencies: [
            "RemotionNetwork", "RemotionProtocol", "RemotionTestSupport",
            .product(name: "NIOEmbedded", package: "swift-nio"),
        ] + nio),
        .testTarget(name: "RemotionSystemTests", dependencies: [
            "RemotionSystem", "RemotionHostLogic", "RemotionProtocol", "RemotionTestSupport",
            .target(name: "CX11", condition: .when(platforms: [.linux])),
        ]),
        .testTarget(name: "RemotionAppTests", dependencies: [
            "RemotionApp", "RemotionProtocol", "RemotionHostLogic", "RemotionNetwork", "RemotionSystem",
            "RemotionTestSupport",
            .target(name: "CX11", condition: .when(platforms: [.linux])),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ] + nio),
    ],
    swiftLanguageModes: [.v6]
)
