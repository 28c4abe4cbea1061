import Foundation

/// An SVG document imported as a live Core Animation layer tree — an extension beyond Apple's
/// API (iOS apps use PocketSVG-style libraries for this). Paths and basic shapes become
/// `CAShapeLayer`s, gradient paints `CAGradientLayer`s masked by their shape, groups plain
/// `CALayer`s with `opacity` and affine `transform`s, `clip-path` and `mask` layer masks.
/// Every layer's coordinates are its element's SVG user space (y down, origin top-left, like
/// layer space), so the tree can be animated like any other: a path's `strokeEnd`, a group's
/// `transform`, a gradient's `colors`.
///
/// ```swift
/// let doc = try SVGDocument(data: Data(contentsOf: url))
/// root.addSublayer(doc.layer)          // doc.layer.bounds == CGRect(origin: .zero, size: doc.size)
/// for issue in doc.issues { print(issue) }   // what could not be reproduced exactly
/// ```
///
/// Malformed or hostile input throws `SVGError` (never crashes or hangs: see
/// `SVGImportLimits`); features that are not supported or only approximated are listed in
/// `issues`, never dropped silently.
public final class SVGDocument {
    /// The intrinsic size in points: the root's `width`/`height` (absolute units at 96 per
    /// inch), or the `viewBox` size where they are missing or percentages (a missing side
    /// follows the viewBox's aspect ratio), else 100 × 100.
    public let size: CGSize
    /// The root's `viewBox`, if valid.
    public let viewBox: CGRect?
    /// The root layer: `bounds` = (0, 0, size), `masksToBounds` (the SVG viewport clips),
    /// anchored at its top-left corner with `position` (0, 0). Its one sublayer maps the
    /// viewBox into that size. Scale it (or render with a `CARenderer` scale) to draw the
    /// document larger.
    public let layer: CALayer
    /// Everything that was not reproduced exactly: unsupported elements and properties,
    /// approximations, external references not fetched, clamps. Each listed once.
    public let issues: [SVGIssue]

    /// Parses SVG bytes (UTF-8 or with an XML encoding declaration). `<image>` elements can use
    /// `data:` URLs only: a document made from data has no folder to read files from.
    public init(data: Data, limits: SVGImportLimits = SVGImportLimits()) throws {
        (size, viewBox, layer, issues) = try Self.importTree(data, limits: limits, resources: SVGResourceContext())
    }

    /// A document whose `<image>` references are read as `resources` says (its folder, nesting).
    init(data: Data, limits: SVGImportLimits, resources: SVGResourceContext) throws {
        (size, viewBox, layer, issues) = try Self.importTree(data, limits: limits, resources: resources)
    }

