// swift-tools-version:6.1
import PackageDescription

// Layers (docs/ARCHITECTURE.md):
//   pure core   RemotionCore, RemotionWire, RemotionSession, RemotionMotion, RemotionInput,
//               RemotionNoise, RemotionSources: bytes, events and the time in; bytes,
//               events and the next deadline out. No sockets, no Glibc, no clock.
//   adapters    RemotionTransport (SwiftNIO UDP), RemotionInject* (XTest, uinput,
//               CGEvent), RemotionApp (the host's pipeline and the demo)
//   executable  remotion: argument parsing and wiring only
let package = Package(
    name: "Remotion",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-numerics.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.0.0"),
    ],
    targets: [
        // MARK: pure core (no Foundation networking, no NIO sockets, no Glibc)
        .target(name: "RemotionCore"),
        .target(name: "RemotionWire", dependencies: ["RemotionCore"]),
        .target(name: "RemotionSession", dependencies: ["RemotionCore", "RemotionWire"]),
        .target(name: "RemotionMotion", dependencies: ["RemotionCore"]),
        .target(name: "RemotionInput", dependencies: ["RemotionCore"]),
        .target(name: "RemotionNoise", dependencies: [
            "RemotionCore", "RemotionWire", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .target(name: "RemotionSecureSession", dependencies: [
            "RemotionCore", "RemotionWire", "RemotionSession", "RemotionNoise",
        ]),
        .target(name: "RemotionSources", dependencies: [
            "RemotionCore", .product(name: "RealModule", package: "swift-numerics"),
        ]),

        .target(name: "RemotionDiscovery", dependencies: ["RemotionCore"]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "RemotionUI", dependencies: ["RemotionCore", "CZlib"]),

        // MARK: adapters (platform backends compile to nothing where they do not apply)
        .target(name: "RemotionTransport", dependencies: [
            "RemotionCore", "RemotionWire", "RemotionSession", "RemotionSources",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .target(name: "RemotionSecurity", dependencies: [
            "RemotionCore", "RemotionWire", "RemotionSession", "RemotionNoise", "RemotionSecureSession",
            "RemotionTransport",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .systemLibrary(name: "CX11", pkgConfig: "xtst", providers: [.apt(["libx11-dev", "libxtst-dev"])]),
        .target(name: "RemotionInjectX11", dependencies: [
            "RemotionInput", .target(name: "CX11", condition: .when(platforms: [.linux])),
        ]),
        .target(name: "RemotionInjectUInput", dependencies: ["RemotionInput"]),
        .target(name: "RemotionInjectCGEvent", dependencies: ["RemotionInput"]),
        .systemLibrary(name: "CAvahi", pkgConfig: "avahi-client", providers: [.apt(["libavahi-client-dev"])]),
        .target(name: "RemotionAvahi", dependencies: [
            "RemotionDiscovery", .target(name: "CAvahi", condition: .when(platforms: [.linux])),
        ]),
        // Apple backend (dns_sd); compiles to nothing on Linux. Untested so far.
        .target(name: "RemotionBonjour", dependencies: ["RemotionDiscovery"]),
        // test tooling: pure impairment scheduler + thin SwiftNIO UDP relay
        .target(name: "RemotionImpairment", dependencies: [
            "RemotionCore",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .target(name: "RemotionApp", dependencies: [
            "RemotionCore", "RemotionSession", "RemotionMotion", "RemotionInput", "RemotionSources",
            "RemotionTransport", "RemotionInjectX11", "RemotionInjectUInput", "RemotionInjectCGEvent", "RemotionUI",
            "RemotionDiscovery", "RemotionAvahi", "RemotionBonjour",
            "RemotionSecurity", "RemotionSecureSession", "RemotionNoise",
            .product(name: "Histogram", package: "hdrhistogram-swift"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),

        // web dashboard (Hummingbird): off the injection path, reads SnapshotPublisher
        .target(name: "RemotionDashboard", dependencies: [
            "RemotionApp", "RemotionMotion", "RemotionTransport",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], resources: [.copy("Resources")]),
        // test host for the browser test and the latency measurement (scripts/browser-test.sh)
        .executableTarget(name: "remotion-dashboard-demo", dependencies: [
            "RemotionDashboard", "RemotionApp", "RemotionCore", "RemotionInput", "RemotionMotion",
            "RemotionSession", "RemotionSources", "RemotionTransport",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
        ], path: "Sources/RemotionDashboardDemo"),

        // MARK: the executable
        .executableTarget(name: "remotion", dependencies: [
            "RemotionApp", "RemotionCore", "RemotionSession", "RemotionSources", "RemotionTransport",
            "RemotionInput", "RemotionMotion", "RemotionUI", "RemotionDiscovery",
            "RemotionSecurity", "RemotionSecureSession", "RemotionNoise", "RemotionDashboard",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),

        // MARK: fuzzing (docs/FUZZING.md; scripts/fuzz.sh builds these with --sanitize=fuzzer)
        .target(name: "WireFuzzChecks", dependencies: ["RemotionCore", "RemotionWire"]),
        .target(name: "NoiseFuzzChecks", dependencies: [
            "RemotionCore", "RemotionWire", "RemotionNoise", "WireFuzzChecks",
        ]),
        .executableTarget(name: "FuzzDatagram", dependencies: ["WireFuzzChecks"]),
        .executableTarget(name: "FuzzHandshake", dependencies: ["NoiseFuzzChecks"]),
        .executableTarget(name: "FuzzSeeds", dependencies: ["WireFuzzChecks", "NoiseFuzzChecks"]),

        // MARK: tests
        // Test support (a real Xvfb per test); linked only into test targets.
        .target(name: "RemotionTestSupport", dependencies: [
            .target(name: "CX11", condition: .when(platforms: [.linux])),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "RemotionWireTests", dependencies: ["RemotionWire"]),
        .testTarget(name: "FuzzChecksTests", dependencies: ["WireFuzzChecks", "NoiseFuzzChecks"]),
        .testTarget(name: "RemotionSessionTests", dependencies: ["RemotionSession"]),
        .testTarget(name: "RemotionMotionTests", dependencies: ["RemotionMotion"]),
        .testTarget(name: "RemotionNoiseTests", dependencies: ["RemotionNoise"]),
        .testTarget(name: "RemotionInputTests", dependencies: ["RemotionInput"]),
        .testTarget(name: "RemotionDiscoveryTests", dependencies: ["RemotionDiscovery"]),
        .testTarget(name: "RemotionAvahiTests", dependencies: ["RemotionAvahi", "RemotionDiscovery"]),
        .testTarget(name: "RemotionUITests", dependencies: ["RemotionUI", "CZlib"], exclude: ["Golden"]),
        .testTarget(name: "RemotionInjectX11Tests", dependencies: [
            "RemotionInjectX11", "RemotionTestSupport", .target(name: "CX11", condition: .when(platforms: [.linux])),
        ]),
        .testTarget(name: "RemotionAppTests", dependencies: [
            "RemotionApp", "RemotionTestSupport", "RemotionTransport", "RemotionSources", "RemotionMotion",
            "RemotionInput", "RemotionInjectX11", "RemotionSession", "RemotionImpairment",
            .target(name: "CX11", condition: .when(platforms: [.linux])),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        .testTarget(name: "RemotionInjectUInputTests", dependencies: ["RemotionInjectUInput"]),
        .testTarget(name: "RemotionImpairmentTests", dependencies: [
            "RemotionImpairment", "RemotionCore",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "RemotionSecurityTests", dependencies: [
            "RemotionSecurity", "RemotionTestSupport", "RemotionSecureSession", "RemotionNoise", "RemotionTransport", "RemotionSession",
            "RemotionSources", "RemotionWire", "RemotionCore",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "RemotionTransportTests", dependencies: [
            "RemotionTransport", "RemotionSession", "RemotionSources", "RemotionWire", "RemotionImpairment",
            "RemotionTestSupport",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "RemotionDashboardTests", dependencies: [
            "RemotionDashboard", "RemotionApp", "RemotionMotion",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
