import Foundation
internal import ZIPFoundation

/// A dotLottie archive (`.lottie`: a zip with `manifest.json`, `animations/*.json`, `images/`),
/// read through ZIPFoundation with limits: the number of entries and the bytes actually
/// inflated are counted while reading (a zip bomb's forged sizes do not help it), and reading
/// stops with `LottieError.limitExceeded` past `LottieLimits.maxArchiveEntries` /
/// `maxArchiveBytes`.
struct DotLottieFile {
    /// The first animation the manifest lists (else the first `animations/*.json`).
    var animationData: Data
    /// Images by their name under `images/` (also by their full entry path).
    var images: [String: Data]
    var animationIDs: [String]

    init(url: URL, limits: LottieLimits) throws {
        let archive: Archive
        do { archive = try Archive(url: url, accessMode: .read) } catch {
            throw LottieError.unreadable("\(url.lastPathComponent) is not a zip archive (\(error))")
        }
        try self.init(archive: archive, limits: limits)
    }

    init(data: Data, limits: LottieLimits) throws {
        let archive: Archive
        do { archive = try Archive(data: data, accessMode: .read) } catch {
            throw LottieError.unreadable("not a zip archive (\(error))")
        }
        try self.init(archive: archive, limits: limits)
    }

    private struct Stop: Error {}

    private init(archive: Archive, limits: LottieLimits) throws {
        var entries: [Entry] = []
        for e in archive {
            entries.append(e)
            guard entries.count <= limits.maxArchiveEntries else {
                throw LottieError.limitExceeded("more than \(limits.maxArchiveEntries) entries in the dotLottie archive")
            }
        }
        var budget = limits.maxArchiveBytes
        func read(_ e: Entry) throws -> Data {
            var out = Data()
            var overBudget = false
            do {
                _ = try archive.extract(e, skipCRC32: false) { chunk in
                    budget -= chunk.count
                    if budget < 0 { overBudget = true; throw Stop() }
                    out.append(chunk)
                }
            } catch {
                if overBudget {
                    throw LottieError.limitExceeded("the dotLottie archive inflates to more than \(limits.maxArchiveBytes) bytes")
                }
                throw LottieError.unreadable("entry \(e.path) of the dotLottie archive: \(error)")
            }
            return out
        }
        var ids: [String] = []
        if let m = entries.first(where: { $0.path == "manifest.json" }) {
            let data = try read(m)
            struct Manifest: Decodable { struct A: Decodable { var id: String }; var animations: [A]? }
            ids = (try? JSONDecoder().decode(Manifest.self, from: data))?.animations?.map(\.id) ?? []
        }
        let animations = entries.filter { $0.type == .file && $0.path.hasPrefix("animations/") && $0.path.hasSuffix(".json") }
        guard let chosen = ids.lazy.compactMap({ id in animations.first { $0.path == "animations/\(id).json" } }).first ?? animations.first else {
            throw LottieError.unreadable("the dotLottie archive has no animations/*.json")
        }
        animationIDs = ids.isEmpty ? animations.map { String($0.path.dropFirst(11).dropLast(5)) } : ids
        animationData = try read(chosen)
        var images: [String: Data] = [:]
        for e in entries where e.type == .file && e.path.hasPrefix("images/") {
            let d = try read(e)
            images[e.path] = d
            images[String(e.path.dropFirst(7))] = d
        }
        self.images = images
    }
}
