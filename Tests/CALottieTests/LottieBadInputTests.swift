import Testing
import Foundation
import ZIPFoundation

/// Hostile input (issue 23): each a clear error or a documented clamp, in bounded time/memory.
@Suite struct LottieBadInputTests {
    @Test func precompCycleIsAnError() {
        let a = #"{"id":"a","layers":[{"ty":0,"ind":1,"refId":"b","w":10,"h":10,"ip":0,"op":10,"st":0,"ks":{}}]}"#
        let b = #"{"id":"b","layers":[{"ty":0,"ind":1,"refId":"a","w":10,"h":10,"ip":0,"op":10,"st":0,"ks":{}}]}"#
        let top = #"{"ty":0,"ind":1,"refId":"a","w":10,"h":10,"ip":0,"op":10,"st":0,"ks":{}}"#
        #expect(throws: LottieError.precompCycle(assetID: "a")) {
            try LottieAnimation(data: lottie(layers: top, assets: a + "," + b))
        }
    }

    @Test func hundredThousandLayersExceedTheLimit() {
        let one = #"{"ty":3,"ip":0,"op":10,"st":0,"ks":{}}"#
        let layers = Array(repeating: one, count: 100_000).joined(separator: ",")
        #expect(throws: LottieError.limitExceeded("more than 20000 layers (precomposition uses counted each time)")) {
            try LottieAnimation(data: lottie(layers: layers))
        }
    }

    @Test func precompFanOutIsCountedPerUse() {
        // 200 uses of a 200-layer precomp: 40,000 built layers, over the limit, though the
        // file is small.
        let inner = Array(repeating: #"{"ty":3,"ip":0,"op":10,"st":0,"ks":{}}"#, count: 200).joined(separator: ",")
        let uses = Array(repeating: #"{"ty":0,"refId":"p","w":10,"h":10,"ip":0,"op":10,"st":0,"ks":{}}"#, count: 200).joined(separator: ",")
        #expect(throws: LottieError.self) {
            try LottieAnimation(data: lottie(layers: uses, assets: #"{"id":"p","layers":[\#(inner)]}"#))
        }
    }

    @Test func billionFramesAreRefused() {
        #expect(throws: LottieError.limitExceeded("1000000000.0 frames (limit 1000000)")) {
            try LottieAnimation(data: lottie(op: 1e9, layers: ""))
        }
    }

    @Test func hugeImageIsSkippedWithAnIssue() throws {
        let asset = #"{"id":"img","w":100000,"h":100000,"p":"data:image/png;base64,AAAA","e":1}"#
        let layer = #"{"ty":2,"ind":1,"refId":"img","ip":0,"op":10,"st":0,"ks":{}}"#
        let a = try LottieAnimation(data: lottie(layers: layer, assets: asset))
        #expect(a.issues.contains { $0.kind == .limitReached })
        _ = a.makeLayer()
    }

    @Test func base64GarbageIsSkippedWithAnIssue() throws {
        let asset = #"{"id":"img","w":10,"h":10,"p":"data:image/png;base64,!!!!not-an-image====","e":1}"#
        let layer = #"{"ty":2,"ind":1,"refId":"img","ip":0,"op":10,"st":0,"ks":{}}"#
        let a = try LottieAnimation(data: lottie(layers: layer, assets: asset))
        #expect(a.issues.contains { $0.kind == .invalidValue && $0.feature == "image \"img\"" })
    }

    @Test func deepNestingIsAnError() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: LottieError.self) { try LottieAnimation(data: Data(deep.utf8)) }
    }

    /// A dotLottie whose one entry inflates past `maxArchiveBytes` stops reading there.
    @Test func zipBombIsStopped() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lottie-bomb-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("bomb.lottie")
        let archive = try Archive(url: url, accessMode: .create)
        let zeros = Data(count: 8 << 20)
        try archive.addEntry(with: "animations/a.json", type: .file, uncompressedSize: Int64(zeros.count),
                             compressionMethod: .deflate) { pos, size in zeros.subdata(in: Int(pos)..<Int(pos) + size) }
        var limits = LottieLimits()
        limits.maxArchiveBytes = 1 << 20
        #expect(throws: LottieError.limitExceeded("the dotLottie archive inflates to more than 1048576 bytes")) {
            try LottieAnimation(filepath: url.path, limits: limits)
        }
    }

    @Test func dotLottieReadsItsAnimation() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lottie-ok-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("ok.lottie")
        let archive = try Archive(url: url, accessMode: .create)
        let manifest = Data(#"{"version":"1","animations":[{"id":"main"}]}"#.utf8)
        let anim = lottie(w: 64, h: 32, layers: "")
        for (name, data) in [("manifest.json", manifest), ("animations/main.json", anim)] {
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { pos, size in
                data.subdata(in: Int(pos)..<Int(pos) + size)
            }
        }
        let a = try LottieAnimation(filepath: url.path)
        #expect(a.size == CGSize(width: 64, height: 32))
    }

    @Test func notAZipIsAnError() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).lottie")
        try Data("not a zip".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: LottieError.self) { try LottieAnimation(filepath: url.path) }
    }
}
