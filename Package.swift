// swift-tools-version: 6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "weatherd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "weatherd", targets: ["weatherd"]),
        .executable(name: "weatherd-check-log", targets: ["weatherd-check-log"]),
    ],
    targets: [
        .target(name: "WeatherRuntime", swiftSettings: swiftSettings),
        .target(name: "WeatherWire", swiftSettings: swiftSettings),
        .target(name: "WeatherDomain", swiftSettings: swiftSettings),
        .target(name: "EventLog", dependencies: ["WeatherDomain", "WeatherRuntime"], swiftSettings: swiftSettings),
        .target(name: "Providers", dependencies: ["WeatherDomain", "WeatherRuntime"], swiftSettings: swiftSettings),
        .target(
            name: "WeatherEngine", dependencies: ["WeatherRuntime", "WeatherDomain", "EventLog", "Providers"],
            swiftSettings: swiftSettings),
        .target(
            name: "WeatherService",
            dependencies: ["WeatherRuntime", "WeatherWire", "WeatherDomain", "EventLog", "Providers", "WeatherEngine"],
            swiftSettings: swiftSettings),
        .target(
            name: "WeatherCLI",
            dependencies: [
                "WeatherRuntime", "WeatherWire", "WeatherDomain", "Providers", "WeatherEngine", "WeatherService",
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "WeatherTesting",
            dependencies: [
                "WeatherRuntime", "WeatherDomain", "EventLog", "Providers", "WeatherEngine", "WeatherService",
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "weatherd",
            dependencies: ["WeatherRuntime", "WeatherCLI", "WeatherService", "WeatherEngine", "Providers"],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "weatherd-check-log", dependencies: ["WeatherDomain", "WeatherTesting"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "weatherd-bench",
            dependencies: [
                "WeatherRuntime", "WeatherDomain", "EventLog", "WeatherEngine", "WeatherService", "WeatherTesting",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WeatherRuntimeTests",
            dependencies: ["WeatherRuntime", "WeatherTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "WeatherWireTests", dependencies: ["WeatherWire"], swiftSettings: swiftSettings),
        .testTarget(
            name: "WeatherDomainTests",
            dependencies: ["WeatherDomain", "WeatherTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EventLogTests",
            dependencies: ["EventLog", "WeatherTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProvidersTests",
            dependencies: ["Providers", "WeatherTesting"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WeatherServiceTests",
            dependencies: ["WeatherService", "WeatherWire", "WeatherEngine", "WeatherCLI", "WeatherTesting"],
            exclude: ["Golden", "Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["WeatherTesting", "EventLog", "weatherd"],
            exclude: ["MCPSchemas"],
            swiftSettings: swiftSettings
        ),
    ]
)
