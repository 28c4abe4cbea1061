internal import CGL
import Foundation

/// A failure in the OpenGL backend, with what went wrong in words.
public struct GLBackendError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Reports `glGetError` after a call site in debug builds (or when `CA_GL_CHECK=1`), with
/// the site's label; release builds skip it because the query stalls the pipeline.
@inline(__always)
func glCheck(_ label: @autoclosure () -> String) {
    #if DEBUG
    let e = glGetError()
    if e != E(GL_NO_ERROR) { GLDiagnostics.report(e, label()) }
    #endif
}

enum GLDiagnostics {
    static func name(_ e: GLenum) -> String {
        switch e {
        case E(GL_INVALID_ENUM): return "GL_INVALID_ENUM"
        case E(GL_INVALID_VALUE): return "GL_INVALID_VALUE"
        case E(GL_INVALID_OPERATION): return "GL_INVALID_OPERATION"
        case E(GL_OUT_OF_MEMORY): return "GL_OUT_OF_MEMORY"
        case E(GL_INVALID_FRAMEBUFFER_OPERATION): return "GL_INVALID_FRAMEBUFFER_OPERATION"
        default: return "0x" + String(e, radix: 16)
        }
    }

    static func report(_ e: GLenum, _ label: String) {
        FileHandle.standardError.write(Data("GL error \(name(e)) after \(label)\n".utf8))
    }
}

