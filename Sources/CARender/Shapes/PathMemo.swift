import CoreGraphics

/// Values worked out from paths, kept by path identity with the path itself (so its identifier
/// is not reused while the value is kept) and its generation (a `CGMutablePath` changed since
/// is worked out again). At most `limit` are kept; the table then starts again (an animated
/// `path` is a new path each frame). The shape cache's boxes, centrelines, half-turn
/// symmetries and canonical objects are each one (`ShapeCache`).
struct PathMemo<Value> {
    private var table: [ObjectIdentifier: (path: CGPath, generation: Int, value: Value)] = [:]
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// The value kept for `path` when `isCurrent` accepts it, else `make`'s, kept.
    @inline(__always)
    mutating func value(for path: CGPath, isCurrent: (Value) -> Bool = { _ in true }, _ make: () -> Value) -> Value {
        let id = ObjectIdentifier(path)
        if let k = table[id], k.path === path, k.generation == path.generation, isCurrent(k.value) { return k.value }
        let v = make()
        if table.count >= limit { table.removeAll() }
        table[id] = (path, path.generation, v)
        return v
    }

    mutating func removeAll() { table.removeAll() }
}
