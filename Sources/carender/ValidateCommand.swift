import ArgumentParser
import Foundation

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a scene file and print every problem with its location.",
        discussion: """
        Prints one line per problem on stdout, `FILE: json.path (line N): message` (e.g. `scene.json: root.sublayers[3].animations[0].keyTimes (line 40): 4 values for 3 keyframes`), and exits with status 1 if there is any, 0 (printing "FILE: valid") if there is none.

        A valid scene's frames are then built at five times across its duration, and every feature this renderer does not reproduce as Apple does is listed as `FILE: not reproduced: message` (the warnings a render would give; the status stays 0).

        Examples:
          carender validate scene.json
          carender validate --allow-outside-images shared/scene.json
        """)

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @Flag(help: "Let the scene use images outside its folder.")
    var allowOutsideImages = false

    @Flag(help: "Print nothing when the scene is valid.")
    var quiet = false

    func run() throws {
        try CLI.run {
            let problems = try SceneInput.validate(scene, allowOutsideImages: allowOutsideImages)
            if problems.isEmpty {
                if !quiet { print("\(scene): valid") }
                let source = try SceneInput.load(path: scene, allowOutsideImages: allowOutsideImages)
                for gap in SceneGaps.list(source) { print("\(scene): not reproduced: \(gap)") }
                return
            }
            for p in problems { print("\(scene): \(p)") }
            throw CLIError("\(scene): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
        }
    }
}
