import Foundation
import ImageIO

/// Where `<image>` references may be read from, and how deep SVG images nest.
///
/// - `SVGDocument(contentsOf:)` passes the document's folder: relative references are read from
///   files inside that folder or, as `../` references, from at most `parentLevels` folders above
///   it (`resources/` beside a folder of test files; never `/`-rooted paths, never anything
///   outside that tree after symlinks are resolved).
/// - `SVGDocument(data:)` and `SVGDocument(string:)` get no file access: only `data:` URLs.
/// - Nothing is ever fetched from the network.
struct SVGResourceContext {
    var baseDirectory: URL?
    /// How deep this document is nested as an SVG image of another (0: the top document).
    var depth = 0

    /// SVG images nest at most this deep (an SVG image inside an SVG image …).
    static let maxDepth = 4
    /// `../` steps a reference may take above the document's folder.
    static let parentLevels = 3
    /// Largest image file read (bytes).
    static let maxResourceBytes = 32 << 20
    /// Largest decoded `data:` URL payload (bytes); its base64 text (8 MiB) stays under
    /// libxml2's 10 MB limit on one attribute value, so the import, not the parser, reports it.
    static let maxDataURLBytes = 6 << 20
    /// Decoded raster pixels one document may hold in all its images (4 × 4096²).
    static let maxTotalPixels = 4 * 4096 * 4096
}

