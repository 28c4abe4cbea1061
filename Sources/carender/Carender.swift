import ArgumentParser

/// `carender`: renders Core Animation scenes headless (EGL, OpenGL 3.3) from the command line.
struct Carender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "carender",
        abstract: "Render Core Animation scenes to PNGs and videos on a server, headless.",
        discussion: """
        A scene is a JSON file (docs/SCENE-FORMAT.md), an SVG file, or, when none is given, the built-in demo. Rendering needs no display and no GPU (Mesa's llvmpipe renders on the CPU); a GPU with an EGL driver is used when present (see `carender info`).

        Examples:
          carender render -o demo.mp4 --contact-sheet sheet.png   the demo + a sheet
          carender render scene.json --time 1.5 -o still.png      one frame
          carender render scene.json -o frames/%04d.png           every frame as PNG
          carender render icon.svg --scale 4 -o icon.png          an SVG file
          carender preview scene.json                             play it in a window
          carender validate 'scenes/*.json' icon.svg              file:line:column: problems
          carender render scene.json --set title.string=Hi -o x.webp   a template variant
          carender join -o movie.mp4 'part-*.mp4'                 shards joined, no re-encoding
          carender bench --builtin rects                          time a stress scene
          carender info                                           the GPU/driver used
          carender serve --port 8080                              renders over HTTP (POST /render)

        Exit status: 0 success; 1 a failed render or an invalid scene (validate: an error found); 2 a usage error (a bad option or value); 130 / 143 interrupted by SIGINT / SIGTERM (a first signal finishes the frame in hand and closes the output cleanly, a second exits at once, leaving no partial file and no ffmpeg behind).

        Run `carender help <subcommand>` for a subcommand's options and examples.
        """,
        version: "0.1.0",
        subcommands: [Render.self, Preview.self, Validate.self, Bench.self, Info.self, Join.self, Serve.self])
}
