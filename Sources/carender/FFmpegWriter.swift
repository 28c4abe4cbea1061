import Foundation

/// A video written by an `ffmpeg` child process fed raw RGBA frames on its standard input
/// (`-f rawvideo`). ffmpeg writes a temporary file (created by carender, see `init`) that is
/// renamed to the final name only after ffmpeg exits successfully; on an error or a second
/// interrupt the process group is killed and the temporary file removed. With no URL the
/// video goes to carender's standard output (`-o -`). ffmpeg runs in a process group of its
/// own (`ChildProcess`), is looked up on PATH, or taken from `CARENDER_FFMPEG`.
final class FFmpegWriter: @unchecked Sendable {
    let url: URL?
    let temporary: URL?
    let encoding: VideoEncoding
    let width: Int, height: Int
    let child: ChildProcess
    let stdinFD: Int32
    let logURL: URL
    var finished = false

    convenience init(url: URL, format: VideoFormat, width: Int, height: Int, framesPerSecond: Double) throws {
        try self.init(url: url, encoding: try VideoEncoding(format: format), width: width, height: height, framesPerSecond: framesPerSecond)
    }

    init(url: URL?, encoding: VideoEncoding, width: Int, height: Int, framesPerSecond: Double) throws {
        self.url = url
        self.encoding = encoding
        self.width = width
        self.height = height
        let name = url?.lastPathComponent ?? "-"
        if encoding.evenWidth && width % 2 != 0 || encoding.evenHeight && height % 2 != 0 {
            throw CLIError.usage("\(name): \(encoding.codec.rawValue) in \(encoding.resolvedPixFmt) needs an even \(encoding.evenHeight ? "width and height" : "width"), not \(width)×\(height) pixels (choose another --size, or --pix-fmt)")
        }
        let exe = try Self.locate()
        // Both files are created here, exclusively (see FileWriting): ffmpeg never opens a
        // name in the output folder. The video goes to the temporary file this process created,
        // handed to ffmpeg as its standard output and named `file:/dev/stdout` — on Linux that
        // opens the same file again (through /proc/self/fd/1), seekable, so MP4's +faststart
        // pass works; a link planted in the folder cannot redirect it. The temporary name keeps
        // the real extension's meaning out of it: the container is given with -f.
        var videoFD: Int32 = STDOUT_FILENO
        var tmpURL: URL?
        if let url {
            let (tmp, fd) = try FileWriting.createTemporary(for: url)
            tmpURL = tmp
            videoFD = fd
        }
        temporary = tmpURL
        let dropVideo = { [tmpURL, videoFD] in
            guard let tmpURL else { return }
            close(videoFD); unlink(tmpURL.path); Interrupts.untrack(temporary: tmpURL.path)
        }
        var logPath = ""
        var logFD: Int32 = -1
        for _ in 0..<16 where logFD < 0 {
            logPath = FileManager.default.temporaryDirectory.appendingPathComponent("carender-ffmpeg-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log").path
            logFD = FileWriting.createExclusively(logPath)
        }
        logURL = URL(fileURLWithPath: logPath)
        guard logFD >= 0 else {
            dropVideo()
            throw CLIError("cannot create ffmpeg's log file in \(FileManager.default.temporaryDirectory.path): \(String(cString: strerror(errno)))")
        }
        Interrupts.track(temporary: logPath)
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0, fcntl(fds[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(fds[1], F_SETFD, FD_CLOEXEC) == 0 else {
            dropVideo(); close(logFD); unlink(logPath)
            throw CLIError("cannot create a pipe to ffmpeg: \(String(cString: strerror(errno)))")
        }
        var arguments = ["-hide_banner", "-loglevel", "error", "-nostdin",
                         "-f", "rawvideo", "-pix_fmt", encoding.keepsAlpha ? "rgba" : "rgb0",
                         "-s", "\(width)x\(height)", "-framerate", Self.rate(framesPerSecond), "-i", "pipe:0"]
        if let audio = encoding.audio {
            arguments += ["-ss", String(format: "%.6f", audio.start), "-t", String(format: "%.6f", audio.duration), "-i", "file:" + audio.path]
        }
        arguments += encoding.outputArguments + ["-y", url == nil ? "pipe:1" : "file:/dev/stdout"]
        do {
            child = try ChildProcess(executable: exe.path, arguments: arguments, stdin: fds[0], stdout: videoFD, stderr: logFD)
        } catch {
            close(fds[0]); close(fds[1]); close(logFD); unlink(logPath); dropVideo()
            throw CLIError("cannot start ffmpeg at \(exe.path): \(error)")
        }
        close(fds[0])
        close(logFD)
        if url != nil { close(videoFD) }
        stdinFD = fds[1]
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
        throw CLIError("ffmpeg not found on PATH; video output (.mp4, .mov, .mkv, .webm, .gif, .apng) needs it: apt-get install ffmpeg (or run tools/install-deps.sh), or write PNGs with -o out/%04d.png")
    }

    /// Writes one frame (called from the single encoder thread, in frame order).
    func write(_ frame: RenderedFrame) throws {
        var bytes = frame.pixels
        if encoding.keepsAlpha { Self.unpremultiply(&bytes) }
        let fd = stdinFD
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
        let (_, status) = child.wait()
        return CLIError("ffmpeg exited early (status \(status)) while frame \(frame) was written (\(writeError))\(lastLogLine())")
    }

    func lastLogLine() -> String {
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.last.map { ": \($0)" } ?? ""
    }

    func removeLog() {
        unlink(logURL.path)
        Interrupts.untrack(temporary: logURL.path)
    }

    /// Closes ffmpeg's input, waits for it to finish the file, renames it into place.
    func finish() throws {
        guard !finished else { return }
        close(stdinFD)
        let (exited, status) = child.wait()
        finished = true
        defer { removeLog() }
        guard exited, status == 0 else {
            let what = exited ? "status \(status)" : "signal \(status - 128)"
            let msg = "ffmpeg failed (\(what))\(lastLogLine())"
            if let temporary { unlink(temporary.path); Interrupts.untrack(temporary: temporary.path) }
            throw CLIError(msg)
        }
        if let temporary, let url { try FileWriting.commit(temporary, to: url) }
    }

    /// Kills ffmpeg and removes its unfinished file (an error).
    func abort() {
        guard !finished else { return }
        finished = true
        close(stdinFD)
        child.kill()
        if let temporary { unlink(temporary.path); Interrupts.untrack(temporary: temporary.path) }
        removeLog()
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
