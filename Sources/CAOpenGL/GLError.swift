internal import CGL
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A failure in the OpenGL backend, with what went wrong in words.
package struct GLBackendError: Error, CustomStringConvertible, Sendable {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Reports `glGetError` after a call site in debug builds, and in release builds while a
/// renderer made with `CARenderer.Options.checksGLErrors` lives, with the site's label;
/// otherwise release builds skip it because the query stalls the pipeline.
@inline(__always)
func glCheck(_ label: @autoclosure () -> String) {
    #if !DEBUG
    guard GLDiagnostics.releaseChecks.load(ordering: .relaxed) > 0 else { return }
    #endif
    let e = glGetError()
    if e != E(GL_NO_ERROR) { GLDiagnostics.report(e, label()) }
}

package enum GLDiagnostics {
    /// How many living renderers asked for GL error checks in release builds.
    static let releaseChecks = Atomic<Int>(0)
    package static func retainReleaseChecks() { releaseChecks.add(1, ordering: .relaxed) }
    package static func releaseReleaseChecks() { releaseChecks.subtract(1, ordering: .relaxed) }

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
        record(e)
    }

    // `glGetError` clears the flag it returns, so a `glCheck` in the middle of a frame would
    // otherwise hide the error from the frame's final check, which then hands back a broken
    // (often black) frame as a success. The first error `glCheck` consumed is kept per thread
    // (GL error flags belong to the context, and a context is current on one thread) until
    // `takeFirstError()` reads it.
    private static let pendingKey: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k, nil)
        return k
    }()

    static func record(_ e: GLenum) {
        guard pthread_getspecific(pendingKey) == nil else { return }
        pthread_setspecific(pendingKey, UnsafeRawPointer(bitPattern: UInt(e)))
    }

    /// The first error since the last call: one `glCheck` consumed, else the one GL holds now.
    /// Clears both.
    static func takeFirstError() -> GLenum? {
        let pending = pthread_getspecific(pendingKey).map { GLenum(UInt(bitPattern: $0)) }
        if pending != nil { pthread_setspecific(pendingKey, nil) }
        var now = glGetError()
        let first = pending ?? (now != E(GL_NO_ERROR) ? now : nil)
        while now != E(GL_NO_ERROR) { now = glGetError() }
        return first
    }
}

