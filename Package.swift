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
        .target(name: "RemotionInput", dependencies: ["RemotionCore"]),

        // MARK: injection adapters (each compiles to nothing where it does not apply)
        .systemLibrary(name: "CX11", pkgConfig: "xtst", providers: [.apt(["libx11-dev", "libxtst-dev"])]),
        .target(name: "RemotionInjectX11", dependencies: ["RemotionInput",
                .target(name: "CX11", condition: .when(platforms: [.linux]))]),
        .target(name: "RemotionInjectUInput", dependencies: ["RemotionInput"]),
        .target(name: "RemotionInjectCGEvent", dependencies: ["RemotionInput"]),

        // MARK: tests
        .testTarget(name: "RemotionWireTests", dependencies: ["RemotionWire"]),
        .testTarget(name: "RemotionInputTests", dependencies: ["RemotionInput"]),
        .testTarget(name: "RemotionInjectX11Tests", dependencies: ["RemotionInjectX11",
                    .target(name: "CX11", condition: .when(platforms: [.linux]))]),
        .testTarget(name: "RemotionInjectUInputTests", dependencies: ["RemotionInjectUInput"]),
    ],
    swiftLanguageModes: [.v6]
)
