import CAFrame
import CoreGraphics
import Dispatch

/// A plain raster given its atlas place during the walk and made beside it (issue 23).
///
/// Rasters are independent of one another, but the walk that asks for them is serial: made
/// where they are asked for, the 18 rings of a 9squares frame (1.0 of its 1.8 ms on the CPU
/// backend) took one core while rlottie rasterises its paths on every core. A raster the CPU
/// backend draws from runs (no field, affine placement) needs only its box to be placed and
/// drawn, and its box is known before it is made: the path's control-point box under the
/// placement, grown by what the paint can reach, cut to the visible rectangle. So the walk
/// places it by that box and goes on, other threads make it meanwhile
/// (`DeferredRasterQueue`), and `ShapeCache.makeDeferredRasters` joins in and collects every
/// such raster of the frame before the frame is handed over, each made into the box it was
/// placed by (`ShapeRasterizer.Request.box`: geometry outside it cut, nothing cropped).
struct DeferredRaster {
    /// What to make; `box` is the place's, `workLimit` the work it may take
    /// (`ShapeCache.deferredWorkLimit`).
    var request: ShapeRasterizer.Request
    /// The atlas page (id) and place.
    var page: Int
    var x: Int, y: Int
}

extension ShapeCache {
    /// The work a deferred raster of area work `estimate` may take: twice its area and a
    /// margin for its edges (a ring's edges are a few per cent of its area). A raster past it
    /// is made again once the frame's other rasters are in, with what the budget has left.
    static func deferredWorkLimit(_ estimate: Int) -> Int { 2 * estimate + 65_536 }

    /// Places a raster of box `box` (x0, y0, x1, y1 in the placement's texels), files it under
    /// `key` and hands it to the queue. Nil when the box does not fit the frame's atlas limit
    /// or its work limit the frame's work budget (the caller then rasterises as usual, which
    /// warns).
    func reserve(_ key: Key, path: CGPath, request: ShapeRasterizer.Request, box: (Int, Int, Int, Int), estimate: Int) -> Entry? {
        let w = box.2 - box.0, h = box.3 - box.1
        guard w > 0, h > 0 else { return nil }
        let need = (w + 1) * (h + 1)
        let limit = Self.deferredWorkLimit(estimate)
        guard limit <= frameWorkBudget - workThisFrame - deferredWork, texels + need <= Self.budgetTexels * Self.hardLimitFactor,
              let (page, x, y) = place(w, h, field: false) else { return nil }
        texels += need
        deferredWork += limit
        deferredThisFrame += 1
        var rq = request
        rq.box = box
        rq.workLimit = limit
        let id = pages[page].info.id
        rasterQueue.submit(DeferredRaster(request: rq, page: id, x: x, y: y))
        let e = Entry(path: path, page: id, x: x, y: y, fieldPage: -1, fx: 0, fy: 0, originX: box.0, originY: box.1, width: w, height: h,
                      totalLength: 0, compactField: false, fieldScale: .zero, lastUsed: frameNumber)
        file(e, under: key)
        return e
    }

    /// Finishes the rasters `reserve` placed this frame (this thread joins the queue's) and
    /// queues their uploads in the order they were placed. A raster that cannot be made
    /// (empty, too complex, over the frame's work budget) is uploaded as empty runs, so its
    /// place draws nothing, and warns as a raster made during the walk does.
    ///
    /// The work budget bounds the frame as before, and the same way whatever the threads'
    /// timing: a raster is deferred only while its work limit fits what the budget has left,
    /// and one that ran past its limit is made again here, in placing order, with the budget
    /// less every other raster's work.
    func makeDeferredRasters() {
        let done = rasterQueue.finish()
        guard !done.isEmpty else { return }
        deferredWork = 0
        var later = done.reduce(0) { total, d in
            if case .success(let r) = d.result { return total + r.work }
            return total
        }
        for (job, result) in done {
            let box = job.request.box!
            let w = box.2 - box.0, h = box.3 - box.1
            var result = result
            if case .success(let r) = result { later -= r.work }
            if case .failure(.overBudget) = result {
                var rq = job.request
                rq.workLimit = max(frameWorkBudget - workThisFrame - later, 0)
                result = ShapeRasterizer.rasterize(rq, scratch: &rasterScratch, resolveBuffer: &resolveScratch, pool: &bytePool)
            }
            var spans: ShapeCoverageSpans? = nil
            switch result {
            case .success(let r):
                rastersThisFrame += 1
                workThisFrame += r.work
                segmentsThisFrame += r.segments
                // (A sparse raster keeps its fixed box; anything else would not fit its place.)
                if let s = r.spans, s.width == w, s.height == h { spans = s }
            case .failure(.tooComplex(let n)):
                RenderDiagnostics.warn("a CAShapeLayer path with \(n) segments exceeds the limit of \(ShapeRasterizer.maxSegments): it is not drawn")
            case .failure(.empty):
                break
            case .failure(.overBudget):
                // (Rasters after it in placing order were made beside it, within their limits.)
                // Forgotten under every key filed for it, so a later frame makes it again.
                entries = entries.filter { !($0.value.page == job.page && $0.value.x == job.x && $0.value.y == job.y) }
                RenderDiagnostics.warn("a frame's shape rasterising work budget (\(frameWorkBudget) cells) is spent: shapes whose raster does not fit are not drawn in that frame")
            }
            uploadSerial += 1
            uploads.append(ShapeAtlasUpload(serial: uploadSerial, page: job.page, x: job.x, y: job.y, width: w, height: h, coverage: [],
                                            field: [], aux: [],
                                            spans: spans ?? ShapeCoverageSpans(width: w, height: h, rowStarts: [Int32](repeating: 0, count: h + 1), runs: [])))
        }
    }
}
