import XCTest
import Foundation

/// Render farms (issue 25): `--shard auto` from the job system's environment, and `carender
/// join` putting the shards back together without re-encoding, equal to one render.
final class CarenderFarmTests: CarenderTestCase {
    let small = ["--scale", "0.25", "--frames", "0..<20", "--quiet"]

    /// The names a shard wrote: its slice of 20 frames (0..<6, 6..<13, 13..<20 for 3 slices).
    func names(_ env: [String: String], extra: [String] = []) throws -> (Int32, [String]) {
        let out = "o\(UUID().uuidString.prefix(8))"
        let r = try Carender.run(["render", "--shard", "auto", "-o", "\(out)/%02d.png"] + extra + small, in: dir, env: env)
        return (r.status, listing(dir.appendingPathComponent(out)))
    }

    func testShardAutoReadsKubernetesSlurmAndAWSBatch() throws {
        let second = (6..<13).map { String(format: "%02d.png", $0) }
        XCTAssertEqual(try names(["JOB_COMPLETION_INDEX": "1", "CARENDER_SHARD_COUNT": "3"]).1, second, "Kubernetes Indexed Job")
        XCTAssertEqual(try names(["JOB_COMPLETION_INDEX": "1"], extra: ["--shard-count", "3"]).1, second, "--shard-count")
        XCTAssertEqual(try names(["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"]).1, second, "Slurm with a count")
        XCTAssertEqual(try names(["SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_MIN": "7", "SLURM_ARRAY_TASK_MAX": "9"]).1, second, "Slurm --array=7-9")
        XCTAssertEqual(try names(["AWS_BATCH_JOB_ARRAY_INDEX": "1", "CARENDER_SHARD_COUNT": "3"]).1, second, "AWS Batch")
        // What cannot work is a usage error naming the fix.
        let none = try Carender.run(["render", "--shard", "auto", "-o", "x/%d.png"] + small, in: dir)
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.contains("JOB_COMPLETION_INDEX"), none.stderr)
        let noCount = try Carender.run(["render", "--shard", "auto", "-o", "x/%d.png"] + small, in: dir, env: ["JOB_COMPLETION_INDEX": "0"])
        XCTAssertEqual(noCount.status, 2)
        XCTAssertTrue(noCount.stderr.contains("--shard-count"), noCount.stderr)
        XCTAssertEqual(try names(["JOB_COMPLETION_INDEX": "3", "CARENDER_SHARD_COUNT": "3"]).0, 2, "index past the count")
        XCTAssertEqual(try names(["JOB_COMPLETION_INDEX": "one", "CARENDER_SHARD_COUNT": "3"]).0, 2)
    }

    /// Three shard processes at once (as three pods would run), each an MKV of its slice
    /// (lossless H.264, --crf 0), joined with stream copy: the decoded frames equal a single
    /// render's, frame for frame (ffmpeg's framemd5 of each frame). PNG shards joined into one
    /// folder are byte-identical to a single run's files.
    func testShardProcessesJoinedEqualASingleRenderFrameForFrame() throws {
        var procs: [Process] = []
        for k in 0..<3 {
            procs.append(try Carender.start(["render", "--shard", "auto", "--crf", "0", "-o", "part-\(k).mkv"] + small, in: dir,
                                            env: ["JOB_COMPLETION_INDEX": "\(k)", "CARENDER_SHARD_COUNT": "3"],
                                            stdout: dir.appendingPathComponent(".stdout-\(k)"), stderr: dir.appendingPathComponent(".stderr-\(k)")))
        }
        for p in procs { p.waitUntilExit(); XCTAssertEqual(p.terminationStatus, 0) }
        XCTAssertEqual(try Carender.run(["render", "--crf", "0", "-o", "single.mkv"] + small, in: dir).status, 0)
        let join = try Carender.run(["join", "-o", "joined.mkv", "part-*.mkv"], in: dir)
        XCTAssertEqual(join.status, 0, join.stderr)
        func frameHashes(_ name: String) throws -> [String] {
            let r = try Tools.run("ffmpeg", ["-v", "error", "-i", dir.appendingPathComponent(name).path, "-f", "framemd5", "-"])
            return String(decoding: r.out, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
                .map { String($0.split(separator: ",").last ?? "").trimmingCharacters(in: .whitespaces) }
        }
        let single = try frameHashes("single.mkv"), joined = try frameHashes("joined.mkv")
        XCTAssertEqual(single.count, 20)
        XCTAssertEqual(joined, single)
        XCTAssertEqual(try frameHashes("part-1.mkv"), Array(single[6..<13]), "the middle shard is frames 6..<13")

        for k in 0..<3 {
            XCTAssertEqual(try Carender.run(["render", "--shard", "\(k)/3", "-o", "png-\(k)/%03d.png"] + small, in: dir).status, 0)
        }
        XCTAssertEqual(try Carender.run(["render", "-o", "png-single/%03d.png"] + small, in: dir).status, 0)
        let pj = try Carender.run(["join", "-o", "png-joined/%03d.png", "png-0", "png-1", "png-2"], in: dir)
        XCTAssertEqual(pj.status, 0, pj.stderr)
        let names = listing(dir.appendingPathComponent("png-single"))
        XCTAssertEqual(listing(dir.appendingPathComponent("png-joined")), names)
        for n in names {
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("png-joined/\(n)")), try Data(contentsOf: dir.appendingPathComponent("png-single/\(n)")), n)
        }
        // A frame in two parts is an error; so is joining GIFs (no stream copy for them).
        let twice = try Carender.run(["join", "-o", "dup/%03d.png", "png-0", "png-0"], in: dir)
        XCTAssertEqual(twice.status, 1)
        XCTAssertEqual(try Carender.run(["join", "-o", "x.gif", "part-0.mkv"], in: dir).status, 2)
        XCTAssertFalse(listing(dir).contains { $0.contains(".partial-") }, "no temporary file left")
    }
}
