extension CARenderer {
    /// Offscreen targets the backend keeps pooled between frames (for this package's tests:
    /// `GLRenderer+TargetPool.swift`, `SoftwareTargetPool.swift`).
    package var pooledTargetCount: Int { software?.pooledTargetCount ?? backend?.pooledTargetCount ?? 0 }
}
