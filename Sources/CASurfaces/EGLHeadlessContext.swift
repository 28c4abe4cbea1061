internal import CEGL
import CoreGraphics
#if canImport(Glibc)
import Glibc
#endif

/// Which EGL platform a headless context uses.
package enum EGLPlatformChoice: String, Sendable, CaseIterable {
    /// `EGL_EXT_platform_device`, preferring a device that is not Mesa's software device.
    case device
    /// `EGL_PLATFORM_SURFACELESS_MESA`.
    case surfaceless
    /// A 1×1 pbuffer surface made current with the context, for drivers that cannot make a
    /// context current without a surface (no `EGL_KHR_surfaceless_context`). On the default
    /// display (X11 or Wayland where a display server runs); where that display does not
    /// initialise (no display server, as on a headless server with Mesa), on the device
    /// display, else the surfaceless one.
    case pbuffer
}

/// An OpenGL 3.3+ core context with no window, made current on the calling thread. Not in
/// Apple's API (Apple's CARenderer takes a CGL context).
///
/// Platforms are tried in order `device` → `surfaceless` → `pbuffer`; the environment
/// variable `CA_EGL_PLATFORM` (`device`, `surfaceless` or `pbuffer`) forces one, and so does
/// `init(platforms:debug:)`. EGL hands out one display per platform and process, so displays
/// are initialised once and never terminated; contexts are destroyed with their owner.
package final class EGLHeadlessContext {
    package let platform: EGLPlatformChoice
    /// Vendor, device, EGL and GL version strings, for `carender info` and logs.
    package private(set) var info: [String: String] = [:]

    let display: EGLDisplay
    let context: EGLContext
    let surface: EGLSurface?

    /// Makes a context current on this thread with the first of `platforms` that gives an
    /// OpenGL 3.3 core context. Throws `SurfaceError` naming each platform's failure and the
    /// packages to install when none does. The library reads no environment: the caller
    /// (`CARenderer.Options.eglPlatforms`) says which platforms to try.
    package convenience init(platforms: [EGLPlatformChoice], debug: Bool = false) throws {
        try self.init(platforms: platforms, debug: debug, glVersion: (3, 3))
    }

    /// `glVersion` is the core version asked for (3.3 in production; tests ask for one no
    /// driver has to prove the "no suitable context" path).
    package init(platforms: [EGLPlatformChoice], debug: Bool, glVersion: (major: Int, minor: Int)) throws {
        var failures: [String] = []
        for p in platforms {
            do {
                let made = try Self.make(platform: p, debug: debug, glVersion: glVersion)
                platform = p
                display = made.display
                context = made.context
                surface = made.surface
                info = made.info
                return
            } catch let e as SurfaceError {
                failures.append("\(p.rawValue): \(e.description)")
            }
        }
        let tried = failures.isEmpty ? "no EGL platform was tried" : failures.joined(separator: "; ")
        throw SurfaceError("no headless OpenGL \(glVersion.major).\(glVersion.minor) core context could be made (\(tried)). \(SurfaceError.installHint)")
    }

    deinit {
        guard !isDestroyed else { return }
        eglMakeCurrent(display, nil, nil, nil)
        if let surface { eglDestroySurface(display, surface) }
        eglDestroyContext(display, context)
    }

    /// Makes this context current on the calling thread (GL contexts belong to one thread at a
    /// time; call this before using GL objects made under it from another thread).
    ///
    /// A lost context (a GPU reset, a driver restart) surfaces here as `EGL_CONTEXT_LOST`
    /// (0x300e), or as GL errors on the next frame; a destroyed one as `EGL_BAD_CONTEXT`
    /// (0x3006). Either way this throws, and the caller has to make a new context: GL objects
    /// do not survive a lost context.
    package func makeCurrent() throws {
        guard eglMakeCurrent(display, surface, surface, context) == EGLBoolean(EGL_TRUE) else {
            let e = eglGetError()
            let why = e == EGLint(EGL_CONTEXT_LOST) ? "the context was lost (EGL_CONTEXT_LOST)"
                : e == EGLint(EGL_BAD_CONTEXT) ? "the context is gone (EGL_BAD_CONTEXT)" : "0x\(String(e, radix: 16))"
            throw SurfaceError("eglMakeCurrent failed: \(why); make a new context")
        }
    }

    private var isDestroyed = false

    /// Test hook: destroys the EGL context now, as a lost context would leave it, so tests can
    /// prove later use fails with an error instead of crashing or drawing nothing.
    package func destroyForTesting() {
        guard !isDestroyed else { return }
        isDestroyed = true
        eglMakeCurrent(display, nil, nil, nil)
        if let surface { eglDestroySurface(display, surface) }
        eglDestroyContext(display, context)
    }

    // MARK: Making one

    private struct Made {
        var display: EGLDisplay
        var context: EGLContext
        var surface: EGLSurface?
        var info: [String: String]
    }

    /// Displays initialised so far, by platform (never terminated: one per process), behind
    /// their lock. (The lock once guarded a separate static with `Locked(())`: ThreadSanitizer
    /// took the zero-sized value's exclusive access for a write to the mutex pointer beside it
    /// and reported a race between two renderers made on two threads.)
    private static let displayTable = Locked<[EGLPlatformChoice: EGLDisplay]>([:])

    private static func display(for platform: EGLPlatformChoice, info: inout [String: String]) throws -> EGLDisplay {
        try displayTable.withLock { displays in
            if let d = displays[platform] { return d }
            let clientExts = eglQueryString(nil, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? ""
            var dpy: EGLDisplay?
            switch platform {
            case .device:
                guard clientExts.contains("EGL_EXT_platform_device") else { throw SurfaceError("EGL_EXT_platform_device not offered") }
                var devices = [EGLDeviceEXT?](repeating: nil, count: 16)
                var n: EGLint = 0
                guard ca_eglQueryDevicesEXT(16, &devices, &n) == EGLBoolean(EGL_TRUE), n > 0 else {
                    throw SurfaceError("eglQueryDevicesEXT found no devices")
                }
                // Prefer hardware: Mesa's software device says EGL_MESA_device_software.
                let list = devices.prefix(Int(n)).compactMap { $0 }
                let hardware = list.first { d in
                    let ext = ca_eglQueryDeviceStringEXT(d, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? ""
                    return !ext.contains("EGL_MESA_device_software")
                }
                let chosen = hardware ?? list[0]
                info["device"] = hardware != nil ? "hardware device" : "Mesa software device"
                dpy = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), chosen, nil)
            case .surfaceless:
                guard clientExts.contains("EGL_MESA_platform_surfaceless") else { throw SurfaceError("EGL_MESA_platform_surfaceless not offered") }
                dpy = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil)
            case .pbuffer:
                dpy = eglGetDisplay(nil)
            }
            guard let d = dpy else { throw SurfaceError("no EGL display for this platform") }
            var major: EGLint = 0, minor: EGLint = 0
            guard eglInitialize(d, &major, &minor) == EGLBoolean(EGL_TRUE) else {
                let hint = platform == .pbuffer ? "; the default display needs a display server (DISPLAY or WAYLAND_DISPLAY)" : ""
                throw SurfaceError("eglInitialize failed (0x\(String(eglGetError(), radix: 16)))\(hint)")
            }
            displays[platform] = d
            return d
        }
    }

    /// The display a pbuffer goes on (see `EGLPlatformChoice.pbuffer`).
    private static func pbufferDisplay(info: inout [String: String]) throws -> EGLDisplay {
        var failures: [String] = []
        for p in [EGLPlatformChoice.pbuffer, .device, .surfaceless] {
            do {
                let d = try display(for: p, info: &info)
                info["display"] = p == .pbuffer ? "default display" : "\(p.rawValue) display"
                return d
            } catch let e as SurfaceError {
                failures.append("\(p == .pbuffer ? "default" : p.rawValue) display: \(e.description)")
            }
        }
        throw SurfaceError("no display for a pbuffer (\(failures.joined(separator: ", ")))")
    }

    private static func make(platform: EGLPlatformChoice, debug: Bool, glVersion: (major: Int, minor: Int)) throws -> Made {
        var info: [String: String] = ["platform": platform.rawValue]
        let d = platform == .pbuffer ? try pbufferDisplay(info: &info) : try display(for: platform, info: &info)
        if let v = eglQueryString(d, EGLint(EGL_VENDOR)) { info["eglVendor"] = String(cString: v) }
        if let v = eglQueryString(d, EGLint(EGL_VERSION)) { info["eglVersion"] = String(cString: v) }
        guard eglBindAPI(EGLenum(EGL_OPENGL_API)) == EGLBoolean(EGL_TRUE) else { throw SurfaceError("eglBindAPI(EGL_OPENGL_API) failed: the driver has no desktop OpenGL") }
        // EGL_PBUFFER_BIT: the default (window bit) finds no config on surfaceless Mesa.
        let attribs: [EGLint] = [EGLint(EGL_SURFACE_TYPE), EGLint(EGL_PBUFFER_BIT),
                                 EGLint(EGL_RENDERABLE_TYPE), EGLint(EGL_OPENGL_BIT),
                                 EGLint(EGL_RED_SIZE), 8, EGLint(EGL_GREEN_SIZE), 8, EGLint(EGL_BLUE_SIZE), 8,
                                 EGLint(EGL_ALPHA_SIZE), 8, EGLint(EGL_NONE)]
        var config: EGLConfig?
        var count: EGLint = 0
        guard eglChooseConfig(d, attribs, &config, 1, &count) == EGLBoolean(EGL_TRUE), count > 0, let cfg = config else {
            throw SurfaceError("no RGBA8 OpenGL pbuffer config")
        }
        var ctxAttribs: [EGLint] = [EGLint(EGL_CONTEXT_MAJOR_VERSION), EGLint(glVersion.major),
                                    EGLint(EGL_CONTEXT_MINOR_VERSION), EGLint(glVersion.minor),
                                    EGLint(EGL_CONTEXT_OPENGL_PROFILE_MASK), EGLint(EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT)]
        if debug { ctxAttribs += [EGLint(EGL_CONTEXT_OPENGL_DEBUG), EGLint(EGL_TRUE)] }
        ctxAttribs.append(EGLint(EGL_NONE))
        guard let ctx = eglCreateContext(d, cfg, nil, ctxAttribs) else {
            throw SurfaceError("eglCreateContext for OpenGL \(glVersion.major).\(glVersion.minor) core failed (0x\(String(eglGetError(), radix: 16)))")
        }
        var surface: EGLSurface? = nil
        if platform == .pbuffer {
            let pb: [EGLint] = [EGLint(EGL_WIDTH), 1, EGLint(EGL_HEIGHT), 1, EGLint(EGL_NONE)]
            surface = eglCreatePbufferSurface(d, cfg, pb)
            if surface == nil { eglDestroyContext(d, ctx); throw SurfaceError("eglCreatePbufferSurface failed") }
        }
        guard eglMakeCurrent(d, surface, surface, ctx) == EGLBoolean(EGL_TRUE) else {
            if let surface { eglDestroySurface(d, surface) }
            eglDestroyContext(d, ctx)
            throw SurfaceError("eglMakeCurrent failed (0x\(String(eglGetError(), radix: 16)))")
        }
        return Made(display: d, context: ctx, surface: surface, info: info)
    }
}
