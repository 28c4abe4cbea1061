import Testing
import CAFrame

/// The frame format's list of instance kinds (issue 16, "Adding a drawable kind"): every place
/// that enumerates kinds must agree with `RenderFrame.instanceKinds`, so a kind added to one list
/// and forgotten in another fails here rather than drawing nothing.
@Suite struct InstanceKindTests {
    /// A frame holding a different number of instances of each kind (1, 2, 3 …).
    static func frameWithDistinctCounts() -> RenderFrame {
        var f = RenderFrame(width: 8, height: 8)
        func fill<K: InstanceKind>(_ kind: K.Type, _ n: Int) {
            // Any instance will do: the layout's stride of zeros, reinterpreted.
            let zeros = [SIMD4<Float>](repeating: .zero, count: K.layout.vec4Count * n)
            f[keyPath: K.instances] = zeros.withUnsafeBytes { Array($0.bindMemory(to: K.self)) }
        }
        for (i, kind) in RenderFrame.instanceKinds.enumerated() { fill(kind, i + 1) }
        return f
    }

    @Test func instanceCountsHasOneLanePerKindInOrder() {
        let f = Self.frameWithDistinctCounts()
        let kinds = RenderFrame.instanceKinds
        #expect(kinds.count <= 8)
        for (lane, kind) in kinds.enumerated() {
            #expect(f.instanceCounts[lane] == f.count(of: kind), "lane \(lane) (\(kind.layout.shader))")
            #expect(f.instanceCounts[lane] == lane + 1)
            #expect(RenderFrame.lane(of: kind) == lane)
        }
        for lane in kinds.count..<8 { #expect(f.instanceCounts[lane] == 0) }
    }

    @Test func everyPipelineCaseDrawsAListedKind() {
        let cases: [Batch.Pipeline] = [.box, .image(texture: 0, filter: .linear), .composite(source: .main, mask: nil),
                                       .gradient, .shape(page: 0, fieldPage: -1), .particles(texture: 0, count: 1)]
        var seen = Set<String>()
        for p in cases {
            let shader = p.kind.layout.shader
            #expect(RenderFrame.instanceKinds.contains { $0.layout.shader == shader }, "\(p)")
            seen.insert(shader)
        }
        // Every kind is drawn by some pipeline case.
        #expect(seen == Set(RenderFrame.instanceKinds.map { $0.layout.shader }))
    }

    @Test func layoutsAreTheKindsOwnAndNamedOnce() {
        #expect(InstanceLayout.all == RenderFrame.instanceKinds.map { $0.layout })
        #expect(Set(InstanceLayout.all.map(\.shader)).count == InstanceLayout.all.count)
    }

    /// The clip check of the frame's contract covers every kind through `clipIndex`.
    @Test func aClipIndexOutOfRangeIsReportedForEveryKind() {
        for kind in RenderFrame.instanceKinds {
            var f = RenderFrame(width: 8, height: 8)
            func breakOne<K: InstanceKind>(_ k: K.Type) {
                var one = [SIMD4<Float>](repeating: .zero, count: K.layout.vec4Count).withUnsafeBytes { $0.load(as: K.self) }
                one.clipIndex = 5
                f[keyPath: K.instances] = [one]
            }
            breakOne(kind)
            #expect(f.problems.contains { $0.contains("\(kind.layout.shader) 0 has clip index 5") }, "\(kind.layout.shader)")
        }
    }
}
