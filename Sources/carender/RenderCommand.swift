import ArgumentParser
import QuartzCore
import CAWindow
import Foundation

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a scene to a PNG, a numbered PNG sequence or a video.",
        discussion: """
        The output's form decides what is written:
          -o frame.png      one PNG (of --time T, default 0); also .jpg, .webp (--quality)
          -o out/%04d.png   one PNG per frame, numbered by frame index
          -o movie.mp4      H.264 video; also .mov (ProRes 4444 + alpha), .mkv, .webm (VP9 + alpha), .gif, .apng
          -o -              standard output: a PNG, or a video with --format mp4|mov|mkv|webm|gif|apng

        Videos are converted to YUV with the BT.709 matrix and tagged (primaries, transfer, matrix, range); --color bt2020-pq makes 10-bit PQ. --codec, --crf/--bitrate, --pix-fmt choose the encoding; --audio FILE adds sound trimmed to the rendered frames.

        Frame i shows the scene at time i / fps. Without --time or --frames, a sequence or video covers the scene's whole duration at its frame rate (--fps overrides the rate). The same input gives byte-identical PNGs. Videos need ffmpeg (on PATH, or CARENDER_FFMPEG).

        Files appear under their final names only when complete. Ctrl-C (or SIGTERM) stops after the frame in hand: PNGs already written stay, a video is closed with the frames rendered (exit 130/143); a second Ctrl-C exits at once, removing the unfinished file and stopping ffmpeg.

        --set LAYER.member=value (repeatable) and --values FILE.json change the scene before rendering; --batch rows.csv renders one output per row (-o 'out/{name}.mp4'); --watch renders again when the file changes. --shard auto takes the slice from Kubernetes, Slurm or AWS Batch.

        Examples:
          carender render -o demo.mp4 --contact-sheet sheet.png
          carender render --time 1.5 --scale 2 -o still@2x.png
          carender render scene.json --frames '0..<90' --fps 30 -o out/%04d.png
          carender render scene.json --frames '0..<900' --shard 2/8 -o out/%05d.png
          carender render icon.svg --scale 4 -o icon.png
          carender render scene.json -o overlay.mov --audio music.wav
          carender render scene.json --set title.string=Hello -o hello.webp
          carender render scene.json --batch rows.csv -o 'out/{name}.mp4'
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

    @Option(help: ArgumentHelp("Render slice K (counting from 0) of N contiguous blocks of the frame range; auto: K and N from Kubernetes (JOB_COMPLETION_INDEX), Slurm (SLURM_ARRAY_TASK_*) or AWS Batch (AWS_BATCH_JOB_ARRAY_INDEX).", valueName: "K/N|auto"))
    var shard: String?

    @Option(help: ArgumentHelp("With --shard auto: the number of tasks where the job system does not say (Kubernetes, AWS Batch); else CARENDER_SHARD_COUNT.", valueName: "N"))
    var shardCount: Int?

    @Option(help: ArgumentHelp("PNG compression: fast (deflate level 1) or small (libpng defaults, ~7× slower).", valueName: "fast|small"))
    var pngCompression: String = "fast"

    @Flag(help: "No progress output.")
    var quiet = false

    @Flag(help: "Render again whenever the scene file (or --values file) changes, until Ctrl-C.")
    var watch = false

    @Flag(help: "Progress as JSON events on stderr, one object per line (start, progress, done, interrupted, error).")
    var json = false

    @Flag(help: "Let a scene file use images outside its folder.")
    var allowOutsideImages = false

    @OptionGroup var backendChoice: BackendOption

    @Option(help: .hidden)
    var readback: String = "pipelined"

    @Option(help: ArgumentHelp("With -o - (standard output): png (one frame) or a video container: mp4, mov, mkv, webm, gif, apng.", valueName: "format"))
    var format: String?

    @Option(help: ArgumentHelp("Video codec: h264, hevc, prores, vp9, av1, gif, apng. Default: the container's (.mp4/.mkv h264, .mov prores 4444, .webm vp9 with alpha).", valueName: "codec"))
    var codec: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Constant quality (h264/hevc 0...51, vp9/av1 0...63; lower is better).", valueName: "n"))
    var crf: String?

    @Option(help: ArgumentHelp("Target bitrate instead of --crf, e.g. 8M.", valueName: "rate"))
    var bitrate: String?

    @Option(help: ArgumentHelp("ffmpeg pixel format, e.g. yuv420p, yuv422p10le, yuva444p10le (alpha kept when it has a).", valueName: "name"))
    var pixFmt: String?

    @Option(help: ArgumentHelp("Video colour: bt709 (default) or bt2020-pq (HDR10-style PQ, 10 bits); every video is tagged.", valueName: "space"))
    var color: String = "bt709"

    @Option(help: ArgumentHelp("An audio file muxed under the video, trimmed to the rendered frames' time range.", valueName: "file"))
    var audio: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("JPEG/WebP still quality, 0...100 (default 90).", valueName: "q"))
    var quality: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("Override a property before rendering: LAYERNAME.member=value (or root.…, duration=…); repeatable.", valueName: "keyPath=value"))
    var assignments: [String] = []

    @Option(help: ArgumentHelp("Overrides from a JSON object of keyPath: value (applied before --set).", valueName: "file.json"))
    var values: String?

    @Option(help: ArgumentHelp("Render one output per CSV row: columns with a dot are key paths to set, every column fills {column} in -o (and {row}).", valueName: "rows.csv"))
    var batch: String?

    func run() throws {
        try CLI.run {
            try backendChoice.apply()
            if watch { return try renderWatching() }
            do { try render() } catch let e as CLIError where json {
                ProgressEvents().emit(["event": e.code >= 128 ? "interrupted" : "error", "message": e.message, "status": Int(e.code)])
                throw e
            }
        }
    }

    /// `--batch rows.csv`: this render once per row, with the row's key-path columns as
    /// `--set` values and `{column}` / `{row}` in -o replaced by the row's values (characters
    /// that cannot be in a file name become `_`). A failed row is reported and the others
    /// still render; the status is 1 when any failed.
    func renderBatch(_ path: String) throws {
        let table = try CSVTable(contentsOf: path)
        guard let output, output.contains("{") else {
            throw CLIError.usage("--batch: -o needs a {column} placeholder so each row writes its own file, e.g. -o 'out/{name}.mp4'")
        }
        for name in Self.placeholders(output) where name != "row" && !table.header.contains(name) {
            throw CLIError.usage("-o \(output): {\(name)} is not a column of \(path) (columns: \(table.header.joined(separator: ", ")))")
        }
        var failed = 0
        for (i, row) in table.rows.enumerated() {
            if Interrupts.pending != nil { break }
            var values = Dictionary(uniqueKeysWithValues: zip(table.header, row))
            values["row"] = String(i + 1)
            var job = self
            job.batch = nil
            job.output = Self.fill(output, values)
            job.assignments = zip(table.header, row).filter { $0.0.contains(".") }.map { "\($0.0)=\($0.1)" } + assignments
            do { try job.render() } catch let e as CLIError {
                if e.code == 2 { throw e }
                CLI.note("row \(i + 1): \(e.message)")
                failed += 1
            }
        }
        try Interrupts.checkpoint()
        if failed > 0 { throw CLIError("\(failed) of \(table.rows.count) rows failed") }
    }

    /// `--watch`: renders, then polls the scene file (and the --values file) with the
    /// preview's `FileWatcher` and renders again on every change. A render that fails (a
    /// broken save) is reported and the next change tried; a usage error ends it at once.
    /// SIGINT/SIGTERM ends the watch (status 128 + signal) after any render in progress.
    func renderWatching() throws {
        guard let scene, scene != "-" else { throw CLIError.usage("--watch needs a scene file to watch") }
        guard batch == nil else { throw CLIError.usage("--watch and --batch exclude each other") }
        Interrupts.install()
        var watchers = [FileWatcher(url: URL(fileURLWithPath: scene))] + (values.map { [FileWatcher(url: URL(fileURLWithPath: $0))] } ?? [])
        var job = self
        job.watch = false
        let clock = ContinuousClock()
        let start = clock.now
        func once() throws {
            do { try job.render() } catch let e as CLIError where e.code == 1 {
                CLI.note(e.message)
            }
        }
        try once()
        if !quiet { CLI.note("watching \(scene) for changes (Ctrl-C to stop)") }
        while Interrupts.pending == nil {
            usleep(100_000)
            let now = Double((clock.now - start).components.seconds) + Double((clock.now - start).components.attoseconds) * 1e-18
            var changed = false
            for i in watchers.indices where watchers[i].changed(now: now) { changed = true }
            if changed, Interrupts.pending == nil {
                if !quiet { CLI.note("\(scene) changed: rendering again") }
                try once()
            }
        }
        try Interrupts.checkpoint()
    }

    static func placeholders(_ pattern: String) -> [String] {
        var out: [String] = []
        var rest = pattern[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return out
    }

    static func fill(_ pattern: String, _ values: [String: String]) -> String {
        var s = pattern
        for (k, v) in values {
            let safe = String(v.map { "/\\\0:*?\"<>|".contains($0) || $0.isNewline ? "_" : $0 })
            s = s.replacingOccurrences(of: "{\(k)}", with: safe.isEmpty ? "_" : safe)
        }
        return s
    }

    func render() throws {
        if let batch { return try renderBatch(batch) }
        guard output != nil || contactSheet != nil else {
            throw CLIError.usage("nothing to write: give -o OUT (and/or --contact-sheet PNG)")
        }
        let target = try output.map { try OutputTarget(path: $0, format: format) }
        if output == nil, format != nil { throw CLIError.usage("--format is for -o - (standard output)") }
        let videoFormat: VideoFormat?
        switch target {
        case .video(_, let f): videoFormat = f
        case .stdout(let f): videoFormat = f
        default: videoFormat = nil
        }
        let crf = try self.crf.map { try parseNumber($0, option: "--crf", in: 0...63, what: "a constant-quality level, 0...63") }
        guard let color = VideoColor(rawValue: color) else { throw CLIError.usage("--color \(self.color): bt709 or bt2020-pq") }
        let codec = try self.codec.map { name -> VideoCodec in
            guard let c = VideoCodec(rawValue: name.lowercased()) else {
                throw CLIError.usage("--codec \(name): one of \(VideoCodec.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return c
        }
        var encoding = try videoFormat.map { try VideoEncoding(format: $0, codec: codec, crf: crf, bitrate: bitrate, pixFmt: pixFmt, color: color) }
        if encoding == nil, codec != nil || crf != nil || bitrate != nil || pixFmt != nil || audio != nil || self.color != "bt709" {
            throw CLIError.usage("--codec, --crf, --bitrate, --pix-fmt, --color and --audio are for video output (-o movie.mp4, .mov, .mkv, .webm, .gif, .apng)")
        }
        if case .stdout = target { encoding?.streaming = true }
        if let audio {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: audio, isDirectory: &isDir), !isDir.boolValue else {
                throw CLIError("--audio \(audio): no such file")
            }
        }
        let quality = try self.quality.map { try parseNumber($0, option: "--quality", in: 0...100, what: "a still's quality, 0...100") }
        if quality != nil { guard case .still = target else { throw CLIError.usage("--quality is for .jpg and .webp stills") } }
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
        let shard = try self.shard.map { text in
            text == "auto" ? try ShardArgument(auto: ProcessInfo.processInfo.environment, count: shardCount) : try ShardArgument(text)
        }
        if shardCount != nil, self.shard != "auto" { throw CLIError.usage("--shard-count goes with --shard auto") }

        Interrupts.install()
        var overrides = SceneOverrides()
        if let values { try overrides.add(valuesFile: values) }
        for a in assignments { try overrides.add(assignment: a) }
        let scene = try SceneInput.load(path: scene, allowOutsideImages: allowOutsideImages, overrides: overrides)
        if !quiet { scene.notes.forEach(CLI.note) }
        let rate = fps ?? scene.framesPerSecond
        let pointSize = size.map { CGSize(width: $0.width, height: $0.height) } ?? scene.size
        let scale = CGFloat(scaleOption ?? Double(scene.scale))
        scene.resize?(pointSize)

        // Which frames.
        var jobs: [FrameJob]
        if let time {
            if shard != nil { throw CLIError.usage("--shard slices a frame range; it cannot be used with --time") }
            jobs = [FrameJob(index: 0, time: time)]
        } else {
            var range: Range<Int>
            if let frames {
                range = frames.range
            } else if target?.isSingleImage == true {
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
        if target?.isSingleImage == true, jobs.count > 1 {
            throw CLIError.usage("-o \(output ?? ""): \(jobs.count) frames cannot go into one image; use a numbered pattern such as out/%04d.png, or a video (with -o -, --format mp4 …)")
        }
        if let audio, let first = jobs.first {
            encoding?.audio = AudioTrack(path: audio, start: Double(first.index) / rate, duration: Double(jobs.count) / rate)
            try encoding?.validate()
        }
        if jobs.isEmpty {
            if !quiet { CLI.note("shard \(shard!.index)/\(shard!.count) of this range is empty: nothing to render") }
            return
        }

        let exporter = Exporter(scene: scene, size: pointSize, scale: scale, readback: mode)
        let renderer = try exporter.makeRenderer()
        let (w, h) = renderer.pixelSize
        if let dir = target?.directory { try FileWriting.prepareDirectory(dir) }
        if let sheetURL { try FileWriting.prepareDirectory(sheetURL.deletingLastPathComponent()) }
        // Names, path lengths and free space are checked now, not when the first file is
        // written (for a video or one PNG that was after the whole render). One frame's RGBA
        // (what a PNG of noise or a raw video frame can take) plus 64 KiB must fit.
        let frameBytes = w * h * 4 + (1 << 16)
        switch target {
        case .png(let u), .video(let u, _), .still(let u, _): try FileWriting.checkDestination(u, bytes: frameBytes)
        case .stdout: break
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
        case .video(let url, _):
            let v = try FFmpegWriter(url: url, encoding: encoding!, width: w, height: h, framesPerSecond: rate)
            video = v
            write = { f in sheet?.add(f); try v.write(f) }
        case .still(let url, let format):
            write = { f in sheet?.add(f); try FileWriting.writeAtomically(try StillEncoder.encode(f.pixels, width: w, height: h, format: format, quality: quality), to: url) }
        case .stdout(let format):
            if format != nil {
                let v = try FFmpegWriter(url: nil, encoding: encoding!, width: w, height: h, framesPerSecond: rate)
                video = v
                write = { f in sheet?.add(f); try v.write(f) }
            } else {
                write = { f in sheet?.add(f); try FileWriting.writeAll(try FileWriting.pngData(f.pixels, width: w, height: h, compression: png), to: STDOUT_FILENO) }
            }
        case nil:
            write = { f in sheet?.add(f) }
        }
        // PNG encoding is the slow part: one encoder per spare core (files in any order); a
        // video needs its frames in order, so one writer.
        let workers: Int
        if case .sequence = target { workers = EncoderQueue.sequenceWorkers } else { workers = 1 }
        let queue = EncoderQueue(workers: workers, capacity: workers + 2, handle: write)
        let events = json ? ProgressEvents() : nil
        let progress = Progress(total: jobs.count, label: "rendering", quiet: quiet, events: events)
        events?.emit(["event": "start", "frames": jobs.count, "width": w, "height": h, "output": output ?? contactSheet ?? ""])
        do {
            try exporter.run(renderer, jobs: jobs, consumer: queue, progress: progress)
            // Interrupted or not, the frames rendered are encoded and the video is closed
            // cleanly: a first SIGINT/SIGTERM leaves a shorter, playable file.
            try queue.finish()
            progress.finish()
            try video?.finish()
        } catch {
            queue.cancel()
            progress.finish()
            video?.abort()
            throw error
        }
        if let s = Interrupts.pending {
            let kept: String
            switch target {
            case .sequence: kept = "the PNGs written are complete"
            case .video, .stdout(.some(_)): kept = "the video holds the frames rendered and is complete"
            default: kept = "nothing was written"
            }
            CLI.note("interrupted: \(progress.done) of \(jobs.count) frames were rendered; \(kept)")
            throw CLIError("interrupted by \(Interrupts.name(s))", code: 128 + s)
        }
        if let sheetURL, let sheet, let img = sheet.image() {
            guard let data = img.pngData() else { throw CLIError("PNG encoding of the contact sheet failed") }
            try FileWriting.writeAtomically(data, to: sheetURL)
        }
        if let events {
            events.emit(["event": "done", "frames": jobs.count, "seconds": (progress.elapsed * 1000).rounded() / 1000, "output": output ?? contactSheet ?? ""])
        } else if !quiet {
            let what: String
            switch target {
            case .png(let u): what = u.path
            case .sequence(let p): what = "\(p.path(for: jobs.first!.index)) … \(p.path(for: jobs.last!.index))"
            case .video(let u, _), .still(let u, _): what = u.path
            case .stdout: what = "standard output"
            case nil: what = "nothing but the contact sheet"
            }
            let secs = progress.elapsed
            CLI.note("wrote \(jobs.count) frame\(jobs.count == 1 ? "" : "s") (\(w)×\(h)) to \(what) in \(String(format: "%.2f", secs)) s (\(String(format: "%.1f", Double(jobs.count) / max(secs, 1e-9))) fps)"
                     + (sheetURL.map { "; contact sheet \($0.path)" } ?? ""))
        }
    }
}
