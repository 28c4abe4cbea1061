import ArgumentParser
import QuartzCore
import Foundation

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the backend carender would draw with and why, and the EGL platform, device, OpenGL version and limits.",
        discussion: """
        Makes the same renderer `render` and `bench` make: the backend (--backend, CA_BACKEND; by default automatic: the CPU backend where OpenGL would be a software rasteriser such as llvmpipe or no EGL display exists) and the reason, then the headless GL context's details (EGL device platform, then surfaceless Mesa, then a pbuffer; CA_EGL_PLATFORM=device|surfaceless|pbuffer forces one).

        Examples:
          carender info
          carender info --backend gl
          CA_EGL_PLATFORM=surfaceless carender info --json
        """)

    @Flag(help: "Print JSON (keys: backend, backend reason, platform, device, vendor, renderer, version, glsl, limits).")
    var json = false

    @OptionGroup var backendChoice: BackendOption

    func run() throws {
        try CLI.run {
            try backendChoice.apply()
            let r: CARenderer
            let options = try CARenderer.Options.fromCarenderEnvironment()
            do { r = try CARenderer(offscreenSize: CGSize(width: 16, height: 16), options: options) } catch { throw CLIError("\(error)") }
            // The automatic choice of the CPU backend (a software GL driver) still shows the GL
            // context it looked at: what llvmpipe offers, and why it was passed over.
            var described = r
            if r.activeBackend.backend == .software, options.backend == .automatic {
                var gl = options
                gl.backend = .openGL
                if let probe = try? CARenderer(offscreenSize: CGSize(width: 16, height: 16), options: gl) { described = probe }
            }
            let info = described.contextInfo.merging(["backend": r.activeBackend.backend.rawValue, "backend reason": r.activeBackend.reason]) { _, b in b }
            let limits = described.contextLimits
            if json {
                var obj: [String: Any] = [:]
                for (k, v) in info { obj[k] = v }
                obj["limits"] = Dictionary(limits.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
                let data = try JSONSerialization.data(withJSONObject: obj, options: [.prettyPrinted, .sortedKeys])
                print(String(decoding: data, as: UTF8.self))
                return
            }
            let order = ["platform", "device", "vendor", "renderer", "version", "glsl"]
            let keys = order.filter { info[$0] != nil } + info.keys.filter { !order.contains($0) }.sorted()
            let width = max(keys.map(\.count).max() ?? 0, limits.map(\.name.count).max() ?? 0)
            func line(_ k: String, _ v: String) { print(k.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + v) }
            for k in keys { line(k, info[k]!) }
            for l in limits { line(l.name, l.value) }
        }
    }
}
