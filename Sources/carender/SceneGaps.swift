import QuartzCore
import CAScene
import Foundation

/// What a scene uses that this renderer does not reproduce: the warnings its frames give ("No
/// silent gaps": every property, class or feature not drawn as on Apple warns once, naming it).
/// `carender validate` lists them so a scene can be checked before a render farm renders it.
/// Frames are built (the render tree, no GL) at five times across the scene's duration, with its
/// scheduled changes applied, so content that appears later is met too.
enum SceneGaps {
    static func list(_ scene: SceneSource) -> [String] {
        let (_, warnings) = Diagnostics.capture {
            let builder = RenderTreeBuilder()
            let pixelWidth = max(1, min(Int((scene.size.width * scene.scale).rounded()), 16384))
            let pixelHeight = max(1, min(Int((scene.size.height * scene.scale).rounded()), 16384))
            let d = scene.duration.isFinite ? max(scene.duration, 0) : 0
            for t in [0, d / 4, d / 2, 3 * d / 4, d] {
                scene.applyScheduledChanges(t)
                CAMediaClock.withFrameTime(t) {
                    CATransaction.flush()
                    TimingEngine.step(to: t)
                    _ = builder.build(root: scene.rootLayer, width: pixelWidth, height: pixelHeight, scale: Double(scene.scale))
                }
            }
        }
        var seen = Set<String>()
        return warnings.filter { seen.insert($0).inserted }
    }
}
