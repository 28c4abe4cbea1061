import QuartzCore
import CADemoScenes
import GLBaseline
import Foundation

/// Whether a raw-GL floor draws the engine's pixels (issue 21: a floor that draws other quads,
/// or blends otherwise, makes the ratio meaningless): one frame of each, read back and compared
/// byte for byte.
struct PixelComparison: CustomStringConvertible {
    var maxDifference = 0
    var differingPixels = 0
    var paintedPixels = 0
    var pixels = 0

    init(_ a: [UInt8], _ b: [UInt8]) {
        pixels = min(a.count, b.count) / 4
        for i in 0..<pixels {
            var d = 0, painted = false
            for k in 0..<4 {
                d = max(d, abs(Int(a[i * 4 + k]) - Int(b[i * 4 + k])))
                painted = painted || a[i * 4 + k] != 0 || b[i * 4 + k] != 0
            }
            maxDifference = max(maxDifference, d)
            if d > 0 { differingPixels += 1 }
            if painted { paintedPixels += 1 }
        }
        if a.count != b.count { maxDifference = 255 }
    }

    var description: String {
        "engine and floor pixels: \(differingPixels) of \(paintedPixels) painted pixels differ (of \(pixels)), by at most \(maxDifference)/255 per channel"
    }
}

enum FloorCheck {
    static func engineBytes(_ root: CALayer) throws -> [UInt8] {
        let r = try CARenderer(offscreenSize: StressScenes.size, options: CARenderer.Options(environment: ProcessInfo.processInfo.environment))
        r.layer = root
        r.clearColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0)
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        try r.waitUntilCompleted()
        r.endFrame()
        let img = try r.makeImage()
        return [UInt8](img.dataProvider?.data ?? Data())
    }

    static func floorBytes() -> [UInt8]? {
        var px = [UInt8](repeating: 0, count: 1920 * 1080 * 4)
        return glb_read_rgba(&px, 1920, 1080) == 0 ? px : nil
    }

    /// The replicator scene at time 0 (`instanceColor` white) against `glb_grid_ms`'s frame.
    static func replicator() throws -> PixelComparison? {
        let engine = try engineBytes(ReplicatorScene.make())
        guard ReplicatorScene.floor(frames: 1) != nil, let floor = floorBytes() else { return nil }
        return PixelComparison(engine, floor)
    }

    /// A few particles of the benchmark's cell (8×8 white image, its colour, no ranges, no
    /// motion), emitted from one point of an emitter layer turned by 0.5 rad, against the
    /// floor's program drawing as many quads at the same place, angle and tint: the quad's
    /// size, AA fringe, sampling, tint and blending are compared (the benchmark's own particles
    /// are at simulated places the floor cannot know; it hashes places over the frame instead).
    static func particles() throws -> PixelComparison? {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: StressScenes.size)
        let e = CAEmitterLayer()
        e.frame = root.bounds
        let angle = 0.5
        e.transform = CATransform3DMakeRotation(CGFloat(angle), 0, 0, 1)
        e.emitterShape = .point
        let at = (x: 700.3, y: 400.6)
        e.emitterPosition = CGPoint(x: at.x, y: at.y)
        let side = 8
        let px = [UInt8](repeating: 255, count: side * side * 4)
        let cell = CAEmitterCell()
        cell.contents = CGImage(width: side, height: side, rgba8Bytes: px, premultiplied: true)
        cell.birthRate = 2
        cell.lifetime = 3
        cell.velocity = 0
        let color = (r: 0.9, g: 0.6, b: 0.3, a: 0.8)
        cell.color = CGColor(red: color.r, green: color.g, blue: color.b, alpha: color.a)
        e.emitterCells = [cell]
        root.addSublayer(e)
        let r = try CARenderer(offscreenSize: StressScenes.size, options: CARenderer.Options(environment: ProcessInfo.processInfo.environment))
        r.layer = root
        r.clearColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0)
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        try r.waitUntilCompleted()
        r.endFrame()
        let n = r.statistics.particles
        let engine = [UInt8](try r.makeImage().dataProvider?.data ?? Data())
        guard n > 0 else { return nil }
        // The layer turns about its centre (its anchor point at its position).
        let c = cos(angle), s = sin(angle)
        let dx = at.x - 960, dy = at.y - 540
        let centre = (x: 960 + c * dx - s * dy, y: 540 + s * dx + c * dy)
        let quad: [Float] = [Float(centre.x), Float(centre.y), Float(angle), Float(side),
                             Float(color.r * color.a), Float(color.g * color.a), Float(color.b * color.a), Float(color.a)]
        var err = [CChar](repeating: 0, count: 256)
        guard glb_init(&err, 256) == 0 else { return nil }
        let instances = [Float]((0..<n).flatMap { _ in quad })
        guard glb_quads_draw(instances, Int32(n), 1920, 1080, Int32(side)) == 0, let floor = floorBytes() else { return nil }
        return PixelComparison(engine, floor)
    }
}
