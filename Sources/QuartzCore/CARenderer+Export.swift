import CoreGraphics
import CAOpenGL
import CASurfaces

// Export and measurement helpers for `carender` (issue 5). Package-only (docs/API.md): Apple's
// CARenderer draws into a caller's GL or Metal target and never reads back; users have
// `makeImage()` and `statistics`.

extension CARenderer {
    /// The implementation limits of this renderer's context (`GL_MAX_TEXTURE_SIZE`, …,
    /// `GL_TIME_ELAPSED` counter bits), in a fixed order. Extension beyond Apple's API.
    package var contextLimits: [(name: String, value: String)] {
        software != nil ? [] : (try? context.makeCurrent()).map { backend.limits() } ?? []
    }

    /// The target's size in pixels (`bounds.size × scale`, rounded). Extension beyond Apple's API.
    package var pixelSize: (width: Int, height: Int) { (pixelWidth, pixelHeight) }

    func currentOrThrow() throws {
        do { try context.makeCurrent() } catch let e as SurfaceError {
            throw CARendererError.noContext("the renderer's OpenGL context cannot be made current (lost or destroyed): \(e.description)")
        }
    }
}

/// Pipelined readback of a `CARenderer`'s frames through double-buffered pixel-pack buffers
/// (`GLPixelPackReadback`): `enqueue(tag:)` after a frame starts its copy and returns the
/// previous frame's pixels, so reading frame N overlaps rendering frame N+1 instead of
/// stalling on it as `makeImage()` does. Extension beyond Apple's API.
package final class CARendererFrameReader {
    let renderer: CARenderer
    /// nil with the CPU backend, whose frames are in memory already.
    let readback: GLPixelPackReadback?

    package init(renderer: CARenderer, buffers: Int = 2) throws {
        self.renderer = renderer
        try renderer.currentOrThrow()
        if renderer.software != nil { readback = nil; return }
        do {
            readback = try GLPixelPackReadback(width: renderer.pixelWidth, height: renderer.pixelHeight, slots: buffers)
        } catch let e as GLBackendError { throw CARendererError.backend(e.description) }
    }

    /// Queues the last rendered frame under `tag`; returns the oldest queued frame once the
    /// buffers are full (premultiplied RGBA8, sRGB, top row first). Throws if the last
    /// render failed, as `makeImage()` does.
    package func enqueue(tag: Int) throws -> (tag: Int, pixels: [UInt8])? {
        if let e = renderer.lastError { throw e }
        guard renderer.rendered else { throw CARendererError.notInFrame("frame reader: no frame was rendered") }
        try renderer.currentOrThrow()
        guard let readback else { return (tag, try renderer.readFrameBytes()) }
        do { return try readback.enqueue(from: renderer.backend, tag: tag) } catch let e as GLBackendError {
            throw CARendererError.backend(e.description)
        }
    }

    /// The frames still queued, oldest first (after the last frame).
    package func drain() throws -> [(tag: Int, pixels: [UInt8])] {
        try renderer.currentOrThrow()
        guard let readback else { return [] }
        do { return try readback.drain() } catch let e as GLBackendError { throw CARendererError.backend(e.description) }
    }
}

/// GPU time of frames from OpenGL timer queries (`GL_TIME_ELAPSED`), where the driver counts
/// it. `init` returns nil when it does not. Extension beyond Apple's API, for benchmarks.
package final class CARendererGPUTimer {
    let renderer: CARenderer
    let queries: GLTimerQueries

    package init?(renderer: CARenderer) {
        self.renderer = renderer
        guard (try? renderer.currentOrThrow()) != nil, GLTimerQueries.isSupported else { return nil }
        queries = GLTimerQueries()
    }

    /// Runs `body` (a `renderChecked()`) between the start and end of a timer query.
    package func measure(_ body: () throws -> Void) throws {
        try renderer.currentOrThrow()
        let started = queries.begin()
        defer { if started { try? renderer.currentOrThrow(); queries.end() } }
        try body()
    }

    /// Seconds of GPU work per measured frame whose result is ready (`wait`: all of them).
    package func collect(wait: Bool = false) -> [Double] {
        guard (try? renderer.currentOrThrow()) != nil else { return [] }
        return queries.collect(wait: wait)
    }
}
