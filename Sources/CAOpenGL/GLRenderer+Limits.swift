internal import CGL

extension GLRenderer {
    /// Implementation limits of the current context that decide what can be rendered, by GL
    /// name (values as decimal text), plus `GL_TIME_ELAPSED counter bits` (0: no GPU timer).
    /// Extension beyond Apple's API, for `carender info`. Call with the context current.
    package func limits() -> [(name: String, value: String)] {
        func int(_ e: Int32) -> String {
            var v: GLint = 0
            glGetIntegerv(E(e), &v)
            return String(v)
        }
        var dims: [GLint] = [0, 0]
        glGetIntegerv(E(GL_MAX_VIEWPORT_DIMS), &dims)
        var bits: GLint = 0
        glGetQueryiv(E(GL_TIME_ELAPSED), E(GL_QUERY_COUNTER_BITS), &bits)
        let out: [(String, String)] = [
            ("GL_MAX_TEXTURE_SIZE", int(GL_MAX_TEXTURE_SIZE)),
            ("GL_MAX_RENDERBUFFER_SIZE", int(GL_MAX_RENDERBUFFER_SIZE)),
            ("GL_MAX_VIEWPORT_DIMS", "\(dims[0])×\(dims[1])"),
            ("GL_MAX_SAMPLES", int(GL_MAX_SAMPLES)),
            ("GL_MAX_TEXTURE_IMAGE_UNITS", int(GL_MAX_TEXTURE_IMAGE_UNITS)),
            ("GL_MAX_VERTEX_ATTRIBS", int(GL_MAX_VERTEX_ATTRIBS)),
            ("GL_MAX_UNIFORM_BLOCK_SIZE", int(GL_MAX_UNIFORM_BLOCK_SIZE)),
            ("GL_TIME_ELAPSED counter bits", String(bits)),
        ]
        _ = GLDiagnostics.takeFirstError()
        return out.map { (name: $0.0, value: $0.1) }
    }
}
