import XCTest
import Foundation

/// Video output done right (issue 25): colours converted with the matrix they are tagged with,
/// every container and codec, alpha, audio, stills, standard input and output. Each output is
/// decoded by ffmpeg as a player decodes it (its tags honoured) and compared with the input.
final class CarenderVideoTests: CarenderTestCase {
    /// Eight 64×64 swatches in a row, the issue's #f26b52 first, then the primaries, grey,
    /// white, black and a skin tone.
    static let swatches = ["#f26b52", "#ff0000", "#00ff00", "#0000ff", "#808080", "#ffffff", "#000000", "#c68642"]

    func writeSwatchScene() throws -> String {
        let layers = Self.swatches.enumerated().map { i, c in
            "{\"frame\": [\(i * 64), 0, 64, 64], \"backgroundColor\": \"\(c)\"}"
        }.joined(separator: ",\n")
        let json = """
        {"format": "ca-scene", "version": 1, "size": [512, 64], "duration": 0.2, "framesPerSecond": 10,
         "root": {"frame": [0, 0, 512, 64], "backgroundColor": "#000000", "sublayers": [\(layers)]}}
        """
        try Data(json.utf8).write(to: dir.appendingPathComponent("swatches.json"))
        return "swatches.json"
    }

    static func rgb(_ hex: String) -> [Double] {
        let v = Int(hex.dropFirst(), radix: 16)!
        return [Double(v >> 16 & 255) / 255, Double(v >> 8 & 255) / 255, Double(v & 255) / 255]
    }

    /// The centre of each swatch of the first frame, decoded by ffmpeg to 16-bit RGB with
    /// `filter` (which reads the stream's tags), as 0…1.
    func decodedSwatches(_ file: String, filter: String) throws -> [[Double]] {
        let r = try Tools.run("ffmpeg", ["-v", "error", "-i", dir.appendingPathComponent(file).path, "-frames:v", "1",
                                         "-vf", filter, "-f", "rawvideo", "-pix_fmt", "rgb48le", "-"])
        XCTAssertEqual(r.status, 0, "ffmpeg could not decode \(file)")
        let bytes = [UInt8](r.out)
        guard bytes.count == 512 * 64 * 6 else { XCTFail("\(file): \(bytes.count) bytes decoded"); return [] }
        return (0..<8).map { i in
            let o = (32 * 512 + i * 64 + 32) * 6
            return (0..<3).map { c in Double(Int(bytes[o + 2 * c]) | Int(bytes[o + 2 * c + 1]) << 8) / 65535 }
        }
    }

    /// BT.709 (the default), every YUV codec: the stream is tagged bt709 / bt709 / bt709 / tv
    /// and, decoded with the matrix and range its tags name (swscale's `auto`), each swatch is
    /// within ΔE*76 ≤ 1 of the colour rendered. Under the BT.601 conversion carender used to
    /// make, #f26b52 decoded as BT.709 was #fd754e (ΔE76 ≈ 7.4).
    func testBT709SwatchesRoundTripWithinDeltaE1() throws {
        let scene = try writeSwatchScene()
        for (file, extra, codec) in [("c.mp4", [String](), "h264"), ("c.mov", [], "prores"), ("c.mkv", ["--codec", "hevc"], "hevc"),
                                     ("c.webm", [], "vp9"), ("a.mp4", ["--codec", "av1"], "av1")] {
            let r = try Carender.run(["render", scene, "-o", file, "--quiet"] + extra, in: dir)
            XCTAssertEqual(r.status, 0, "\(file): \(r.stderr)")
            let tags = try Tools.probe(dir.appendingPathComponent(file), entries: "codec_name,color_space,color_primaries,color_transfer,color_range")
            XCTAssertEqual(tags["codec_name"], codec, file)
            XCTAssertEqual(tags["color_space"], "bt709", file)
            XCTAssertEqual(tags["color_primaries"], "bt709", file)
            XCTAssertEqual(tags["color_transfer"], "bt709", file)
            XCTAssertEqual(tags["color_range"], "tv", file)
            let got = try decodedSwatches(file, filter: "scale=in_color_matrix=auto:in_range=auto:flags=accurate_rnd+full_chroma_int")
            for (hex, rgb) in zip(Self.swatches, got) {
                let d = Tools.deltaE76(Self.rgb(hex), rgb)
                XCTAssertLessThanOrEqual(d, 1, "\(file) \(hex) decoded as \(rgb.map { Int(($0 * 255).rounded()) }): ΔE76 \(d)")
            }
        }
    }

