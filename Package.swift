// swift-tools-version:6.1
import PackageDescription

// Layers (docs/ARCHITECTURE.md):
//   pure core   RemotionCore, RemotionWire, RemotionSession, RemotionMotion, ...
//   adapters    RemotionTransport (SwiftNIO), injectors, discovery backends, ...
//   executable  remotion (argument parsing and wiring only)
let package = Package(
    name: "Remotion",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
    ],
    targets: [
        // MARK: pure core (no Foundation networking, no NIO sockets, no Glibc)
        .target(name: "RemotionCore"),
        .target(name: "RemotionWire", dependencies: ["RemotionCore"]),
        .target(name: "RemotionDiscovery", dependencies: ["RemotionCore"]),

        // MARK: adapters
        .systemLibrary(
            name: "CAvahi",
            pkgConfig: "avahi-client",
            providers: [.apt(["libavahi-client-dev"])]
        ),
        .target(
            name: "RemotionAvahi",
            dependencies: [
                "RemotionDiscovery",
                .target(name: "CAvahi", condition: .when(platforms: [.linux])),
            ]
        ),
        // Apple backend (dns_sd); compiles to nothing on Linux. Untested so far.
        .target(name: "RemotionBonjour", dependencies: ["RemotionDiscovery"]),

        // MARK: tests
        .testTarget(name: "RemotionWireTests", dependencies: ["RemotionWire"]),
        .testTarget(name: "RemotionDiscoveryTests", dependencies: ["RemotionDiscovery"]),
        .testTarget(name: "RemotionAvahiTests", dependencies: ["RemotionAvahi", "RemotionDiscovery"]),
    ],
    swiftLanguageModes: [.v6]
)
