import Foundation
import CoreGraphics
import ImageIO

/// Image assets: embedded `data:` URLs (base64) or files beside the animation (`u` + `p`),
/// decoded through ImageIO. Bad or oversized images are skipped with an issue, never fatal.
enum LottieImages {
    static func load(_ assets: [LottieAssetModel], baseDirectory: URL?, archiveImages: [String: Data],
                     limits: LottieLimits, log: LottieIssueLog) -> [String: CGImage] {
        var out: [String: CGImage] = [:]
        for a in assets where a.layers == nil {
            guard let p = a.path, !p.isEmpty else { continue }
            if a.width > Double(limits.maxImageSide) || a.height > Double(limits.maxImageSide) {
                log.add(.limitReached, "image \"\(a.id)\" of \(Int.clamped(a.width))×\(Int.clamped(a.height)) px",
                        "larger than \(limits.maxImageSide) px a side; skipped")
                continue
            }
            var data: Data?
            if p.hasPrefix("data:") {
                guard let comma = p.firstIndex(of: ","), p[..<comma].hasSuffix(";base64") else {
                    log.add(.invalidValue, "image \"\(a.id)\"", "a data: URL that is not base64; skipped"); continue
                }
                data = Data(base64Encoded: String(p[p.index(after: comma)...]), options: .ignoreUnknownCharacters)
                if data == nil || data!.isEmpty { log.add(.invalidValue, "image \"\(a.id)\"", "base64 data does not decode; skipped"); continue }
            } else if let d = archiveImages[p] ?? archiveImages[(a.directory ?? "") + p] {
                data = d
            } else if let base = baseDirectory {
                let name = (a.directory ?? "") + p
                // Only files inside the animation's folder are read.
                let url = base.appendingPathComponent(name).standardizedFileURL
                guard url.path.hasPrefix(base.standardizedFileURL.path), !name.contains("..") else {
                    log.add(.invalidValue, "image \"\(a.id)\"", "path \(name) leaves the animation's folder; skipped"); continue
                }
                data = try? Data(contentsOf: url)
                if data == nil { log.add(.invalidValue, "image \"\(a.id)\"", "file \(name) not found; skipped"); continue }
            } else {
                log.add(.invalidValue, "image \"\(a.id)\"", "an external file (\(p)) and no folder to read it from; skipped"); continue
            }
            guard let d = data, let src = CGImageSourceCreateWithData(d as CFData, nil),
                  let img = CGImageSourceCreateImageAtIndex(src, 0, nil) else {
                log.add(.invalidValue, "image \"\(a.id)\"", "the data is not an image ImageIO decodes; skipped"); continue
            }
            guard img.width <= limits.maxImageSide, img.height <= limits.maxImageSide else {
                log.add(.limitReached, "image \"\(a.id)\"", "larger than \(limits.maxImageSide) px a side; skipped"); continue
            }
            out[a.id] = img
        }
        return out
    }
}
