import CoreGraphics

/// Rasters of shapes kept across frames, by path and placement, packed into atlas pages.
///
/// A raster is made for a path (by identity: a `CAShapeLayer` stores an immutable copy, and its
/// presentation copies share it; an animated `path` is a new path each frame and re-rasterises,
/// docs/BEHAVIOUR.md E2; a path of at most `maxInternedElements` elements by its content,
/// through one object per content, `canonicalPath`), a linear map to texels (the layer's full transform to pixels: scale, rotation,
/// skew), the sub-texel translation (quantised to quarter texels, so a layer moving by whole
/// pixels reuses its raster), fill rule, stroke geometry (width, cap, join, miterLimit) and
/// whether the arc-length field is needed. Colours, opacity, trims, dashes and phase are not in
/// the key: they are instance data.
///
/// Bound: pages of `pageSize`² (coverage, 4 bytes a texel: fill, stroke and the compact
/// arc-length field; a compact field's auxiliary texels lie at the same place in the page's
/// auxiliary texture) and `fieldPageSize`² (exact RGBA32F fields of long paths, 16 bytes a
/// texel). When a frame starts with more than `budgetTexels` (or `fieldBudgetTexels`) allocated,
/// everything is dropped and what the frame shows is rasterised again. One frame may exceed the
/// budget up to `hardLimitFactor` times; shapes beyond that are not drawn, with a warning.
final class ShapeCache {
    static let pageSize = 2048
    static let fieldPageSize = 1024
    static let budgetTexels = 16 * 1024 * 1024
    static let fieldBudgetTexels = 16 * 1024 * 1024
    static let hardLimitFactor = 4
    /// The rasterising work (`ShapeRaster.work`: texels visited, rows and cells edges cross)
    /// one frame may spend on new rasters (issue 17: one frame of 300 shapes stroked 5,000 px
    /// wide took minutes; each is about 14 M). 200 M is about six times the first frame of the
    /// 1,000-shape stress scene (35 M), and about 7 s of one loaded core of the 2-core reference
    /// VM (docs/SECURITY.md). Shapes whose raster would take more are not drawn that frame, with
    /// a warning; rasters already cached cost nothing and still draw.
    static let defaultFrameWorkBudget = 200_000_000
    /// `defaultFrameWorkBudget`, lowered by tests.
    var frameWorkBudget = ShapeCache.defaultFrameWorkBudget
    /// Entries not used for this many frames are forgotten (their atlas space is reclaimed only
    /// at the next reset).
    static let maxIdleFrames = 600

    struct Key: Hashable {
        var path: ObjectIdentifier
        var map: SIMD4<Double>
        var subTexel: SIMD2<Double>
        var fill: Bool
        var evenOdd: Bool
        var stroke: ShapeStrokeStyle?
        var field: Bool
        /// The field must be the exact RGBA32F one (perspective: sampled bilinearly).
        var wideField: Bool
        /// The visible texel rectangle relative to the integer translation, when the raster
        /// may reach beyond it (nil when the whole shape fits).
        var limit: SIMD4<Int>?
        /// The stroke trimmed to these fractions of the path's length in the geometry
        /// (`ShapeRasterizer.Request.trim`); nil for a raster of the whole stroke.
        var trim: SIMD2<Double>? = nil

        /// The fields that tell a shape's rasters apart in practice (path, placement, half
        /// width, trim, flags); equality still compares every field. The synthesised hash fed
        /// every field of the style, its optional dash array included, through the hasher one
        /// at a time: about 1,000 instructions a key, and a trimmed stroke's key is hashed
        /// four to six times a frame (issue 23).
        /// (Doubles by their bits with −0 made +0, as `==` equates them.)
        func hash(into h: inout Hasher) {
            @inline(__always) func bits(_ d: Double) -> UInt64 { (d + 0).bitPattern }
            h.combine(path)
            h.combine(bits(map.x) ^ (bits(map.w) &* 31))
            h.combine(bits(map.y) ^ (bits(map.z) &* 31))
            h.combine(bits(subTexel.x) ^ (bits(subTexel.y) &* 31))
            var flags = (fill ? 1 : 0) | (evenOdd ? 2 : 0) | (field ? 4 : 0) | (wideField ? 8 : 0)
            if let stroke {
                flags |= 16
                h.combine(bits(stroke.halfWidth))
            }
            if let trim {
                flags |= 32
                h.combine(bits(trim.x) ^ (bits(trim.y) &* 31))
            }
            if let limit { flags |= 64; h.combine(limit.x &+ 31 &* (limit.y &+ 31 &* (limit.z &+ 31 &* limit.w))) }
            h.combine(flags)
        }
    }