    private static func importTree(_ data: Data, limits: SVGImportLimits, resources: SVGResourceContext) throws
        -> (CGSize, CGRect?, CALayer, [SVGIssue]) {
        let log = SVGIssueLog()
        let root = try SVGXMLReader.read(data, limits: limits, log: log)
        guard root.name == "svg" else { throw SVGError.notSVG(rootElement: root.name) }
        let vb = SVGAspectRatio.viewBox(root.attributes["viewBox"])
        if root.attributes["viewBox"] != nil, vb == nil {
            log.add(.invalidValue, "viewBox=\"\(root.attributes["viewBox"]!.prefix(60))\"", "needs four numbers with positive width and height; ignored")
        }
        // A negative width or height is an error (SVG 1.1 §5.1.2): the document draws nothing,
        // as resvg and the browsers do.
        var inError = false
        func side(_ name: String, _ vbSide: Double?) -> Double? {
            guard let raw = root.attributes[name] else { return nil }
            if let l = SVGLength.parse(raw), l.value < 0 {
                log.add(.invalidValue, "\(name)=\"\(raw.prefix(40))\"", "negative: the document is in error and draws nothing")
                inError = true
                return nil
            }
            guard let l = SVGLength.parse(raw), l.value > 0 else {
                log.add(.invalidValue, "\(name)=\"\(raw.prefix(40))\"", "not a positive length; ignored")
                return nil
            }
            if l.unit == .percent { return vbSide.map { $0 * l.value / 100 } }
            let v = l.resolve(.other, viewport: .zero)
            return min(v, Double(limits.maxCoordinate))
        }
        var w = side("width", vb.map { Double($0.width) })
        var h = side("height", vb.map { Double($0.height) })
        if let vb {
            if w == nil, h == nil { w = vb.width; h = vb.height }
            else if w == nil, let h { w = h * vb.width / vb.height }
            else if h == nil, let w { h = w * vb.height / vb.width }
        }
        let size = CGSize(width: w ?? 100, height: h ?? 100)

        // The tree is built in a transaction of its own, committed before returning: layers made
        // in the thread's implicit transaction stay referenced by it until something commits, and
        // a server thread that only imports (no run loop, no renderer; CATransaction's doc: "if
        // there is no run-loop … it may be necessary to use explicit transactions") kept every
        // document it ever imported (about 4 KB a document). Nested in an open transaction, the
        // commit folds into it, as Apple's nested transactions do.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        let builder = SVGBuilder(root: root, viewport: vb?.size ?? size, log: log, limits: limits)
        builder.resources = resources
        let rootLayer = CALayer()
        rootLayer.anchorPoint = .zero
        rootLayer.bounds = CGRect(origin: .zero, size: size)
        rootLayer.position = .zero
        rootLayer.masksToBounds = true
        let rootStyle = builder.computeStyle(root, parent: SVGComputedStyle())
        if rootStyle.display, !inError, let content = builder.group(root.children, style: rootStyle) {
            var m = CGAffineTransform.identity
            if let vb {
                let par = SVGAspectRatio.parse(root.attributes["preserveAspectRatio"]) ?? {
                    log.add(.invalidValue, "preserveAspectRatio", "does not parse; xMidYMid meet used")
                    return SVGAspectRatio()
                }()
                m = par.transform(viewBox: vb, viewport: size)
            }
            var top = content.layer
            SVGLayerPlacement.place(top, rect: content.extent)
            if rootStyle.opacity < 1 { top.opacity = Float(rootStyle.opacity) }
            if let c = rootStyle.clipPath, case let .layer(mask) = builder.clipLayer(c, bbox: content.bbox) {
                top.mask = mask
            }
            if let mk = rootStyle.mask, case let .layer(mask) = builder.maskLayer(mk, bbox: content.bbox) {
                top = builder.wrapIfMasked(top, content.extent)
                top.mask = mask
            }
            // The root element is an isolated group (Compositing 1 §3.2): blend modes see only
            // the document, not what the layer is later drawn over.
            if builder.usesBlending {
                top = builder.wrapIfMasked(top, content.extent)
                SVGBlending.isolate(top)
            }
            SVGLayerPlacement.place(top, rect: content.extent, transform: m)
            rootLayer.addSublayer(top)
        }
        return (size, vb, rootLayer, log.issues)
    }

    /// Parses an SVG string.
    public convenience init(string: String, limits: SVGImportLimits = SVGImportLimits()) throws {
        try self.init(data: Data(string.utf8), limits: limits)
    }

    /// Reads a local SVG file (a `file:` URL; nothing is ever fetched from the network).
    /// `<image>` references relative to the file are read from its folder, or from at most three
    /// folders above it (`../resources/x.png`); paths starting with `/`, anything outside that
    /// tree after symlinks, and files referenced from inside SVG images are not read, and SVG
    /// images nest at most four deep; each refusal is listed in `issues`.
    public convenience init(contentsOf url: URL, limits: SVGImportLimits = SVGImportLimits()) throws {
        guard url.isFileURL else { throw SVGError.unreadableFile("only local files are read, not \(url.scheme ?? "?") URLs") }
        // Devices and pipes (/dev/zero) could be read forever, and a huge file would be read
        // whole before the size limit applied: only regular files within the limit are read.
        let path = url.resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw SVGError.unreadableFile("\(url.path) not found")
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
            throw SVGError.unreadableFile("\(path) is not a regular file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= limits.maxInputBytes else { throw SVGError.inputTooLarge(bytes: size, limit: limits.maxInputBytes) }
        let file = URL(fileURLWithPath: path)
        try self.init(data: Data(contentsOf: url), limits: limits,
                      resources: SVGResourceContext(baseDirectory: file.deletingLastPathComponent()))
    }
}
