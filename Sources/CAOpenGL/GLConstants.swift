internal import CGL

// GL integer macros import as Int32; the API wants GLenum/GLint. Wrapped once here.
@inline(__always) func E(_ v: Int32) -> GLenum { GLenum(bitPattern: v) }
@inline(__always) func E(_ v: UInt32) -> GLenum { v }