    struct Entry {
        var path: CGPath     // held so its identifier is not reused while cached
        var page: Int
        var x: Int, y: Int
        var fieldPage: Int
        var fx: Int, fy: Int
        var originX: Int, originY: Int, width: Int, height: Int
        var totalLength: Double
        /// A compact arc-length field (coverage B, A and the page's auxiliary texture), decoded
        /// as value × y + x (`CompactArcLengthField`).
        var compactField: Bool
        var fieldScale: SIMD2<Double>
        var lastUsed: Int
        /// The build or patch (`TransientRasters.use`) that last drew it.
        var lastUse = 0
        /// A width-free raster: the largest half width (texels) it draws (`ShapeRaster.widthFree`).
        var widthFree: Double? = nil

        var hasField: Bool { compactField || fieldPage >= 0 }
    }

    final class Page {
        let info: ShapeAtlasPage
        var shelves: [(y: Int, height: Int, x: Int)] = []
        var nextY = 0
        init(_ info: ShapeAtlasPage) { self.info = info }

        func allocate(_ w: Int, _ h: Int) -> (Int, Int)? {
            // One texel of gutter right and below keeps bilinear sampling off the neighbours.
            let w1 = w + 1, h1 = h + 1
            guard w1 <= info.width, h1 <= info.height else { return nil }
            for i in shelves.indices where shelves[i].height >= h1 && shelves[i].height <= h1 * 2 && shelves[i].x + w1 <= info.width {
                let x = shelves[i].x
                shelves[i].x += w1
                return (x, shelves[i].y)
            }
            guard nextY + h1 <= info.height else { return nil }
            shelves.append((nextY, h1, w1))
            defer { nextY += h1 }
            return (0, nextY)
        }
    }

    var pages: [Page] = []
    // Statically checked (no dynamic exclusivity bookkeeping): every shape of every frame looks
    // its raster up here, from the builder's one thread.
    // Kept: render-benchmark shapes-animated, callgrind, RenderTreeBuilder.patch 91.3 M → 58.4 M
    // for 3 frames with the other shape-cache changes of b1823d0 (not measured apart).
    @exclusivity(unchecked) var entries: [Key: Entry] = [:]
    /// Rasters filed in the last builds and patches, looked at again by `dropTransientEntries`.
    @exclusivity(unchecked) var transient = TransientRasters()
    /// Off: rasters are kept until they are idle for `maxIdleFrames`, however briefly they were
    /// used (tests that compare a patched frame with a whole build instance by instance need
    /// both caches to keep the same rasters in the same places; dropping depends on how many
    /// builds each made).
    var dropsTransientRasters = true
    var uploads: [ShapeAtlasUpload] = []
    @exclusivity(unchecked) var frameNumber = 0
    var nextPageID = 1
    var uploadSerial = 0
    var texels = 0
    var fieldTexels = 0
    var warnedFull = false
    /// Rasters made in the current frame and the seconds they took (benchmark figures).
    var rastersThisFrame = 0
    var segmentsThisFrame = 0
    var rasterSecondsThisFrame = 0.0
    /// `ShapeRaster.work` of this frame's new rasters (bounded by `frameWorkBudget`).
    var workThisFrame = 0
    /// The accumulation buffer new rasters are made in, kept clear between them
    /// (`ShapeRasterizer.rasterize(_:scratch:)`): a shape whose placement changes every frame
    /// (issue 23: Lottie rings scaling) no longer allocates and zeroes one per raster.
    var rasterScratch = CoverageRasterizer(width: 0, height: 0)
    /// The resolve buffer plain rasters are resolved into (`ShapeRasterizer.rasterize(_:scratch:resolveBuffer:)`).
    var resolveScratch: [UInt8] = []
    /// Coverage arrays of applied uploads, for new rasters (`RasterBytePool`).
    var bytePool = RasterBytePool()
    /// Plain rasters placed during the walk and made beside it (`ShapeCache+Deferred.swift`),
    /// and the work limits they were placed with (counted against the frame's work budget).
    let rasterQueue = DeferredRasterQueue()
    var deferredWork = 0
    /// Rasters deferred in the current frame (tests read it).
    var deferredThisFrame = 0
    /// Width families (`widthFamily`) whose path or placement turned out not to allow a
    /// width-free raster: their strokes are rasterised per width without asking again.
    var refusedWidthFamilies: Set<Key> = []
    static let maxWidthFamilies = 4096

