import XCTest
import Foundation

/// Signals and exit statuses (issue 25): a first SIGINT/SIGTERM finishes the frame in hand and
/// closes the video cleanly (shorter, playable); a second exits at once, killing ffmpeg's
/// process group and removing every temporary file; usage errors exit with 2.
final class CarenderSignalTests: CarenderTestCase {
    let small = ["--scale", "0.25"]

    /// A stand-in for ffmpeg that records its pid and then becomes `command`, so the test can
    /// check afterwards that no such process is left.
    func wrapper(_ command: String) throws -> URL {
        let u = dir.appendingPathComponent("ffmpeg-wrapper.sh")
        try Data("#!/bin/sh\necho $$ > '\(dir.path)/ffmpeg.pid'\nexec \(command)\n".utf8).write(to: u)
        chmod(u.path, 0o755)
        return u
    }

    func ffmpegPID() -> pid_t? {
        (try? String(contentsOf: dir.appendingPathComponent("ffmpeg.pid"), encoding: .utf8))
            .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Alive and not a zombie.
    func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    func output() -> [String] { listing(dir).filter { !$0.hasSuffix("-x") && $0 != "ffmpeg-wrapper.sh" && $0 != "ffmpeg.pid" } }

    func start(_ args: [String], env: [String: String]) throws -> Process {
        try Carender.start(args, in: dir, env: env, stdout: dir.appendingPathComponent(".stdout-x"), stderr: dir.appendingPathComponent(".stderr-x"))
    }

    func waitForExit(_ p: Process, seconds: Double = 60) {
        let deadline = Date().addingTimeInterval(seconds)
        while p.isRunning, Date() < deadline { usleep(10_000) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL); XCTFail("carender did not exit") }
        p.waitUntilExit()
    }

    /// First SIGTERM (and SIGINT) during an MP4: exit 128 + signal, the MP4 is complete and
    /// shorter (ffprobe counts its frames), no temporary file, ffmpeg gone.
    func testFirstSignalClosesTheVideoPlayableAndShorter() throws {
        guard let ffmpeg = Carender.which("ffmpeg") else { throw XCTSkip("ffmpeg is not installed") }
        let exe = try wrapper("'\(ffmpeg)' \"$@\"")
        for sig in [SIGTERM, SIGINT] {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent("ffmpeg.pid"))
            let p = try start(["render", "--frames", "0..<100000", "-o", "clip.mp4"] + small, env: ["CARENDER_FFMPEG": exe.path])
            let deadline = Date().addingTimeInterval(60)
            // Some frames in: the temporary file has grown.
            func partialSize() -> Int {
                listing(dir).filter { $0.contains(".partial-") }.compactMap {
                    (try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent($0).path))?[.size] as? Int
                }.max() ?? 0
            }
            while p.isRunning, Date() < deadline, ffmpegPID() == nil || partialSize() < 2000 { usleep(20_000) }
            XCTAssertTrue(p.isRunning, "the render ended before it was interrupted")
            kill(p.processIdentifier, sig)
            waitForExit(p)
            XCTAssertEqual(p.terminationStatus, 128 + sig)
            XCTAssertEqual(output(), ["clip.mp4"], "the video under its name, no temporary file")
            let probe = try Tools.probe(dir.appendingPathComponent("clip.mp4"), entries: "codec_name,nb_read_packets")
            XCTAssertEqual(probe["codec_name"], "h264")
            let frames = Int(probe["nb_read_packets"] ?? "") ?? 0
            XCTAssertGreaterThan(frames, 0)
            XCTAssertLessThan(frames, 100000)
            if let pid = ffmpegPID() { XCTAssertFalse(isRunning(pid), "ffmpeg \(pid) left running") } else { XCTFail("ffmpeg never started") }
            let err = (try? String(contentsOf: dir.appendingPathComponent(".stderr-x"), encoding: .utf8)) ?? ""
            XCTAssertTrue(err.contains("interrupted"), err)
            try FileManager.default.removeItem(at: dir.appendingPathComponent("clip.mp4"))
        }
    }

    /// A second signal exits at once even when ffmpeg hangs (here a stand-in that never reads
    /// its input, so the first signal cannot finish the file): status 128 + the second signal,
    /// the stand-in's process group killed, no temporary file left, no ffmpeg log left.
    func testSecondSignalAbortsAtOnceLeavingNothing() throws {
        let exe = try wrapper("sleep 600")
        let p = try start(["render", "--frames", "0..<100000", "-o", "clip.mkv"] + small, env: ["CARENDER_FFMPEG": exe.path])
        let deadline = Date().addingTimeInterval(60)
        while p.isRunning, Date() < deadline, ffmpegPID() == nil || !listing(dir).contains(where: { $0.contains(".partial-") }) { usleep(20_000) }
        XCTAssertTrue(p.isRunning)
        usleep(300_000)   // the pipe to the stand-in fills up: carender is stuck writing
        kill(p.processIdentifier, SIGINT)
        usleep(200_000)
        XCTAssertTrue(p.isRunning, "a hung ffmpeg keeps the first signal from finishing")
        kill(p.processIdentifier, SIGTERM)
        waitForExit(p, seconds: 10)
        XCTAssertEqual(p.terminationStatus, 128 + SIGTERM)
        XCTAssertEqual(output(), [], "no video and no temporary file")
        if let pid = ffmpegPID() { XCTAssertFalse(isRunning(pid), "the stand-in \(pid) left running") } else { XCTFail("the stand-in never started") }
        let logs = (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
        XCTAssertFalse(logs.contains { $0.hasPrefix("carender-ffmpeg-\(p.processIdentifier)-") }, "ffmpeg's log left behind")
    }

    /// Exit statuses: 2 for the argument parser's own errors (unknown option, missing value)
    /// as for carender's usage errors, 1 for a failed run; `--help` documents them.
    func testUsageErrorsExitWith2AndHelpDocumentsTheStatuses() throws {
        for args in [["render", "--no-such-option"], ["render", "--frames"], ["no-such-command"], ["render", "--time", "soon", "-o", "x.png"]] {
            let r = try Carender.run(args, in: dir)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
        }
        let failed = try Carender.run(["render", "missing.json", "-o", "x.png"], in: dir)
        XCTAssertEqual(failed.status, 1)
        let help = try Carender.run(["--help"], in: dir)
        XCTAssertTrue(help.stdout.contains("Exit status: 0 success; 1"), help.stdout)
        XCTAssertTrue(help.stdout.contains("2 a usage error"), help.stdout)
    }
}
