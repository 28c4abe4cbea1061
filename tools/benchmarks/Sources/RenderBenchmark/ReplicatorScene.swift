import QuartzCore
import CADemoScenes
import GLBaseline

/// `replicator`: `Scenes/bench/replicator-10k.json` built in Swift — two nested
/// `CAReplicatorLayer`s (100 rows × 100 columns) of one rounded, bordered box over 1920×1080,
/// the outer replicator's `instanceColor` animating, so every frame re-emits all 10,000 copies.
enum ReplicatorScene {
    static let cell: [Float] = [2, 1, 15, 8.5]
    static let step = (x: Float(19.2), y: Float(10.8))
    static let fill: [Float] = [0xf2 / 255, 0xc9 / 255, 0x4c / 255, 1]
    static let stroke: [Float] = [1, 1, 1, 0x80 / 255]
    static let background: [Float] = [0x10 / 255, 0x13 / 255, 0x1a / 255, 1]

    static func color(_ c: [Float]) -> CGColor {
        CGColor(red: CGFloat(c[0]), green: CGFloat(c[1]), blue: CGFloat(c[2]), alpha: CGFloat(c[3]))
    }

    static func make() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: StressScenes.size)
        root.backgroundColor = color(background)
        let rows = CAReplicatorLayer()
        rows.frame = root.bounds
        rows.instanceCount = 100
        rows.instanceTransform = CATransform3DMakeTranslation(0, CGFloat(step.y), 0)
        rows.instanceGreenOffset = -0.008
        let tint = CABasicAnimation(keyPath: "instanceColor")
        tint.fromValue = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        tint.toValue = CGColor(red: 0x80 / 255, green: 0xc0 / 255, blue: 1, alpha: 1)
        tint.duration = 1
        tint.autoreverses = true
        tint.repeatCount = .infinity
        rows.add(tint, forKey: "tint")
        let columns = CAReplicatorLayer()
        columns.frame = root.bounds
        columns.instanceCount = 100
        columns.instanceTransform = CATransform3DMakeTranslation(CGFloat(step.x), 0, 0)
        columns.instanceRedOffset = -0.008
        let box = CALayer()
        box.frame = CGRect(x: CGFloat(cell[0]), y: CGFloat(cell[1]), width: CGFloat(cell[2]), height: CGFloat(cell[3]))
        box.backgroundColor = color(fill)
        box.cornerRadius = 3
        box.borderWidth = 1
        box.borderColor = color(stroke)
        columns.addSublayer(box)
        rows.addSublayer(columns)
        root.addSublayer(rows)
        return root
    }

    /// The raw-GL floor drawing the same 10,000 quads (`glb_grid_ms`), in seconds per frame.
    static func floor(frames: Int) -> Double? {
        var err = [CChar](repeating: 0, count: 256)
        guard glb_init(&err, 256) == 0 else { return nil }
        let ms = glb_grid_ms(100, 100, step.x, step.y, cell, 3, 1, fill, stroke, background, 1920, 1080, Int32(frames))
        return ms >= 0 ? ms / 1000 : nil
    }
}

/// The particle floor (`glb_quads_ms`): `n` textured 8×8 quads, in seconds per frame.
func particleFloor(_ n: Int, frames: Int) -> Double? {
    var err = [CChar](repeating: 0, count: 256)
    guard glb_init(&err, 256) == 0 else { return nil }
    let ms = glb_quads_ms(Int32(n), 1920, 1080, Int32(frames), 8)
    return ms >= 0 ? ms / 1000 : nil
}
