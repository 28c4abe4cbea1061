import Foundation
import CALottie

// Lottie layers (docs/SCENE-FORMAT.md, "Lottie layers"): `LottieAnimationLayer` with a `file`
// (a Lottie `.json` or dotLottie `.lottie`, relative to the scene's folder) and how it plays.
// Extension beyond Apple's API.

extension SceneReader {
    /// The loop modes by name (lottie-ios's `LottieLoopMode` cases without a count).
    static let lottieLoopModes: [String: LottieLoopMode] = ["playOnce": .playOnce, "loop": .loop, "autoReverse": .autoReverse]
    static let lottieContentModes: [String: LottieContentMode] = [
        "scaleAspectFit": .scaleAspectFit, "scaleAspectFill": .scaleAspectFill, "scaleToFill": .scaleToFill,
        "center": .center, "topLeft": .topLeft,
    ]

    /// Reads `file`, `contentMode`, `animationSpeed`, `loopMode` and `progress`. Without
    /// `progress` the animation plays from its start at scene time 0 (the reader runs at media
    /// time 0); with it, the layer shows that progress, paused.
    func lottieMembers(_ o: ObjectReader, _ layer: LottieAnimationLayer) {
        if let v = o["contentMode"], let s = string(v, o.at("contentMode")) {
            if let m = Self.lottieContentModes[s] { layer.contentMode = m } else {
                problem(o.at("contentMode"), v, "unknown contentMode \"\(s.prefix(80))\" (\(Self.lottieContentModes.keys.sorted().joined(separator: ", ")))")
            }
        }
        if let v = o["animationSpeed"], let d = number(v, o.at("animationSpeed")) {
            if d.isFinite, abs(d) <= 1000 { layer.animationSpeed = CGFloat(d) } else {
                problem(o.at("animationSpeed"), v, "animationSpeed must be finite, at most 1000 in size")
            }
        }
        if let v = o["loopMode"], let s = string(v, o.at("loopMode")) {
            if let m = Self.lottieLoopModes[s] { layer.loopMode = m } else {
                problem(o.at("loopMode"), v, "unknown loopMode \"\(s.prefix(80))\" (\(Self.lottieLoopModes.keys.sorted().joined(separator: ", ")))")
            }
        }
        var progress: Double?
        if let v = o["progress"], let d = number(v, o.at("progress")) {
            if d.isFinite { progress = d } else { problem(o.at("progress"), v, "progress must be finite") }
        }
        guard let v = o["file"] else {
            problem(o.path, o.node, "a LottieAnimationLayer needs \"file\": a Lottie .json or .lottie file relative to the scene")
            return
        }
        guard let rel = string(v, o.at("file")), let resolved = sceneFile(rel, o.at("file"), v, what: "Lottie") else { return }
        guard FileManager.default.fileExists(atPath: resolved) else {
            problem(o.at("file"), v, "Lottie file \"\(rel.prefix(200))\" not found")
            return
        }
        do {
            layer.animation = try LottieAnimation(filepath: resolved)
        } catch {
            problem(o.at("file"), v, "Lottie file \"\(rel.prefix(200))\": \(error)")
            return
        }
        if let progress { layer.currentProgress = CGFloat(progress) } else { layer.play(fromProgress: 0, toProgress: 1) }
    }
}