    /// The key under which the width-free raster of `key`'s stroke is kept: every line width
    /// up to `bucket` texels (half width) of one path, placement, fill, cap, join and miter
    /// limit. `limit` is the visible texel rectangle when such a raster could reach beyond it
    /// (its reach is not the miter's).
    static func widthFamily(_ key: Key, limit: SIMD4<Int>?, bucket: Double) -> Key? {
        guard var style = key.stroke, style.halfWidth > 0, style.cpuDash == nil else { return nil }
        var k = key
        k.limit = limit
        style.halfWidth = -bucket
        k.stroke = style
        k.field = true
        return k
    }

    /// Uploads are not dropped here but when a frame takes them (`takeUploads`): rasters made
    /// by a patch that failed (the caller then builds a whole frame) must still reach the GPU.
    func beginFrame() {
        // Rasters deferred by a walk that never finished (a patch that gave up): made now, their
        // uploads go with this frame.
        makeDeferredRasters()
        frameNumber += 1
        rastersThisFrame = 0
        segmentsThisFrame = 0
        rasterSecondsThisFrame = 0
        warnedFull = false
        workThisFrame = 0
        deferredThisFrame = 0
        transient.begin()
        if texels > Self.budgetTexels || fieldTexels > Self.fieldBudgetTexels {
            reset()
        } else {
            dropTransientEntries()
        }
        if frameNumber % 60 == 0, !entries.isEmpty {
            // In place, so the table keeps its capacity (a filtered copy is sized to what it
            // keeps, and grows again through every resize as new rasters come).
            let stale = entries.compactMap { frameNumber - $0.value.lastUsed < Self.maxIdleFrames ? nil : $0.key }
            for k in stale { entries.removeValue(forKey: k) }
            if entries.isEmpty { reset() }
        }
    }

    /// A patch of the last built frame (`RenderTreeBuilder.patch`) re-emits shapes: counters
    /// restart, but the frame number, eviction and resets wait for the next build, since the
    /// kept frame's other instances still sample their rasters where they are.
    func beginPatch() {
        makeDeferredRasters()
        transient.begin()
        rastersThisFrame = 0
        segmentsThisFrame = 0
        rasterSecondsThisFrame = 0
        warnedFull = false
        workThisFrame = 0
    }

    /// Whether the atlas holds more than its budget (a patch then leaves it to a build to reset).
    var isOverBudget: Bool { texels > Self.budgetTexels || fieldTexels > Self.fieldBudgetTexels }

    /// The uploads not yet handed to a frame, which now takes them.
    func takeUploads() -> [ShapeAtlasUpload] {
        defer { uploads.removeAll(keepingCapacity: true) }
        return uploads
    }

    func reset() {
        pages.removeAll()
        lastPlaced = (nil, nil)
        uploads.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        transient.removeAll()
        refusedWidthFamilies.removeAll()
        boxes.removeAll()
        symmetries.removeAll()
        interned.removeAll()
        canonicals.removeAll()
        centrelines.removeAll()
        _ = rasterQueue.finish()
        deferredWork = 0
        texels = 0
        fieldTexels = 0
    }

