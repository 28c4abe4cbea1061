import QuartzCore
import CALottie
import Foundation

/// Lottie files for carender (issue 23): a `.lottie` archive, or a `.json` whose top level has
/// the bodymovin fields "v", "fr", "ip", "op" and "layers" (scene files have none of them).
/// The animation plays from its first frame (`ip`) at media time 0, so `--time T` shows frame
/// ip + T × fr; the composition is fitted into the render size, aspect kept and centred.
enum LottieInput {
    static func isLottie(_ path: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        switch url.pathExtension.lowercased() {
        case "lottie": return true
        case "json":
            // Only the start of the file is looked at: the keys are at the top level of an
            // object, and sniffing them from a scene file's first 64 KiB cannot mistake it.
            guard let h = try? FileHandle(forReadingFrom: url) else { return false }
            defer { try? h.close() }
            guard let head = try? h.read(upToCount: 1 << 16), let text = String(data: head, encoding: .utf8) ?? String(data: head.prefix(head.count - 3), encoding: .utf8) else { return false }
            return ["\"v\"", "\"fr\"", "\"ip\"", "\"op\""].allSatisfy(text.contains) && (text.contains("\"layers\"") || head.count == 1 << 16)
        default: return false
        }
    }

    static func load(_ path: String) throws -> SceneSource {
        let animation: LottieAnimation
        do { animation = try LottieAnimation(filepath: path) } catch { throw CLIError("\(path): \(error)") }
        let layer = LottieAnimationLayer(animation: animation)
        layer.anchorPoint = .zero
        layer.position = .zero
        layer.bounds = CGRect(origin: .zero, size: animation.size)
        layer.play(fromProgress: 0, toProgress: 1, loopMode: .playOnce)
        var source = SceneSource(name: path, rootLayer: layer, size: animation.size, scale: 1,
                                 duration: animation.duration, framesPerSecond: animation.framerate,
                                 notes: animation.issues.map { "\(path): \($0)" })
        source.resize = { size in
            layer.bounds = CGRect(origin: .zero, size: size)
            layer.layoutIfNeeded()
        }
        return source
    }
}
