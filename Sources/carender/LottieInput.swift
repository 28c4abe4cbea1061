import QuartzCore
import CALottie
import Foundation

/// Lottie files for carender (issue 23): a `.lottie` archive, or a `.json` whose top level has
/// the bodymovin fields (`InputKind.looksLikeLottie`).
/// The animation plays from its first frame (`ip`) at media time 0, so `--time T` shows frame
/// ip + T × fr; the composition is fitted into the render size, aspect kept and centred.
enum LottieInput {
    static func isLottie(_ path: String) -> Bool { InputKind.of(path: path) == .lottie }

    /// `carender validate`: a file that does not import is one error (malformed JSON with its
    /// line and column); what the import does not reproduce are warnings.
    static func findings(_ path: String, _ options: Validators.Options) -> [Finding] {
        let animation: LottieAnimation
        do { animation = try LottieAnimation(filepath: path) } catch let LottieError.malformedJSON(line, column, reason) {
            return [Finding(file: path, line: line, column: column, severity: .error, message: "malformed JSON: \(reason)")]
        } catch {
            return [Finding(file: path, severity: .error, message: "\(error)")]
        }
        _ = animation.makeLayer()
        return animation.issues.map { Finding(file: path, severity: .warning, message: "\($0)") }
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