    var livePages: [ShapeAtlasPage] { pages.map(\.info) }

    func pageIndex(id: Int) -> Int? { pages.firstIndex { $0.info.id == id } }

    func lookup(_ key: Key) -> Entry? {
        // One hash: the entry's use is marked in place through its index.
        guard let i = entries.index(forKey: key) else { return nil }
        if entries.values[i].lastUsed != frameNumber || entries.values[i].lastUse != transient.use {
            entries.values[i].lastUsed = frameNumber
            entries.values[i].lastUse = transient.use
        }
        return entries.values[i]
    }

    /// Paths' bounding boxes (control points included), kept with the paths so that their
    /// identifiers are not reused: every shape needs its box every frame, and walking a path's
    /// elements for it cost more than the rest of re-emitting a shape.
    // Unchecked: part of b1823d0's measured change (see `entries`).
    @exclusivity(unchecked) private var boxes = PathMemo<CGRect>(limit: ShapeCache.maxKeptBoxes)
    /// Boxes kept before the table starts again (an animated `path` is a new path each frame).
    static let maxKeptBoxes = 4096

    /// A path's centreline as `ShapeEmitter.trimmedRegion` reads it: flattened, and the miter
    /// ratios of its corners in increasing order.
    struct Centreline {
        var subpaths: [FlattenedSubpath]
        var miterRatios: [Double]
    }

    /// Centrelines kept by path as `boxes` are: a trim animates over a still path.
    @exclusivity(unchecked) private var centrelines = PathMemo<(tolerance: Double, line: Centreline)>(limit: ShapeCache.maxKeptBoxes)

    func centreline(of path: CGPath, tolerance: Double) -> Centreline {
        centrelines.value(for: path, isCurrent: { $0.tolerance == tolerance }) {
            let subpaths = path.flattenedSubpaths(tolerance: CGFloat(tolerance))
            return (tolerance, Centreline(subpaths: subpaths, miterRatios: PieceStroker.cornerRatios(subpaths).sorted()))
        }.line
    }

    /// Paths of at most this many elements are keyed by their elements (`canonicalPath`).
    static let maxInternedElements = 64
    /// One path object per content, for the small paths (`canonicalPath`).
    @exclusivity(unchecked) private var interned: [[PathElement]: CGPath] = [:]
    /// Paths' canonical objects, kept as `boxes` are.
    @exclusivity(unchecked) private var canonicals = PathMemo<CGPath>(limit: ShapeCache.maxKeptBoxes)

    /// The object whose identity keys `path`'s rasters: for a path of at most
    /// `maxInternedElements` elements, one immutable path per content, so equal paths held by
    /// different layers share their rasters (issue 23: a Lottie file's shapes are new paths in
    /// every layer — 9squares draws each of its nine rings twice, in two squares, every frame —
    /// and an animated path is a new path each frame in each layer); longer paths by their own
    /// identity (comparing them would cost what a raster of them saves only when they repeat).
    func canonicalPath(_ path: CGPath) -> CGPath {
        guard path.elements.count <= Self.maxInternedElements else { return path }
        return canonicals.value(for: path) {
            if let existing = interned[path.elements] { return existing }
            if interned.count >= Self.maxKeptBoxes { interned.removeAll() }
            // (A copy: the caller's path may be a mutable one.)
            let canonical = CGPath(elements: path.elements)
            interned[path.elements] = canonical
            return canonical
        }
    }

    /// Paths' distance from their half turn (`CGPath.pointSymmetryError`), kept as `boxes` are.
    @exclusivity(unchecked) private var symmetries = PathMemo<CGFloat?>(limit: ShapeCache.maxKeptBoxes)

    func pointSymmetryError(_ path: CGPath) -> CGFloat? {
        symmetries.value(for: path) { path.pointSymmetryError }
    }

