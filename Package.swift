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
        .package(url: "https://github.com/apple/swift-numerics.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // MARK: pure core (no Foundation networking, no NIO sockets, no Glibc)
        .target(name: "RemotionCore"),
        .target(name: "RemotionWire", dependencies: ["RemotionCore"]),
        .target(name: "RemotionSession", dependencies: ["RemotionCore", "RemotionWire"]),
        .target(name: "RemotionMotion", dependencies: ["RemotionCore"]),
        .target(name: "RemotionNoise", dependencies: [
            "RemotionCore", "RemotionWire", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .target(name: "RemotionSources", dependencies: [
            "RemotionCore", .product(name: "RealModule", package: "swift-numerics"),
        ]),

        // MARK: adapters
        .target(name: "RemotionTransport", dependencies: [
            "RemotionCore", "RemotionWire", "RemotionSession", "RemotionSources",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),

        // MARK: tests
        .testTarget(name: "RemotionWireTests", dependencies: ["RemotionWire"]),
        .testTarget(name: "RemotionSessionTests", dependencies: ["RemotionSession"]),
        .testTarget(name: "RemotionMotionTests", dependencies: ["RemotionMotion"]),
        .testTarget(name: "RemotionNoiseTests", dependencies: ["RemotionNoise"]),
        .testTarget(name: "RemotionTransportTests", dependencies: [
            "RemotionTransport", "RemotionSession", "RemotionSources", "RemotionWire",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