    /// `--color bt2020-pq`: tagged bt2020nc / bt2020 / smpte2084 / tv in 10 bits; decoded by
    /// zscale following its tags back to sRGB (203 cd/m² white, BT.2408), each swatch within
    /// ΔE*76 ≤ 1.
    func testBT2020PQSwatchesRoundTripWithinDeltaE1() throws {
        let scene = try writeSwatchScene()
        let r = try Carender.run(["render", scene, "-o", "pq.mkv", "--codec", "hevc", "--color", "bt2020-pq", "--crf", "4", "--quiet"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let tags = try Tools.probe(dir.appendingPathComponent("pq.mkv"), entries: "pix_fmt,color_space,color_primaries,color_transfer,color_range")
        XCTAssertEqual(tags["pix_fmt"], "yuv420p10le")
        XCTAssertEqual(tags["color_space"], "bt2020nc")
        XCTAssertEqual(tags["color_primaries"], "bt2020")
        XCTAssertEqual(tags["color_transfer"], "smpte2084")
        XCTAssertEqual(tags["color_range"], "tv")
        let got = try decodedSwatches("pq.mkv", filter: "zscale=t=iec61966-2-1:p=bt709:m=gbr:r=full:npl=203,format=gbrp16le")
        for (hex, rgb) in zip(Self.swatches, got) {
            let d = Tools.deltaE76(Self.rgb(hex), rgb)
            XCTAssertLessThanOrEqual(d, 1, "\(hex) decoded as \(rgb.map { Int(($0 * 255).rounded()) }): ΔE76 \(d)")
        }
        // PQ needs 10 bits: an 8-bit pixel format is a usage error, before anything is written.
        let bad = try Carender.run(["render", scene, "-o", "pq8.mkv", "--codec", "hevc", "--color", "bt2020-pq", "--pix-fmt", "yuv420p"], in: dir)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("10 bits"), bad.stderr)
    }

    /// ProRes 4444 (.mov's default) and VP9 (.webm's) keep alpha for overlays: decoded, the
    /// transparent background has alpha 0, an opaque layer 255 and a layer at opacity 0.5
    /// about 128 (its colour un-premultiplied back to the layer's).
    func testProResAndVP9KeepAlpha() throws {
        let json = """
        {"format": "ca-scene", "version": 1, "size": [96, 32], "duration": 0.2, "framesPerSecond": 10,
         "root": {"frame": [0, 0, 96, 32], "sublayers": [
           {"frame": [32, 0, 32, 32], "backgroundColor": "#f26b52"},
           {"frame": [64, 0, 32, 32], "backgroundColor": "#2060ff", "opacity": 0.5}]}}
        """
        try Data(json.utf8).write(to: dir.appendingPathComponent("overlay.json"))
        for (file, decoder) in [("o.mov", [String]()), ("o.webm", ["-c:v", "libvpx-vp9"])] {
            let r = try Carender.run(["render", "overlay.json", "-o", file, "--quiet"], in: dir)
            XCTAssertEqual(r.status, 0, "\(file): \(r.stderr)")
            let d = try Tools.run("ffmpeg", ["-v", "error"] + decoder + ["-i", dir.appendingPathComponent(file).path, "-frames:v", "1",
                                                                        "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
            let px = [UInt8](d.out)
            XCTAssertEqual(px.count, 96 * 32 * 4, file)
            guard px.count == 96 * 32 * 4 else { continue }
            func alpha(_ x: Int) -> Int { Int(px[(16 * 96 + x) * 4 + 3]) }
            XCTAssertLessThanOrEqual(alpha(16), 2, "\(file): the background is transparent")
            XCTAssertGreaterThanOrEqual(alpha(48), 253, "\(file): the opaque layer")
            XCTAssertEqual(Double(alpha(80)), 128, accuracy: 4, "\(file): the half-transparent layer")
            XCTAssertEqual(Double(px[(16 * 96 + 80) * 4 + 2]), 255, accuracy: 8, "\(file): straight colour of the half-transparent layer")
        }
    }

    /// --codec / --crf / --bitrate / --pix-fmt reach the encoder, and impossible combinations
    /// are usage errors (status 2) before anything is written.
    func testCodecQualityAndPixelFormatOptions() throws {
        let small = ["--scale", "0.25", "--frames", "0..<3", "--quiet"]
        let hevc = try Carender.run(["render", "-o", "h.mp4", "--codec", "hevc", "--crf", "30"] + small, in: dir)
        XCTAssertEqual(hevc.status, 0, hevc.stderr)
        let h = try Tools.probe(dir.appendingPathComponent("h.mp4"), entries: "codec_name,codec_tag_string,nb_read_packets")
        XCTAssertEqual(h["codec_name"], "hevc")
        XCTAssertEqual(h["codec_tag_string"], "hvc1", "QuickTime plays HEVC tagged hvc1")
        XCTAssertEqual(h["nb_read_packets"], "3")
        let hq = try Carender.run(["render", "-o", "hq.mov", "--pix-fmt", "yuv422p10le"] + small, in: dir)
        XCTAssertEqual(hq.status, 0, hq.stderr)
        let p = try Tools.probe(dir.appendingPathComponent("hq.mov"), entries: "codec_name,profile,pix_fmt")
        XCTAssertEqual(p["codec_name"], "prores")
        XCTAssertEqual(p["profile"], "HQ", "without alpha, ProRes 422 HQ")
        XCTAssertEqual(p["pix_fmt"], "yuv422p10le")
        let rate = try Carender.run(["render", "-o", "b.mkv", "--bitrate", "200k"] + small, in: dir)
        XCTAssertEqual(rate.status, 0, rate.stderr)
        let cases: [([String], String)] = [
            (["-o", "x.webm", "--codec", "h264"], "--codec h264"),
            (["-o", "x.mp4", "--crf", "60"], "--crf"),
            (["-o", "x.mov", "--crf", "10"], "no CRF"),
            (["-o", "x.mp4", "--crf", "20", "--bitrate", "1M"], "exclude"),
            (["-o", "x.mp4", "--bitrate", "fast"], "--bitrate"),
            (["-o", "x.mp4", "--codec", "mpeg2"], "--codec mpeg2"),
            (["-o", "x.mp4", "--pix-fmt", "yuv420p;rm"], "--pix-fmt"),
            (["-o", "x.gif", "--audio", "a.wav"], "--audio"),
            (["-o", "x.png", "--codec", "h264"], "video output"),
            (["-o", "x.mp4", "--color", "p3"], "--color"),
            (["-o", "x.mp4", "--quality", "50"], "--quality"),
        ]
        try Data("RIFF".utf8).write(to: dir.appendingPathComponent("a.wav"))
        for (args, needle) in cases {
            let r = try Carender.run(["render"] + args + small, in: dir)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(needle), "\(args): \(r.stderr) lacks \(needle)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("x" + (args[1].split(separator: ".").last.map { "." + $0 } ?? "")).path))
        }
    }

    /// `--audio`: the track is muxed (AAC in MP4, Opus in WebM) and trimmed to the frames
    /// rendered: frames 30..<60 at 30 fps take the audio from 1 s to 2 s, one second long.
    func testAudioIsMuxedAndTrimmedToTheRenderRange() throws {
        let tone = dir.appendingPathComponent("tone.wav")
        let gen = try Tools.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=5", "-y", tone.path])
        XCTAssertEqual(gen.status, 0)
        for (file, codec) in [("s.mp4", "aac"), ("s.webm", "opus")] {
            let r = try Carender.run(["render", "--scale", "0.25", "--frames", "30..<60", "--fps", "30", "--audio", "tone.wav", "-o", file, "--quiet"], in: dir)
            XCTAssertEqual(r.status, 0, r.stderr)
            let a = try Tools.probe(dir.appendingPathComponent(file), stream: "a:0", entries: "codec_name")
            XCTAssertEqual(a["codec_name"], codec, file)
            let d = try Tools.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts_time,duration_time",
                                              "-of", "csv=p=0", dir.appendingPathComponent(file).path])
            // The end of the last audio packet: the track's length.
            let end = String(decoding: d.out, as: UTF8.self).split(separator: "\n").compactMap { line -> Double? in
                let f = line.split(separator: ",").compactMap { Double($0) }
                return f.count == 2 ? f[0] + f[1] : nil
            }.max() ?? 0
            XCTAssertEqual(end, 1.0, accuracy: 0.1, "\(file): the audio covers the rendered second")
        }
        let missing = try Carender.run(["render", "--scale", "0.25", "--audio", "none.wav", "-o", "m.mp4", "--quiet"], in: dir)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("none.wav"), missing.stderr)
    }

