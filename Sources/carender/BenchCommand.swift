import ArgumentParser
import QuartzCore
import CADemoScenes
import Foundation

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render offscreen as fast as possible and report the cost per frame.",
        discussion: """
        Each frame is timed from beginFrame to the GPU being done (glFinish): ms per frame (p50/p95/p99), fps, draw calls, batches, offscreen passes; the CPU time split into the engine step, the render-tree build and GL; and the GPU time from GL timer queries (GL_TIME_ELAPSED) where the driver counts it. The first 3 frames warm up and are not counted. --json prints one object, schema "carender-bench/1", documented in docs/CARENDER.md (keys keep their meaning; new keys may be added).

        --export measures export throughput instead: fps for render only, render + readback (synchronous, and double-buffered pixel-pack buffers), render + PNG (both writers) and render + MP4 (if ffmpeg exists), each the best of --rounds interleaved rounds.

        Built-in scenes (--builtin NAME): demo, \(StressScenes.names.joined(separator: ", ")).

        Examples:
          carender bench --builtin rects --frames 30
          carender bench --builtin shadows --json > shadows.json
          carender bench --export --scale 3 --frames 60    (the demo at 1920×1080)
          carender bench scene.json --size 1280x720
        """)

    @Argument(help: "A scene file. Omitted (and no --builtin): the built-in demo.")
    var scene: String?

    @Option(help: ArgumentHelp("A built-in scene instead of a file.", valueName: "name"))
    var builtin: String?

    @Option(help: "Frames to time (after 3 warm-up frames), 1...100000.")
    var frames = 60

    @Option(help: ArgumentHelp("Size in points, WxH. Default: the scene's.", valueName: "WxH"))
    var size: String?

    @Option(parsing: .unconditional, help: "Pixels per point. Default: the scene's.")
    var scale: String?

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Flag(help: "Measure export throughput (render only / + readback / + PNG / + MP4).")
    var export = false

    @Option(help: "With --export: rounds over all modes; each mode reports its best round.")
    var rounds = 3

    @OptionGroup var backendChoice: BackendOption

    @Flag(help: "No progress output.")
    var quiet = false

    func run() throws {
        try CLI.run {
            try backendChoice.apply()
            guard frames >= 1, frames <= 100_000 else { throw CLIError.usage("--frames \(frames): 1...100000") }
            if export, frames <= ExportBenchmark.warmup { throw CLIError.usage("--export --frames \(frames): more than \(ExportBenchmark.warmup) (the warm-up frames)") }
            let size = try self.size.map(SizeArgument.init)
            if let size { try CLI.check(size) }
            if scene != nil, builtin != nil { throw CLIError.usage("give a SCENE file or --builtin NAME, not both") }
            Interrupts.install()
            let scaleOption = try self.scale.map { try parseNumber($0, option: "--scale", in: 1e-3...16, what: "pixels per point must be more than 0 and at most 16") }
            var source = try builtin.map(SceneInput.builtin) ?? SceneInput.load(path: scene, allowOutsideImages: false)
            if let scaleOption { source.scale = CGFloat(scaleOption) }
            let pointSize = size.map { CGSize(width: $0.width, height: $0.height) } ?? source.size
            if export {
                let rebuild = { [builtin, scene] in
                    try builtin.map(SceneInput.builtin) ?? SceneInput.load(path: scene, allowOutsideImages: false)
                }
                guard rounds >= 1, rounds <= 100 else { throw CLIError.usage("--rounds \(rounds): 1...100") }
                try ExportBenchmark(scene: source, size: pointSize, frames: frames, json: json, quiet: quiet, rounds: rounds, rebuild: rebuild)
                    .run(sceneName: builtin ?? scene ?? "demo")
            } else {
                try FrameBenchmark(scene: source, size: pointSize, frames: frames).run(sceneName: builtin ?? scene ?? "demo", json: json, quiet: quiet)
            }
        }
    }
}
