import Testing
import Foundation

/// Golden-image comparison. References live in `Tests/RendererTests/Goldens/NAME.png`,
/// rendered on Mesa llvmpipe (deterministic there). A reference is written only on purpose:
///
///     CA_RECORD_GOLDENS=1 swift test --filter RendererTests
///
/// (`tools/record-goldens.sh` runs exactly that). Without the variable a missing reference is a
/// failure, never silently recorded. On a mismatch the actual image and a diff (red where a
/// channel differs by more than the threshold) are written to `.build/golden-failures/`.
enum Golden {
    struct Tolerance {
        /// Per-channel difference above which a pixel counts as different.
        var threshold: Int = 24
        /// Largest fraction of differing pixels that still passes.
        var fraction: Double = 0.002
        static let `default` = Tolerance()
    }

    static let goldensDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Goldens")

    static let failuresDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/golden-failures")

    static var isRecording: Bool { ProcessInfo.processInfo.environment["CA_RECORD_GOLDENS"] == "1" }

    /// Fraction of pixels whose largest channel difference exceeds `threshold`, and the diff image.
    static func compare(_ a: CGImage, _ b: CGImage, threshold: Int) -> (fraction: Double, diff: CGImage?) {
        guard a.width == b.width, a.height == b.height else { return (1, nil) }
        let pa = a.rgba8Bytes, pb = b.rgba8Bytes
        var bad = 0
        var diff = [UInt8](repeating: 0, count: pa.count)
        for i in stride(from: 0, to: pa.count, by: 4) {
            var m = 0
            for c in 0..<4 { m = max(m, abs(Int(pa[i + c]) - Int(pb[i + c]))) }
            if m > threshold {
                bad += 1
                diff[i] = 255; diff[i + 3] = 255
            } else {
                let g = UInt8(Int(pa[i + 1]) / 4)
                diff[i] = g; diff[i + 1] = g; diff[i + 2] = g; diff[i + 3] = 255
            }
        }
        return (Double(bad) / Double(a.width * a.height), CGImage(width: a.width, height: a.height, rgba8Bytes: diff, premultiplied: true))
    }

    static func expectMatches(_ image: CGImage, named name: String, tolerance: Tolerance = .default,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let url = goldensDirectory.appendingPathComponent("\(name).png")
        if isRecording {
            do {
                try FileManager.default.createDirectory(at: goldensDirectory, withIntermediateDirectories: true)
                try image.pngData()!.write(to: url)
            } catch {
                Issue.record("could not record \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let data = try? Data(contentsOf: url), let reference = CGImage(pngData: data) else {
            Issue.record("no golden image \(name).png; record it on purpose with CA_RECORD_GOLDENS=1 swift test --filter RendererTests",
                         sourceLocation: sourceLocation)
            return
        }
        let (fraction, diff) = compare(image, reference, threshold: tolerance.threshold)
        if fraction > tolerance.fraction {
            try? FileManager.default.createDirectory(at: failuresDirectory, withIntermediateDirectories: true)
            try? image.pngData()?.write(to: failuresDirectory.appendingPathComponent("\(name)-actual.png"))
            try? diff?.pngData()?.write(to: failuresDirectory.appendingPathComponent("\(name)-diff.png"))
            let message = "\(name): \(String(format: "%.3f", fraction * 100))% of pixels differ by more than "
                + "\(tolerance.threshold) (limit \(tolerance.fraction * 100)%); actual and diff in \(failuresDirectory.path)"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }
}
