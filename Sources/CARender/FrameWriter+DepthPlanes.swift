import CAFrame

/// Box batches of an opaque `CATransformLayer` plane drawn through the depth buffer
/// (`RenderTreeBuilder+DepthPlanes.swift`): each plane's box is a batch of its own carrying
/// its `DepthPlane`, since the backend sets the plane's depth per draw.
extension FrameWriter {
    func appendDepthPlaneBatch(variant: ShaderVariant, index: Int) {
        var v = variant
        v.insert(.planeDepth)
        emissionLog.append(Emission(pipeline: .box, variant: v))
        let p = passStack.count - 1
        if let last = passStack[p].batches.last, last.depthPlane == depthPlane, last.variant == v,
           last.range.upperBound == index {
            passStack[p].batches[passStack[p].batches.count - 1].range = last.range.lowerBound..<(index + 1)
            return
        }
        var b = Batch(pipeline: .box, variant: v, range: index..<(index + 1))
        b.depthPlane = depthPlane
        passStack[p].batches.append(b)
    }

    /// Adds a plane and returns its index for `depthPlane`.
    func appendDepthPlane(_ plane: DepthPlane) -> Int32 {
        frame.depthPlanes.append(plane)
        return Int32(frame.depthPlanes.count - 1)
    }

    /// Whether the writer is drawing into the frame's own target (no offscreen pass open): only
    /// the main pass has a depth buffer.
    var inMainPass: Bool { passStack.count == 1 }
}
