extension CARenderer {
    /// Offscreen targets the GL backend keeps pooled between frames; 0 on the CPU backend
    /// (for this package's tests: `GLRenderer+TargetPool.swift`).
    package var pooledTargetCount: Int { software == nil ? (backend?.pooledTargetCount ?? 0) : 0 }
}