    /// (A mutable path can change after it was measured: its generation says whether it did; a
    /// `CGMutablePath` built once and assigned to a layer, the common case, is measured once,
    /// not every frame.)
    func boundingBox(of path: CGPath) -> CGRect {
        boxes.value(for: path) { path.boundingBox }
    }

    /// Places a new raster in the atlas and queues its upload; nil when the frame's hard limit
    /// is reached.
    func insert(_ key: Key, path: CGPath, raster r: ShapeRaster) -> Entry? {
        let need = (r.width + 1) * (r.height + 1)
        if texels + need > Self.budgetTexels * Self.hardLimitFactor
            || ((!r.field.isEmpty || !r.aux.isEmpty) && fieldTexels + need > Self.fieldBudgetTexels * Self.hardLimitFactor) {
            if !warnedFull {
                warnedFull = true
                RenderDiagnostics.warn("shape atlas full for this frame (\(Self.budgetTexels * Self.hardLimitFactor) texels): further shapes are not drawn")
            }
            return nil
        }
        guard let (page, x, y) = place(r.width, r.height, field: false) else { return nil }
        texels += need
        uploadSerial += 1
        uploads.append(ShapeAtlasUpload(serial: uploadSerial, page: pages[page].info.id, x: x, y: y, width: r.width, height: r.height,
                                        coverage: r.coverage, field: [], aux: r.aux, spans: r.spans))
        if !r.aux.isEmpty { fieldTexels += need }
        var fp = -1, fx = 0, fy = 0
        if !r.field.isEmpty, let (p, a, b) = place(r.width, r.height, field: true) {
            fieldTexels += need
            (fp, fx, fy) = (p, a, b)
            uploadSerial += 1
            uploads.append(ShapeAtlasUpload(serial: uploadSerial, page: pages[p].info.id, x: a, y: b, width: r.width, height: r.height,
                                            coverage: [], field: r.field, aux: []))
        }
        let e = Entry(path: path, page: pages[page].info.id, x: x, y: y, fieldPage: fp < 0 ? -1 : pages[fp].info.id, fx: fx, fy: fy,
                      originX: r.originX, originY: r.originY, width: r.width, height: r.height,
                      totalLength: r.totalLength, compactField: !r.aux.isEmpty, fieldScale: r.fieldScale, lastUsed: frameNumber,
                      widthFree: r.widthFree)
        file(e, under: key)
        return e
    }

    /// The page the last raster of each kind (coverage, field) went to.
    private var lastPlaced: (coverage: Int?, field: Int?) = (nil, nil)

    /// Room for a `w`×`h` raster: first on the page the previous raster of its kind went to,
    /// then the newest page first. Rasters made one after another (in painting order) then
    /// share a page, so their shapes share a batch: trying the newest page first alone sent a
    /// raster that missed it to an older page's leftover room and the next one back, and 1,000
    /// stars alternated between two field pages (109 draw calls; 28 in this order).
    func place(_ w: Int, _ h: Int, field: Bool) -> (Int, Int, Int)? {
        func found(_ i: Int, _ x: Int, _ y: Int) -> (Int, Int, Int) {
            if field { lastPlaced.field = i } else { lastPlaced.coverage = i }
            return (i, x, y)
        }
        if let i = field ? lastPlaced.field : lastPlaced.coverage, pages.indices.contains(i),
           pages[i].info.isField == field, let (x, y) = pages[i].allocate(w, h) {
            return found(i, x, y)
        }
        for (i, p) in pages.enumerated().reversed() where p.info.isField == field {
            if let (x, y) = p.allocate(w, h) { return found(i, x, y) }
        }
        let side = field ? Self.fieldPageSize : Self.pageSize
        // A raster larger than a page gets a page of its own size.
        let pw = max(side, w + 1), ph = max(side, h + 1)
        let page = Page(ShapeAtlasPage(id: nextPageID, width: (w + 1 > side) ? w + 1 : pw, height: (h + 1 > side) ? h + 1 : ph, isField: field))
        nextPageID += 1
        pages.append(page)
        guard let (x, y) = page.allocate(w, h) else { return nil }
        return found(pages.count - 1, x, y)
    }
}
