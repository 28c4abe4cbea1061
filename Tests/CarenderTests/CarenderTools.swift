import XCTest
import Foundation

/// ffmpeg/ffprobe run by the tests to look at what carender wrote (decoded the way a player
/// decodes it), and the colour arithmetic the colour tests compare with.
enum Tools {
    /// Runs `tool` (found on PATH) with `args`; its status and standard output.
    static func run(_ tool: String, _ args: [String], stdin: Data? = nil) throws -> (status: Int32, out: Data) {
        guard let path = tool.hasPrefix("/") ? tool : Carender.which(tool) else { throw XCTSkip("\(tool) is not installed (tools/install-deps.sh installs it)") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        let input = Pipe()
        p.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try p.run()
        if let stdin {
            DispatchQueue.global().async { input.fileHandleForWriting.write(stdin); try? input.fileHandleForWriting.close() }
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, data)
    }

    /// ffprobe's `key=value` lines for the first stream of `type` (v or a).
    static func probe(_ file: URL, stream: String = "v:0", entries: String) throws -> [String: String] {
        let r = try run("ffprobe", ["-v", "error", "-count_packets", "-select_streams", stream, "-show_entries", "stream=" + entries,
                                    "-of", "default=noprint_wrappers=1", file.path])
        var d: [String: String] = [:]
        for line in String(decoding: r.out, as: UTF8.self).split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { d[kv[0]] = kv[1] }
        }
        return d
    }

    /// sRGB (0…1, D65) → CIE L*a*b*.
    static func lab(_ rgb: [Double]) -> [Double] {
        let lin = rgb.map { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        let x = 0.4124564 * lin[0] + 0.3575761 * lin[1] + 0.1804375 * lin[2]
        let y = 0.2126729 * lin[0] + 0.7151522 * lin[1] + 0.0721750 * lin[2]
        let z = 0.0193339 * lin[0] + 0.1191920 * lin[1] + 0.9503041 * lin[2]
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let fx = f(x / 0.95047), fy = f(y / 1.0), fz = f(z / 1.08883)
        return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)]
    }

    /// CIE76 colour difference (Euclidean distance in L*a*b*).
    static func deltaE76(_ a: [Double], _ b: [Double]) -> Double {
        let p = lab(a), q = lab(b)
        return sqrt(zip(p, q).map { ($0 - $1) * ($0 - $1) }.reduce(0, +))
    }
}
