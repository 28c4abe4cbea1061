import QuartzCore
import ArgumentParser

extension CARenderer.Options {
    /// The renderer options carender runs with: its environment mapped onto options
    /// (`CA_EGL_PLATFORM`, `CA_DEPTH_PREPASS`, `CA_IMAGE_ATLAS`, `CA_GLYPH_ATLAS`, `CA_SUBTREE_PATCH`,
    /// `CA_GL_CHECK`, `CA_BACKEND`; docs/CARENDER.md, "Environment"), then `--backend`. The
    /// library itself reads none.
    static func fromCarenderEnvironment() throws -> CARenderer.Options {
        var o: CARenderer.Options
        do { o = try CARenderer.Options(environment: ProcessInfo.processInfo.environment) } catch { throw CLIError("\(error)") }
        if let b = BackendOption.chosen { o.backend = b }
        return o
    }
}

/// `--backend gl|cpu|auto` of `render`, `bench`, `info`, `serve` and `preview` (issue 22): which backend draws; overrides
/// `CA_BACKEND`. Set once by the command before it makes a renderer.
struct BackendOption: ParsableArguments {
    @Option(help: ArgumentHelp("Backend: gl (OpenGL), cpu (the CPU backend) or auto. Default: CA_BACKEND, else auto (the CPU backend where GL is a software rasteriser or missing, else gl).", valueName: "gl|cpu|auto"))
    var backend: String?

    nonisolated(unsafe) static var chosen: CARenderer.Backend?

    /// Records the choice for `fromCarenderEnvironment()`; throws for an unknown name.
    func apply() throws {
        guard let backend else { return }
        do { Self.chosen = try CARenderer.Backend(name: backend) } catch { throw CLIError("--backend \(backend): not one of gl, cpu, auto") }
    }
}
