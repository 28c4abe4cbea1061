import Foundation

/// A video written by an `ffmpeg` child process fed raw RGBA frames on its standard input
/// (`-f rawvideo`). ffmpeg writes a temporary file (created by carender, see `init`) that is renamed to the final name only
/// after ffmpeg exits successfully; on an interruption or an error the process is stopped and
/// the temporary file removed. ffmpeg is looked up on PATH, or taken from `CARENDER_FFMPEG`.
final class FFmpegWriter: @unchecked Sendable {
    let url: URL
    let temporary: URL
    let format: VideoFormat
    let width: Int, height: Int
    let process = Process()
    let stdinPipe = Pipe()
    let logURL: URL
    var finished = false

    init(url: URL, format: VideoFormat, width: Int, height: Int, framesPerSecond: Double) throws {
        self.url = url
        self.format = format
        self.width = width
        self.height = height
        if format.needsEvenSize, width % 2 != 0 || height % 2 != 0 {
            throw CLIError.usage("\(url.lastPathComponent): \(format.rawValue) video needs an even width and height, not \(width)×\(height) pixels (choose another --size)")
        }
        let exe = try Self.locate()
        // Both files are created here, exclusively (see FileWriting): ffmpeg never opens a
        // name in the output folder. The video goes to the temporary file this process created,
        // handed to ffmpeg as its standard output and named `file:/dev/stdout` — on Linux that
        // opens the same file again (through /proc/self/fd/1), seekable, so MP4's +faststart
        // pass works; a link planted in the folder cannot redirect it. The temporary name keeps
        // the real extension's meaning out of it: the container is given with -f.
        let (tmp, videoFD) = try FileWriting.createTemporary(for: url)
        temporary = tmp
        var logPath = ""
        var logFD: Int32 = -1
        for _ in 0..<16 where logFD < 0 {
            logPath = FileManager.default.temporaryDirectory.appendingPathComponent("carender-ffmpeg-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log").path
            logFD = FileWriting.createExclusively(logPath)
        }
        logURL = URL(fileURLWithPath: logPath)
        guard logFD >= 0 else {
            close(videoFD); unlink(tmp.path)
            throw CLIError("cannot create ffmpeg's log file in \(FileManager.default.temporaryDirectory.path): \(String(cString: strerror(errno)))")
        }
        let log = FileHandle(fileDescriptor: logFD, closeOnDealloc: true)
        let video = FileHandle(fileDescriptor: videoFD, closeOnDealloc: true)
        process.executableURL = exe
        process.arguments = ["-hide_banner", "-loglevel", "error", "-nostdin",
                             "-f", "rawvideo", "-pix_fmt", format.keepsAlpha ? "rgba" : "rgb0",
                             "-s", "\(width)x\(height)", "-framerate", Self.rate(framesPerSecond), "-i", "pipe:0"]
            + format.encoderArguments + ["-y", "file:/dev/stdout"]
        process.standardInput = stdinPipe
        process.standardOutput = video
        process.standardError = log
        do { try process.run() } catch {
            try? video.close(); try? log.close()
            unlink(tmp.path); unlink(logPath)
            throw CLIError("cannot start ffmpeg at \(exe.path): \(FileWriting.reason(error))")
        }
        try? log.close()
        try? video.close()
    }

    /// ffmpeg's frame rate as an exact fraction where it is a whole number (30, 60, …).
    static func rate(_ fps: Double) -> String {
        fps == fps.rounded() ? String(Int(fps)) : String(format: "%.6f", fps)
    }

    static func locate() throws -> URL {
        if let forced = ProcessInfo.processInfo.environment["CARENDER_FFMPEG"], !forced.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: forced) else {
                throw CLIError("ffmpeg not found at \(forced) (CARENDER_FFMPEG); video output needs ffmpeg")
            }
            return URL(fileURLWithPath: forced)
        }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = String(dir) + "/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: p) { return URL(fileURLWithPath: p) }
        }
        throw CLIError("ffmpeg not found on PATH; video output (.mp4, .webm, .gif, .apng) needs it: apt-get install ffmpeg (or run tools/install-deps.sh), or write PNGs with -o out/%04d.png")
    }

    /// Writes one frame (called from the single encoder thread, in frame order).
    func write(_ frame: RenderedFrame) throws {
        var bytes = frame.pixels
        if format.keepsAlpha { Self.unpremultiply(&bytes) }
        let fd = stdinPipe.fileHandleForWriting.fileDescriptor
        try bytes.withUnsafeBytes { buf in
            var offset = 0
            while offset < buf.count {
                let n = Foundation.write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw earlyExit(String(cString: strerror(errno)), frame: frame.index)
                }
                offset += n
            }
        }
    }

    /// The error for an ffmpeg that stopped reading: its exit status and last message.
    func earlyExit(_ writeError: String, frame: Int) -> CLIError {
        process.waitUntilExit()
        return CLIError("ffmpeg exited early (status \(process.terminationStatus)) while frame \(frame) was written (\(writeError))\(lastLogLine())")
    }

    func lastLogLine() -> String {
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.last.map { ": \($0)" } ?? ""
    }

    /// Closes ffmpeg's input, waits for it to finish the file, renames it into place.
    func finish() throws {
        try? stdinPipe.fileHandleForWriting.close()
        process.waitUntilExit()
        finished = true
        defer { try? FileManager.default.removeItem(at: logURL) }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let status = process.terminationReason == .exit ? "status \(process.terminationStatus)" : "signal \(process.terminationStatus)"
            let msg = "ffmpeg failed (\(status))\(lastLogLine())"
            try? FileManager.default.removeItem(at: temporary)
            throw CLIError(msg)
        }
        try FileWriting.commit(temporary, to: url)
    }

    /// Stops ffmpeg and removes its unfinished file (an interruption or an error).
    func abort() {
        guard !finished else { return }
        finished = true
        try? stdinPipe.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: temporary)
        try? FileManager.default.removeItem(at: logURL)
    }

    /// Premultiplied → straight alpha, for formats that keep alpha (ffmpeg's rgba is straight).
    static func unpremultiply(_ p: inout [UInt8]) {
        p.withUnsafeMutableBufferPointer { b in
            var i = 0
            while i < b.count {
                let a = Int(b[i + 3])
                if a != 0 && a != 255 {
                    for c in 0..<3 { b[i + c] = UInt8(min(255, (Int(b[i + c]) * 255 + a / 2) / a)) }
                }
                i += 4
            }
        }
    }
}
