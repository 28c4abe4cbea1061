import QuartzCore

extension CARenderer.Options {
    /// The renderer options carender runs with: its environment mapped onto options
    /// (`CA_EGL_PLATFORM`, `CA_DEPTH_PREPASS`, `CA_IMAGE_ATLAS`, `CA_SUBTREE_PATCH`,
    /// `CA_GL_CHECK`; docs/CARENDER.md, "Environment"). The library itself reads none.
    static func fromCarenderEnvironment() throws -> CARenderer.Options {
        do { return try CARenderer.Options(environment: ProcessInfo.processInfo.environment) } catch { throw CLIError("\(error)") }
    }
}
