import ArgumentParser
import QuartzCore
import Foundation

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a scene to a PNG, a numbered PNG sequence or a video.",
        discussion: """
        The output's form decides what is written:
          -o frame.png      one PNG (of --time T, default 0)
          -o out/%04d.png   one PNG per frame, numbered by frame index
          -o movie.mp4      H.264 video; also .webm (VP9 + alpha), .gif, .apng

        Frame i shows the scene at time i / fps. Without --time or --frames, a sequence or video covers the scene's whole duration at its frame rate (--fps overrides the rate). The same input gives byte-identical PNGs. Videos need ffmpeg (on PATH, or CARENDER_FFMPEG).

        Files appear under their final names only when complete. Ctrl-C (or SIGTERM) stops after the frame in hand: PNGs already written stay, an unfinished video is removed.

        Examples:
          carender render -o demo.mp4 --contact-sheet sheet.png
          carender render --time 1.5 --scale 2 -o still@2x.png
          carender render scene.json --frames '0..<90' --fps 30 -o out/%04d.png
          carender render scene.json --frames '0..<900' --shard 2/8 -o out/%05d.png
          carender render icon.svg --scale 4 -o icon.png
        """)

    @Argument(help: "A scene file (JSON, see docs/SCENE-FORMAT.md) or an SVG file (.svg). Omitted: the built-in demo.")
    var scene: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Render one frame at this time in seconds (≥ 0).", valueName: "seconds"))
    var time: String?

    @Option(help: ArgumentHelp("Global frame indices to render: A..<B (B excluded) or A...B (quote it in a shell).", valueName: "range"))
    var frames: String?

    @Option(parsing: .unconditional, help: "Frames per second (frame i is at time i / fps). Default: the scene's.")
    var fps: String?

    @Option(help: ArgumentHelp("Size in points, WxH. Default: the scene's.", valueName: "WxH"))
    var size: String?

    @Option(parsing: .unconditional, help: "Pixels per point. Default: the scene's (1 for the demo).")
    var scale: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Output: a .png, a numbered out/%04d.png, or .mp4/.webm/.gif/.apng.", valueName: "path"))
    var output: String?

    @Option(help: ArgumentHelp("Also write a contact sheet: a grid of up to 12 frames spread over the run.", valueName: "png"))
    var contactSheet: String?

    @Option(help: ArgumentHelp("Render slice K (counting from 0) of N contiguous blocks of the frame range.", valueName: "K/N"))
    var shard: String?

    @Option(help: ArgumentHelp("PNG compression: fast (deflate level 1) or small (libpng defaults, ~7× slower).", valueName: "fast|small"))
    var pngCompression: String = "fast"

    @Flag(help: "No progress output.")
    var quiet = false

    @Flag(help: "Let a scene file use images outside its folder.")
    var allowOutsideImages = false

    @OptionGroup var backendChoice: BackendOption

    @Option(help: .hidden)
    var readback: String = "pipelined"

    func run() throws {
        try CLI.run { try backendChoice.apply(); try render() }
    }

    func render() throws {
        guard output != nil || contactSheet != nil else {
            throw CLIError.usage("nothing to write: give -o OUT (and/or --contact-sheet PNG)")
        }
        let target = try output.map(OutputTarget.init(path:))
        let sheetURL = try contactSheet.map { path -> URL in
            guard URL(fileURLWithPath: path).pathExtension.lowercased() == "png" else {
                throw CLIError.usage("--contact-sheet \(path): the contact sheet is a .png")
            }
            return URL(fileURLWithPath: path)
        }
        guard let png = PNGCompression(rawValue: pngCompression) else {
            throw CLIError.usage("--png-compression \(pngCompression): fast or small")
        }
        guard let mode = ReadbackMode(rawValue: readback) else { throw CLIError.usage("--readback \(readback): none, synchronous or pipelined") }

        let time = try self.time.map { try parseNumber($0, option: "--time", in: 0...1e9, what: "a time must be a finite number of seconds, 0 or more") }
        let frames = try self.frames.map(FrameRangeArgument.init)
        if time != nil, frames != nil { throw CLIError.usage("--time and --frames exclude each other") }
        let scaleOption = try self.scale.map { try parseNumber($0, option: "--scale", in: 1e-3...16, what: "pixels per point must be more than 0 and at most 16") }
        let fps = try self.fps.map { try parseNumber($0, option: "--fps", in: 1e-3...1000, what: "frames per second must be more than 0 and at most 1000") }
        let size = try self.size.map(SizeArgument.init)
        if let size { try CLI.check(size) }
        let shard = try self.shard.map(ShardArgument.init)

        Interrupts.install()
        let scene = try SceneInput.load(path: scene, allowOutsideImages: allowOutsideImages)
        if !quiet { scene.notes.forEach(CLI.note) }
        let rate = fps ?? scene.framesPerSecond
        let pointSize = size.map { CGSize(width: $0.width, height: $0.height) } ?? scene.size
        let scale = CGFloat(scaleOption ?? Double(scene.scale))

        // Which frames.
        var jobs: [FrameJob]
        if let time {
            if shard != nil { throw CLIError.usage("--shard slices a frame range; it cannot be used with --time") }
            jobs = [FrameJob(index: 0, time: time)]
        } else {
            var range: Range<Int>
            if let frames {
                range = frames.range
            } else if case .png = target, frames == nil {
                range = 0..<1
            } else {
                // ⌈duration × fps⌉ frames (LoadedScene.frameCount's rule), frame i at i / fps.
                let n = (scene.duration * rate - 1e-9).rounded(.up)
                guard n.isFinite, n <= Double(CLI.maxFrames) else {
                    throw CLIError.usage("the scene's duration \(scene.duration) s at \(rate) fps exceeds the limit of \(CLI.maxFrames) frames per run; give --frames")
                }
                range = 0..<max(Int(n), 1)
            }
            guard range.lowerBound >= 0 else { throw CLIError.usage("--frames: frame indices start at 0") }
            guard range.count <= CLI.maxFrames else {
                throw CLIError.usage("--frames \(range.lowerBound)..<\(range.upperBound): \(range.count) frames exceeds the limit of \(CLI.maxFrames) per run (split it with --shard or several ranges)")
            }
            if let shard { range = shard.slice(of: range) }
            jobs = range.map { FrameJob(index: $0, time: Double($0) / rate) }
            guard !jobs.isEmpty || shard != nil else { throw CLIError.usage("--frames: the range is empty") }
        }
        if case .png(let url) = target, jobs.count > 1 {
            throw CLIError.usage("-o \(url.lastPathComponent): \(jobs.count) frames cannot go into one PNG; use a numbered pattern such as out/%04d.png, or a video")
        }
        if jobs.isEmpty {
            if !quiet { CLI.note("shard \(shard!.index)/\(shard!.count) of this range is empty: nothing to render") }
            return
        }

        let exporter = Exporter(scene: scene, size: pointSize, scale: scale, readback: mode)
        let renderer = try exporter.makeRenderer()
        let (w, h) = renderer.pixelSize
        if let target { try FileWriting.prepareDirectory(target.directory) }
        if let sheetURL { try FileWriting.prepareDirectory(sheetURL.deletingLastPathComponent()) }
        // Names, path lengths and free space are checked now, not when the first file is
        // written (for a video or one PNG that was after the whole render). One frame's RGBA
        // (what a PNG of noise or a raw video frame can take) plus 64 KiB must fit.
        let frameBytes = w * h * 4 + (1 << 16)
        switch target {
        case .png(let u), .video(let u, _): try FileWriting.checkDestination(u, bytes: frameBytes)
        case .sequence(let p):
            // Names grow with the frame number: the first and the last bound them.
            for i in Set([jobs.first!.index, jobs.last!.index]) {
                try FileWriting.checkDestination(URL(fileURLWithPath: p.path(for: i)), bytes: frameBytes)
            }
        case nil: break
        }
        if let sheetURL { try FileWriting.checkDestination(sheetURL, bytes: frameBytes) }

        let sheet = sheetURL.map { _ in ContactSheet(frames: jobs.map(\.index), frameWidth: w, frameHeight: h) }
        var video: FFmpegWriter?
        let write: @Sendable (RenderedFrame) throws -> Void
        switch target {
        case .png(let url):
            write = { f in sheet?.add(f); try FileWriting.writeAtomically(try FileWriting.pngData(f.pixels, width: w, height: h, compression: png), to: url) }
        case .sequence(let pattern):
            write = { f in
                sheet?.add(f)
                try FileWriting.writeAtomically(try FileWriting.pngData(f.pixels, width: w, height: h, compression: png),
                                                to: URL(fileURLWithPath: pattern.path(for: f.index)))
            }
        case .video(let url, let format):
            let v = try FFmpegWriter(url: url, format: format, width: w, height: h, framesPerSecond: rate)
            video = v
            write = { f in sheet?.add(f); try v.write(f) }
        case nil:
            write = { f in sheet?.add(f) }
        }
        // PNG encoding is the slow part: one encoder per spare core (files in any order); a
        // video needs its frames in order, so one writer.
        let workers: Int
        if case .sequence = target { workers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount - 1)) } else { workers = 1 }
        let queue = EncoderQueue(workers: workers, capacity: workers + 2, handle: write)
        let progress = Progress(total: jobs.count, label: "rendering", quiet: quiet)
        do {
            try exporter.run(renderer, jobs: jobs, consumer: queue, progress: progress)
            if Interrupts.pending != nil, video != nil { queue.cancel() } else { try queue.finish() }
            progress.finish()
            try Interrupts.checkpoint()
            try video?.finish()
        } catch {
            queue.cancel()
            progress.finish()
            video?.abort()
            if let s = Interrupts.pending, video == nil, case .sequence = target {
                CLI.note("interrupted: \(progress.done) of \(jobs.count) frames were rendered; the PNGs written are complete")
                throw CLIError("interrupted by \(s == SIGINT ? "SIGINT" : "SIGTERM")", code: 128 + s)
            }
            if Interrupts.pending != nil, video != nil { CLI.note("interrupted: the unfinished video was removed") }
            throw error
        }
        if let sheetURL, let sheet, let img = sheet.image() {
            guard let data = img.pngData() else { throw CLIError("PNG encoding of the contact sheet failed") }
            try FileWriting.writeAtomically(data, to: sheetURL)
        }
        if !quiet {
            let what: String
            switch target {
            case .png(let u): what = u.path
            case .sequence(let p): what = "\(p.path(for: jobs.first!.index)) … \(p.path(for: jobs.last!.index))"
            case .video(let u, _): what = u.path
            case nil: what = "nothing but the contact sheet"
            }
            let secs = progress.elapsed
            CLI.note("wrote \(jobs.count) frame\(jobs.count == 1 ? "" : "s") (\(w)×\(h)) to \(what) in \(String(format: "%.2f", secs)) s (\(String(format: "%.1f", Double(jobs.count) / max(secs, 1e-9))) fps)"
                     + (sheetURL.map { "; contact sheet \($0.path)" } ?? ""))
        }
    }
}
