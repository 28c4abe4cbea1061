import ArgumentParser
import Foundation

struct Join: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Join shard outputs into one: videos without re-encoding, PNG sequences into one folder.",
        discussion: """
        Videos (.mp4, .mov, .mkv, .webm): the parts, in the order given, are concatenated by ffmpeg's concat demuxer with stream copy (-c copy): no re-encoding, so the joined file holds exactly the parts' frames. Parts must come from one command line (same codec, size, rate), as the shards of one render do.

        PNG sequences: the parts are folders (or PNG files); each PNG's frame number is the last run of digits in its name, and the frame is copied (hard-linked where possible) to the output pattern with that number. Shards keep global frame numbers, so nothing is renumbered; a frame number found twice is an error.

        Examples:
          carender join -o movie.mp4 part-0.mp4 part-1.mp4 part-2.mp4
          carender join -o movie.mp4 'parts/part-*.mp4'       (quoted: sorted by the number in the name)
          carender join -o all/%05d.png shard-0 shard-1 shard-2
        """)

    @Option(name: .shortAndLong, help: ArgumentHelp("The joined video, or a numbered out/%05d.png.", valueName: "path"))
    var output: String

    @Argument(help: "The parts in order: videos, or folders of PNGs. Quoted glob patterns are expanded and sorted by the number in each name.")
    var parts: [String] = []

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func run() throws {
        try CLI.run {
            guard !parts.isEmpty else { throw CLIError.usage("join: give the parts to join") }
            let target = try OutputTarget(path: output)
            var inputs: [String] = []
            for e in Validate.expand(parts) {
                if let pattern = e.unmatched { throw CLIError("join: no file matches \(pattern)") }
                inputs.append(e.path)
            }
            // A pattern's matches are sorted by frame/part number, not as text (part-10 after part-9).
            if parts.count == 1, inputs.count > 1 { inputs.sort { (Self.number(in: $0) ?? 0, $0) < (Self.number(in: $1) ?? 0, $1) } }
            Interrupts.install()
            switch target {
            case .video(let url, let format):
                try joinVideos(inputs, into: url, format: format)
            case .sequence(let pattern):
                try joinSequences(inputs, into: pattern)
            default:
                throw CLIError.usage("join -o \(output): a video (.mp4, .mov, .mkv, .webm) or a numbered out/%05d.png")
            }
        }
    }

    /// The last run of digits in a file name (`part-12.mp4` → 12, `00042.png` → 42).
    static func number(in path: String) -> Int? {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let digits = name.reversed().drop { !$0.isNumber }.prefix { $0.isNumber }
        return digits.isEmpty ? nil : Int(String(digits.reversed()).suffix(18))
    }

    func joinVideos(_ inputs: [String], into url: URL, format: VideoFormat) throws {
        guard format != .gif, format != .apng else { throw CLIError.usage("join: GIF and APNG cannot be joined without re-encoding; join PNG sequences or videos") }
        for p in inputs {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir), !isDir.boolValue else { throw CLIError("join: \(p): no such video") }
        }
        let exe = try FFmpegWriter.locate()
        try FileWriting.prepareDirectory(url.deletingLastPathComponent())
        // The concat demuxer's list: one `file '…'` line per part, absolute paths, a quote
        // written as '\'' (ffmpeg's quoting, as in a shell).
        let list = inputs.map { p -> String in
            let abs = URL(fileURLWithPath: p).standardizedFileURL.path
            return "file '" + abs.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: "\n") + "\n"
        let (listURL, listFD) = try FileWriting.createTemporary(for: url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".txt"))
        defer { unlink(listURL.path); Interrupts.untrack(temporary: listURL.path) }
        try FileWriting.writeAll(Data(list.utf8), to: listFD)
        close(listFD)
        let (tmp, videoFD) = try FileWriting.createTemporary(for: url)
        var args = ["-hide_banner", "-loglevel", "error", "-nostdin", "-f", "concat", "-safe", "0", "-i", "file:" + listURL.path, "-map", "0", "-c", "copy"]
        if format == .mp4 || format == .mov { args += ["-movflags", "+faststart"] }
        args += ["-f", format.muxer, "-y", "file:/dev/stdout"]
        var errFDs: [Int32] = [-1, -1]
        guard pipe(&errFDs) == 0 else { close(videoFD); throw CLIError("join: cannot create a pipe: \(String(cString: strerror(errno)))") }
        _ = fcntl(errFDs[0], F_SETFD, FD_CLOEXEC); _ = fcntl(errFDs[1], F_SETFD, FD_CLOEXEC)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: exe.path, arguments: args, stdin: null, stdout: videoFD, stderr: errFDs[1])
        } catch {
            close(null); close(videoFD); close(errFDs[0]); close(errFDs[1]); unlink(tmp.path); Interrupts.untrack(temporary: tmp.path)
            throw error
        }
        close(null); close(videoFD); close(errFDs[1])
        let message = FileHandle(fileDescriptor: errFDs[0], closeOnDealloc: true).readDataToEndOfFile()
        let (exited, status) = child.wait()
        guard exited, status == 0 else {
            unlink(tmp.path); Interrupts.untrack(temporary: tmp.path)
            let last = String(decoding: message, as: UTF8.self).split(separator: "\n").last.map { ": \($0)" } ?? ""
            throw CLIError("join: ffmpeg failed (status \(status))\(last)")
        }
        try FileWriting.commit(tmp, to: url)
        if !quiet { CLI.note("joined \(inputs.count) parts into \(url.path) without re-encoding") }
    }

    func joinSequences(_ inputs: [String], into pattern: FramePattern) throws {
        var frames: [Int: String] = [:]
        for p in inputs {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir) else { throw CLIError("join: \(p): no such folder or file") }
            let files = isDir.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: p)) ?? []).filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }.map { p + "/" + $0 }
                : [p]
            for f in files {
                guard let n = Self.number(in: f) else { throw CLIError("join: \(f): no frame number in the name") }
                if let other = frames[n] { throw CLIError("join: frame \(n) is both \(other) and \(f)") }
                frames[n] = f
            }
        }
        guard !frames.isEmpty else { throw CLIError("join: no PNG files in \(inputs.joined(separator: ", "))") }
        try FileWriting.prepareDirectory(URL(fileURLWithPath: pattern.path(for: 0)).deletingLastPathComponent())
        for n in frames.keys.sorted() {
            try Interrupts.checkpoint()
            let dest = URL(fileURLWithPath: pattern.path(for: n))
            let (tmp, fd) = try FileWriting.createTemporary(for: dest)
            close(fd)
            unlink(tmp.path)
            // A hard link costs nothing; across file systems, a copy.
            if link(frames[n]!, tmp.path) != 0 {
                do { try FileManager.default.copyItem(atPath: frames[n]!, toPath: tmp.path) } catch {
                    Interrupts.untrack(temporary: tmp.path)
                    throw CLIError("join: cannot copy \(frames[n]!): \(FileWriting.reason(error))")
                }
            }
            try FileWriting.commit(tmp, to: dest)
        }
        let missing = (frames.keys.min()!...frames.keys.max()!).count - frames.count
        if !quiet {
            CLI.note("joined \(frames.count) frames into \(pattern.path(for: frames.keys.min()!)) … \(pattern.path(for: frames.keys.max()!))"
                     + (missing > 0 ? "; \(missing) frame numbers in between are missing" : ""))
        }
    }
}