    /// JPEG and WebP stills through ImageIO, with `--quality`: the right container, the colour
    /// of the frame, and a lower quality gives a smaller file (of the demo, which has detail).
    func testJPEGAndWebPStillsWithQuality() throws {
        let scene = try writeSwatchScene()
        for ext in ["jpg", "webp"] {
            for q in ["95", "20"] {
                let r = try Carender.run(["render", "--time", "1.5", "--scale", "0.5", "-o", "d\(q).\(ext)", "--quality", q, "--quiet"], in: dir)
                XCTAssertEqual(r.status, 0, r.stderr)
            }
            let r = try Carender.run(["render", scene, "-o", "s95.\(ext)", "--quality", "95", "--quiet"], in: dir)
            XCTAssertEqual(r.status, 0, r.stderr)
            let hi = try Data(contentsOf: dir.appendingPathComponent("d95.\(ext)")), lo = try Data(contentsOf: dir.appendingPathComponent("d20.\(ext)"))
            XCTAssertTrue(ext == "jpg" ? hi.starts(with: [0xFF, 0xD8, 0xFF]) : (hi.starts(with: Array("RIFF".utf8)) && hi[8..<12] == Data("WEBP".utf8)), ext)
            XCTAssertLessThan(lo.count, hi.count, ext)
            let got = try decodedSwatches("s95.\(ext)", filter: "scale=flags=accurate_rnd+full_chroma_int")
            XCTAssertLessThanOrEqual(Tools.deltaE76(Self.rgb("#f26b52"), got.first ?? [0, 0, 0]), 2, "\(ext): \(got.first ?? [])")
        }
    }

