import QuartzCore
import Foundation

/// One frame to draw: its global index and the media time it shows.
struct FrameJob: Equatable {
    var index: Int
    var time: CFTimeInterval
}

/// How finished frames leave the GPU.
enum ReadbackMode: String, CaseIterable {
    /// Not at all (render-only throughput; the GPU is waited for once at the end).
    case none
    /// `makeImage()` after each frame: `glReadPixels` into client memory, which waits for the
    /// frame to finish before the next one can be prepared.
    case synchronous
    /// Double-buffered pixel-pack buffers (`CARendererFrameReader`): frame N is read while
    /// frame N+1 renders.
    case pipelined
}

/// Draws a scene's frames in order on this (the GL) thread and hands each one, read back,
/// to `consumer` (encoders on other threads).
struct Exporter {
    var scene: SceneSource
    var size: CGSize
    var scale: CGFloat
    var readback: ReadbackMode = .pipelined

    /// Makes the renderer for this export (a bad size fails here, before any file is made).
    func makeRenderer() throws -> CARenderer {
        do {
            let r = try CARenderer(offscreenSize: size, scale: scale, options: .fromCarenderEnvironment())
            r.layer = scene.rootLayer
            return r
        } catch let e as CARendererError {
            throw CLIError("\(e)")
        }
    }

    /// Renders `jobs`; stops early (without error) when SIGINT/SIGTERM arrived, returning the
    /// number of frames handed to the consumer.
    @discardableResult
    func run(_ renderer: CARenderer, jobs: [FrameJob], consumer: EncoderQueue?, progress: Progress?,
             afterFrame: ((Int) -> Void)? = nil) throws -> Int {
        // The scene's animations begin at time 0 whichever frame is drawn first (a shard may
        // start anywhere): commit the tree at 0 before the first frame.
        scene.applyScheduledChanges(0)
        renderer.beginFrame(atTime: 0)
        renderer.endFrame()
        let reader = readback == .pipelined ? try CARendererFrameReader(renderer: renderer) : nil
        var handed = 0
        do {
            for job in jobs {
                if Interrupts.pending != nil { break }
                scene.applyScheduledChanges(job.time)
                renderer.beginFrame(atTime: job.time)
                try renderer.renderChecked()
                renderer.endFrame()
                switch readback {
                case .none:
                    handed += 1
                case .synchronous:
                    let img = try renderer.makeImage()
                    try consumer?.submit(RenderedFrame(index: job.index, pixels: img.rgba8Bytes))
                    handed += 1
                case .pipelined:
                    if let out = try reader!.enqueue(tag: job.index) {
                        try consumer?.submit(RenderedFrame(index: out.tag, pixels: out.pixels))
                        handed += 1
                    }
                }
                progress?.frameDone()
                afterFrame?(handed)
            }
            if let reader {
                for out in try reader.drain() {
                    try consumer?.submit(RenderedFrame(index: out.tag, pixels: out.pixels))
                    handed += 1
                }
            }
            if readback == .none { try renderer.waitUntilCompleted() }
        } catch let e as CARendererError {
            throw CLIError("rendering failed: \(e)")
        }
        return handed
    }
}
