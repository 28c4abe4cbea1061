import Foundation

/// The query parameters of `POST /render`, checked and turned into `carender render` options.
/// Every value goes to carender as one `--name=value` argument (never split, never read as an
/// option of its own), so carender's own checks and messages apply (`--time`, `--size`, `--set`
/// …); its usage errors come back as 400 with its text. Unknown parameters are a 400 too, so
/// a typo is not silently ignored.
package struct RenderParameters: Sendable, Equatable {
    package var format: OutputFormat = .png
    package var kind: String?
    /// carender render options, each `--name=value`.
    package var options: [String] = []

    /// Parameters passed to carender under the same name (docs/CARENDER.md lists them).
    package static let passed: [String] = ["time", "frames", "fps", "size", "scale", "quality", "codec", "crf", "bitrate", "pix-fmt", "color", "set"]

    /// `pairs`: the query's name/value pairs in order (`set` repeats).
    package init(query pairs: [(String, String)]) throws(ServiceError) {
        for (name, value) in pairs {
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw .badRequest("\(name): control characters are not allowed in a parameter")
            }
            switch name {
            case "format":
                guard let f = OutputFormat(name: value) else {
                    throw .badRequest("format=\(value): unknown format; one of \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                format = f
            case "kind":
                kind = value
            case _ where Self.passed.contains(name):
                guard !value.isEmpty else { throw .badRequest("\(name)=: empty value") }
                options.append("--\(name)=\(value)")
            default:
                throw .badRequest("\(name): unknown parameter; known: format, kind, \(Self.passed.joined(separator: ", "))")
            }
        }
        if format.isStill, options.contains(where: { $0.hasPrefix("--frames=") || $0.hasPrefix("--fps=") }) {
            throw .badRequest("frames and fps are for video formats; a still takes time=SECONDS")
        }
        if !format.isStill, options.contains(where: { $0.hasPrefix("--time=") }) {
            throw .badRequest("time is for stills (png, jpeg, webp); a video takes frames=A..<B and fps")
        }
    }

    /// The `carender render` arguments: the document, the output file, these options, quiet.
    package func arguments(document: String, output: String, backend: String?) -> [String] {
        ["render", document, "-o", output, "--quiet"] + (backend.map { ["--backend=\($0)"] } ?? []) + options
    }
}
