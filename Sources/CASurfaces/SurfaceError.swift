/// Why a GL context could not be made. Each message says what is missing and how to get it.
package struct SurfaceError: Error, CustomStringConvertible, Sendable {
    package var description: String
    package init(_ description: String) { self.description = description }

    static let installHint = "install Mesa's EGL and llvmpipe: apt-get install -y libegl1 libegl-mesa0 libgl1-mesa-dri libopengl0 (or your GPU vendor's EGL driver)"
}