    /// `-` reads the scene from standard input; `-o -` writes a PNG (one frame) or, with
    /// --format, a video stream (MP4 fragmented, since a pipe cannot seek) to standard output.
    func testStandardInputAndOutput() throws {
        let scene = try Data(contentsOf: dir.appendingPathComponent(try writeSwatchScene()))
        func carender(_ args: [String]) throws -> (Int32, Data) {
            let p = Process()
            p.executableURL = Carender.binary
            p.arguments = args
            p.currentDirectoryURL = dir
            let input = Pipe(), output = Pipe()
            p.standardInput = input
            p.standardOutput = output
            p.standardError = FileHandle.nullDevice
            try p.run()
            DispatchQueue.global().async { input.fileHandleForWriting.write(scene); try? input.fileHandleForWriting.close() }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (p.terminationStatus, data)
        }
        let (s1, png) = try carender(["render", "-", "-o", "-"])
        XCTAssertEqual(s1, 0)
        XCTAssertEqual(pngSize(png).map { [$0.0, $0.1] }, [512, 64])
        for format in ["mp4", "mkv", "webm"] {
            let (s, video) = try carender(["render", "-", "-o", "-", "--format", format, "--quiet"])
            XCTAssertEqual(s, 0, format)
            let file = dir.appendingPathComponent("piped.\(format)")
            try video.write(to: file)
            XCTAssertEqual(try Tools.probe(file, entries: "nb_read_packets")["nb_read_packets"], "2", format)
        }
        XCTAssertEqual(listing(dir), ["piped.mkv", "piped.mp4", "piped.webm", "swatches.json"], "nothing else written")
        let bad = try Carender.run(["render", "-o", "-", "--format", "bmp"], in: dir)
        XCTAssertEqual(bad.status, 2)
    }
}
