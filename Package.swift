// swift-tools-version: 6.1
// A package for Linux (Debian 12, Swift 6.3): cameras through V4L2 (libv4l2), Bluetooth through BlueZ over D-Bus
// (libdbus-1), images through libjpeg, libpng, libwebp and libheif, the upload queue in SQLite, Apple Health exports
// through libxml2 and ISA-L. It is built and tested on Linux only, and its camera and Bluetooth modules cannot build
// anywhere else, so it declares no `platforms` (they set Apple deployment targets and do nothing on Linux).
// The Debian packages it needs (the list in .ci/run):
//   build:  libpng-dev libjpeg-dev libwebp-dev libheif-dev libv4l-dev libsqlite3-dev libdbus-1-dev libxml2-dev
//           libisal-dev pkg-config
//   tests:  dbus-daemon python3-dbus python3-gi (a private bus and the stand-in BlueZ of the Bluetooth tests),
//           chromium chromium-driver python3-selenium (the capture view's page in a real browser)
import PackageDescription

let package = Package(
    name: "VitalSnap",
    products: [
        .executable(name: "vitalsnap", targets: ["vitalsnap"]),
        .executable(name: "vitalsnap-scenes", targets: ["vitalsnap-scenes"]),
        // The camera reader, without the upload queue: VitalSnapOCR depends on VitalSnapRecords, not VitalSnapCore,
        // and a program that uses it links no SQLite (ModuleEdgeTests, Scripts/check-module-edges.sh).
        .library(name: "VitalSnapOCR", targets: ["VitalSnapOCR"]),
        .library(name: "VitalSnapImaging", targets: ["VitalSnapImaging"]),
        .library(name: "VitalSnapInference", targets: ["VitalSnapInference"]),
        .library(name: "VitalSnapCapture", targets: ["VitalSnapCapture"]),
        .library(name: "VitalSnapRecords", targets: ["VitalSnapRecords"]),
        .library(name: "VitalSnapCore", targets: ["VitalSnapCore"]),
        .library(name: "VitalSnapBluetooth", targets: ["VitalSnapBluetooth"]),
        .library(name: "VitalSnapHealth", targets: ["VitalSnapHealth"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // HTTP and WebSocket for the capture view (`vitalsnap read --view`) and the ingestion stand-in; without
        // Hummingbird's default traits (swift-configuration and full Foundation), which neither needs.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Named for the capture view and the ingestion stand-in, which use their types directly (header names, a
        // connection to close unanswered); Hummingbird brings both at these versions already.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // Named for the ingestion stand-in and the capture view, which stop their applications by a graceful
        // shutdown (ServiceGroup): cancelling one could leave a connection accepted but never served, whose writer
        // NIO traps on.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
    ],
    targets: [
        // C libraries, each behind a module map.
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CV4L2", pkgConfig: "libv4l2", providers: [.apt(["libv4l-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CIsal", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
        // setjmp/longjmp error paths and macros Swift cannot call live here.
        .target(name: "CImageCodecs", dependencies: ["CJPEG", "CPNG", "CWebP", "CHeif"]),
        // libv4l2's variadic calls (v4l2_open, v4l2_ioctl) and the VIDIOC_*/V4L2_PIX_FMT_* macros, fixed-arity.
        .target(name: "CCaptureShim", dependencies: ["CV4L2"]),
        // libxml2's streaming reader behind plain functions: its headers pull in ICU, which clashes with
        // Foundation's own ICU when imported into Swift.
        .target(name: "CHealthXML", dependencies: ["CLibXML2"]),

        .target(name: "VitalSnapImaging", dependencies: ["CImageCodecs"]),
        // Small convolutional networks read from safetensors files: SIMD kernels with scalar twins.
        .target(name: "VitalSnapInference", dependencies: ["CVectorKernels"]),
        // The convolution's interior with AVX2 and FMA, chosen at run time (Swift cannot target one function at them).
        .target(name: "CVectorKernels"),
        // The record types, their JSON, time and units: what a reader makes, without the queue's storage.
        .target(name: "VitalSnapRecords"),
        // The upload queue (SQLite), the session and the uploader.
        .target(
            name: "VitalSnapCore",
            dependencies: ["VitalSnapRecords", "CSQLite", .product(name: "Logging", package: "swift-log")]),
        // The peripheral definitions and overlay images, kept at the top of the repository.
        .target(name: "VitalSnapOverlays", path: "Overlays", resources: [.copy("peripherals")]),
        // The trained reader's model files and their model card, kept at the top of the repository.
        .target(name: "VitalSnapModels", path: "Models", exclude: ["README.md"], resources: [.copy("reader")]),
        .target(
            name: "VitalSnapOCR",
            dependencies: ["VitalSnapImaging", "VitalSnapInference", "VitalSnapRecords", "VitalSnapOverlays", "VitalSnapModels", .product(name: "Logging", package: "swift-log")]),
        // A loopback stand-in for the ingestion server, for tests, benchmarks and `vitalsnap serve-ingestion`, served
        // by Hummingbird like the capture view.
        .target(
            name: "VitalSnapIngestStub",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // The capture view: the camera, the peripheral's overlay and the partial reading in a local web page
        // (`vitalsnap read --view`), served on loopback by Hummingbird with its WebSocket upgrade.
        .target(
            name: "VitalSnapView",
            dependencies: [
                "VitalSnapOCR", "VitalSnapImaging",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Page")]),
        .target(name: "VitalSnapSamples", dependencies: ["VitalSnapImaging", "VitalSnapOCR"]),
        .target(name: "VitalSnapCapture", dependencies: ["VitalSnapImaging", "CCaptureShim"]),
        // Bluetooth LE health devices: the peripheral catalog, the GATT characteristics' decoders, BlueZ over
        // D-Bus (libdbus-1) and the controller that reads a device into the upload queue.
        .target(
            name: "VitalSnapBluetooth",
            dependencies: ["CDBus", "VitalSnapCore", "VitalSnapRecords", .product(name: "Logging", package: "swift-log")],
            resources: [.copy("Resources/ble-peripherals.json")]),
        // Apple Health exports: zip entries inflated as they are read (ISA-L's igzip), the XML streamed (libxml2's reader),
        // samples mapped to records and daily totals, subscriptions.
        .target(
            name: "VitalSnapHealth",
            dependencies: ["CHealthXML", "CIsal", "VitalSnapCore", "VitalSnapRecords", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "VitalSnapTrainingSetCommand",
            dependencies: ["VitalSnapSamples", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "vitalsnap-scenes", dependencies: ["VitalSnapTrainingSetCommand"]),
        .executableTarget(
            name: "vitalsnap",
            dependencies: [
                "VitalSnapOCR", "VitalSnapImaging", "VitalSnapRecords", "VitalSnapCore", "VitalSnapSamples", "VitalSnapIngestStub",
                "VitalSnapTrainingSetCommand",
                "VitalSnapCapture", "VitalSnapBluetooth", "VitalSnapHealth", "VitalSnapView",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .testTarget(name: "VitalSnapImagingTests", dependencies: ["VitalSnapImaging"]),
        .testTarget(name: "VitalSnapInferenceTests", dependencies: ["VitalSnapInference"], resources: [.copy("Fixtures")]),
        .testTarget(name: "VitalSnapRecordsTests", dependencies: ["VitalSnapRecords"]),
        .testTarget(name: "VitalSnapCoreTests", dependencies: ["VitalSnapCore", "VitalSnapRecords", "VitalSnapIngestStub"]),
        .testTarget(name: "VitalSnapIngestStubTests", dependencies: ["VitalSnapIngestStub", "VitalSnapCore", "VitalSnapRecords"]),
        .testTarget(name: "VitalSnapOCRTests", dependencies: ["VitalSnapOCR", "VitalSnapRecords", "VitalSnapSamples", "VitalSnapModels"]),
        .testTarget(name: "VitalSnapSamplesTests", dependencies: ["VitalSnapSamples"]),
        .testTarget(name: "VitalSnapViewTests", dependencies: ["VitalSnapView", "VitalSnapOCR", "VitalSnapImaging"]),
        // A private dbus-daemon and the stand-in BlueZ of Tests/Fixtures/bluez, for the Bluetooth and CLI tests.
        .target(name: "BlueZStandIn", dependencies: ["VitalSnapBluetooth"], path: "Tests/BlueZStandIn"),
        .testTarget(
            name: "VitalSnapBluetoothTests",
            dependencies: ["VitalSnapBluetooth", "VitalSnapCore", "VitalSnapRecords", "VitalSnapIngestStub", "BlueZStandIn"]),
        .testTarget(name: "VitalSnapHealthTests", dependencies: ["VitalSnapHealth", "VitalSnapCore", "VitalSnapRecords"]),
        .testTarget(name: "VitalSnapCaptureTests", dependencies: ["VitalSnapCapture", "VitalSnapImaging"]),
        .testTarget(
            name: "VitalSnapCLITests",
            dependencies: [
                "vitalsnap", "VitalSnapImaging", "VitalSnapRecords", "VitalSnapCore", "VitalSnapIngestStub", "VitalSnapBluetooth",
                "BlueZStandIn",
            ],
            // The browser driver the capture view's tests run (found by its path, not bundled).
            exclude: ["Browser"]),
        // The manifest's module edges (`swift package dump-package`): the reader links neither the queue nor SQLite.
        .testTarget(name: "ModuleEdgeTests"),
    ],
    swiftLanguageModes: [.v6]
)
