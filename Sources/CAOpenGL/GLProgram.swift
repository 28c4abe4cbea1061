import CAFrame
internal import CGL
internal import CShaders

/// A linked GLSL program built from `Shaders/` (embedded at build time). The common header is
/// spliced in after `#version 330 core`, so every stage shares the coordinate helpers.
final class GLProgram {
    let id: GLuint
    private var locations: [String: GLint] = [:]

    init(vertex: String, fragment: String, defines: [String] = []) throws {
        let prelude = defines.map { "#define \($0) 1\n" }.joined() + InstanceFlags.glslDefinitions
        guard let common = ca_shader_source("common.glsl").map({ String(cString: $0) }) else {
            throw GLBackendError("shader common.glsl is not embedded")
        }
        func source(_ name: String, fragment: Bool) throws -> String {
            guard let s = ca_shader_source(name) else { throw GLBackendError("shader \(name) is not embedded") }
            return "#version 330 core\n" + prelude + (fragment ? "#define CA_FRAGMENT 1\n" : "") + common + "\n#line 1\n" + String(cString: s)
        }
        let vs = try Self.compile(E(GL_VERTEX_SHADER), try source(vertex, fragment: false), name: vertex)
        defer { glDeleteShader(vs) }
        let fs = try Self.compile(E(GL_FRAGMENT_SHADER), try source(fragment, fragment: true), name: fragment)
        defer { glDeleteShader(fs) }
        id = glCreateProgram()
        glAttachShader(id, vs)
        glAttachShader(id, fs)
        glLinkProgram(id)
        var ok: GLint = 0
        glGetProgramiv(id, E(GL_LINK_STATUS), &ok)
        guard ok != 0 else {
            let log = Self.log(id, isProgram: true)
            glDeleteProgram(id)
            throw GLBackendError("linking \(vertex)+\(fragment) failed: \(log)")
        }
        glCheck("link \(vertex)")
    }

    deinit { glDeleteProgram(id) }

    private static func compile(_ kind: GLenum, _ text: String, name: String) throws -> GLuint {
        let s = glCreateShader(kind)
        text.withCString { p in
            var ptr: UnsafePointer<GLchar>? = p
            glShaderSource(s, 1, &ptr, nil)
        }
        glCompileShader(s)
        var ok: GLint = 0
        glGetShaderiv(s, E(GL_COMPILE_STATUS), &ok)
        guard ok != 0 else {
            let log = Self.log(s, isProgram: false)
            glDeleteShader(s)
            throw GLBackendError("compiling \(name) failed: \(log)")
        }
        return s
    }

    private static func log(_ id: GLuint, isProgram: Bool) -> String {
        var len: GLint = 0
        if isProgram { glGetProgramiv(id, E(GL_INFO_LOG_LENGTH), &len) } else { glGetShaderiv(id, E(GL_INFO_LOG_LENGTH), &len) }
        guard len > 0 else { return "(no log)" }
        var buf = [GLchar](repeating: 0, count: Int(len) + 1)
        if isProgram { glGetProgramInfoLog(id, len, nil, &buf) } else { glGetShaderInfoLog(id, len, nil, &buf) }
        let bytes = buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    func use() { glUseProgram(id) }

    func location(_ name: String) -> GLint {
        if let l = locations[name] { return l }
        let l = glGetUniformLocation(id, name)
        locations[name] = l
        return l
    }

    func set(_ name: String, _ v: SIMD4<Float>) { glUniform4f(location(name), v.x, v.y, v.z, v.w) }
    func set(_ name: String, _ v: SIMD2<Float>) { glUniform2f(location(name), v.x, v.y) }
    func set(_ name: String, _ v: Float) { glUniform1f(location(name), v) }
    func set(_ name: String, int v: Int32) { glUniform1i(location(name), v) }
}