extension SVGBuilder {
    /// Raw bytes of an `<image>` reference and whether they are SVG, or nil (reported).
    func imageData(_ href: String) -> (data: Data, isSVG: Bool, file: String?)? {
        let feature = "<image href=\"\(href.prefix(60))\">"
        if href.hasPrefix("data:") {
            guard let comma = href.firstIndex(of: ",") else {
                log.add(.invalidValue, feature, "data: URL without a comma; not drawn"); return nil
            }
            let header = href[href.index(href.startIndex, offsetBy: 5)..<comma].lowercased()
            let payload = href[href.index(after: comma)...]
            // Base64 is 4/3 of the bytes; the check comes before decoding anything.
            guard payload.utf8.count / 4 * 3 <= SVGResourceContext.maxDataURLBytes else {
                log.add(.limitReached, "<image> data: URL", "larger than \(SVGResourceContext.maxDataURLBytes) bytes; not drawn")
                return nil
            }
            let data: Data?
            if header.hasSuffix(";base64") {
                data = Data(base64Encoded: payload.filter { !$0.isWhitespace }.description)
            } else {
                data = (payload.removingPercentEncoding ?? String(payload)).data(using: .utf8)
            }
            guard let data else { log.add(.invalidValue, feature, "data: URL does not decode; not drawn"); return nil }
            let isSVG = header.hasPrefix("image/svg+xml") || (!header.hasPrefix("image/") && Self.looksLikeSVG(data))
            return (data, isSVG, nil)
        }
        if href.contains("://") || href.hasPrefix("//") {
            log.add(.externalReference, feature, "images are never fetched from the network; not drawn")
            return nil
        }
        guard let base = resources.baseDirectory else {
            log.add(.externalReference, feature, resources.depth > 0
                    ? "an SVG image reads no files of its own (only data: URLs), as resvg; not drawn"
                    : "a document made from data has no folder to read files from; not drawn")
            return nil
        }
        guard let url = Self.resolveInside(base, href) else {
            log.add(.externalReference, feature,
                    "outside the document's folder (at most \(SVGResourceContext.parentLevels) levels up) or not a file; not drawn")
            return nil
        }
        let path = url.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              (attributes[.type] as? FileAttributeType) == .typeRegular else {
            log.add(.brokenReference, feature, "no such file; not drawn"); return nil
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= SVGResourceContext.maxResourceBytes else {
            log.add(.limitReached, feature, "file larger than \(SVGResourceContext.maxResourceBytes) bytes; not drawn"); return nil
        }
        guard let data = try? Data(contentsOf: url) else { log.add(.brokenReference, feature, "unreadable; not drawn"); return nil }
        let ext = url.pathExtension.lowercased()
        return (data, ext == "svg" || (ext != "png" && ext != "jpg" && ext != "jpeg" && ext != "gif" && ext != "webp" && Self.looksLikeSVG(data)), path)
    }

    static func looksLikeSVG(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(256), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return head.hasPrefix("<")
    }

    /// `href` relative to `base`, kept inside `base`'s tree (`parentLevels` folders above it at
    /// most) after `..` and symlinks are resolved; nil otherwise.
    static func resolveInside(_ base: URL, _ href: String) -> URL? {
        let decoded = href.removingPercentEncoding ?? href
        guard !decoded.hasPrefix("/"), !decoded.contains("\0"), !decoded.hasPrefix("file:") else { return nil }
        // The highest folder allowed: `parentLevels` above the document's, never the root itself.
        var root = base.standardizedFileURL.resolvingSymlinksInPath()
        guard root.path != "/" else { return nil }
        for _ in 0..<parentLevelsAllowed {
            let up = root.deletingLastPathComponent()
            if up.path == "/" || up.path.isEmpty { break }
            root = up
        }
        let url = base.appendingPathComponent(decoded).standardizedFileURL.resolvingSymlinksInPath()
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        guard url.path.hasPrefix(rootPath) else { return nil }
        return url
    }
    static var parentLevelsAllowed: Int { SVGResourceContext.parentLevels }

    /// `<image>` (SVG 1.1 §5.7, SVG 2 §5.7): a raster (PNG, JPEG, GIF, WebP through ImageIO) as a
    /// layer's `contents`, or an SVG document as its layer tree, placed in the x/y/width/height
    /// viewport by `preserveAspectRatio` and clipped to it. A missing width or height (or `auto`)
    /// comes from the image's own size, keeping its aspect ratio.
    func image(_ e: SVGElement, style: SVGComputedStyle) -> (layer: CALayer, extent: CGRect, bbox: CGRect)? {
        guard style.visible else { return nil }
        guard let href = e.attributes["href"]?.trimmingCharacters(in: .whitespacesAndNewlines), !href.isEmpty else { return nil }
        guard let (data, isSVG, _) = imageData(href) else { return nil }
        let feature = "<image href=\"\(href.prefix(60))\">"
        var content: CALayer
        var natural: CGSize
        if isSVG {
            guard resources.depth < SVGResourceContext.maxDepth else {
                log.add(.limitReached, feature, "SVG images nested more than \(SVGResourceContext.maxDepth) deep; not drawn"); return nil
            }
            // An SVG image reads no files of its own (resvg loads nested SVG images the same way),
            // which also ends any file recursion after one level.
            let inner = SVGResourceContext(baseDirectory: nil, depth: resources.depth + 1)
            guard let doc = try? SVGDocument(data: data, limits: limits, resources: inner) else {
                log.add(.invalidValue, feature, "the SVG image does not parse; not drawn"); return nil
            }
            for i in doc.issues { log.add(i.kind, "\(feature): \(i.feature)", i.detail) }
            content = doc.layer
            natural = doc.size
        } else {
            let image: CGImage
            do {
                guard let source = CGImageSourceCreateWithData(data, nil) else { return nil }
                image = try source.decodeImage(at: 0)
            } catch {
                log.add(.invalidValue, feature, "\(error); not drawn"); return nil
            }
            let pixels = image.width * image.height
            imagePixels += pixels
            guard imagePixels <= SVGResourceContext.maxTotalPixels else {
                log.add(.limitReached, feature, "the document's images hold more than \(SVGResourceContext.maxTotalPixels) pixels; not drawn")
                return nil
            }
            let layer = CALayer()
            layer.contents = image
            // image-rendering (SVG 1.1 §15.17): the speed hint samples the nearest pixel, as resvg does.
            let rendering = e.attributes["image-rendering"] ?? e.parent?.attributes["image-rendering"] ?? "auto"
            if rendering == "optimizeSpeed" || rendering == "pixelated" || rendering == "crisp-edges" {
                layer.magnificationFilter = .nearest
                layer.minificationFilter = .nearest
            }
            content = layer
            natural = CGSize(width: image.width, height: image.height)
            content.anchorPoint = .zero
            content.bounds = CGRect(origin: .zero, size: natural)
        }
        guard natural.width > 0, natural.height > 0 else { return nil }
        let ctx = SVGShapeGeometry.Context(viewport: viewport, fontSize: style.fontSize, log: log, limits: limits)
        let x = SVGShapeGeometry.length(e, "x", .x, ctx), y = SVGShapeGeometry.length(e, "y", .y, ctx)
        func side(_ n: String, _ axis: SVGLength.Axis) -> Double? {
            guard let raw = e.attributes[n], raw != "auto", SVGLength.parse(raw) != nil else { return nil }
            return SVGShapeGeometry.length(e, n, axis, ctx)
        }
        var w = side("width", .x), h = side("height", .y)
        switch (w, h) {
        case (nil, nil): w = natural.width; h = natural.height
        case (let w?, nil): h = w * natural.height / natural.width
        case (nil, let h?): w = h * natural.width / natural.height
        default: break
        }
        guard let w, let h, w > 0, h > 0 else { return nil }
        let rect = CGRect(x: x, y: y, width: w, height: h)
        let par = SVGAspectRatio.parse(e.attributes["preserveAspectRatio"]) ?? SVGAspectRatio()
        let m = par.transform(viewBox: CGRect(origin: .zero, size: natural), viewport: rect.size)
            .concatenating(CGAffineTransform(translationX: x, y: y))
        let clip = CALayer()
        clip.masksToBounds = true
        SVGLayerPlacement.place(clip, rect: rect)
        SVGLayerPlacement.place(content, rect: CGRect(origin: .zero, size: natural), transform: m)
        clip.addSublayer(content)
        return (clip, rect, rect)
    }
}
