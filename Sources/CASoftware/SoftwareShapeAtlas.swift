import CAFrame

/// The shape atlas in memory (as `GLShapeAtlas`): one RGBA8 page per coverage
/// `ShapeAtlasPage` (plus its auxiliary page once an upload brings `aux` texels), one RGBA32F
/// page per field page; created zeroed when a frame first lists a page, written where uploads
/// bring new rasters (each applied once, by serial), dropped when no frame lists it.
final class SoftwareShapeAtlas: @unchecked Sendable {
    var coverage: [Int: SoftwareTarget] = [:]
    var aux: [Int: SoftwareTarget] = [:]
    var fields: [Int: SoftwareFieldPage] = [:]
    var appliedSerial = 0

    func sync(_ frame: RenderFrame) {
        let live = Set(frame.shapePages.map(\.id))
        if coverage.count + fields.count != live.count || frame.shapePages.contains(where: { coverage[$0.id] == nil && fields[$0.id] == nil }) {
            coverage = coverage.filter { live.contains($0.key) }
            aux = aux.filter { live.contains($0.key) }
            fields = fields.filter { live.contains($0.key) }
            for p in frame.shapePages where coverage[p.id] == nil && fields[p.id] == nil {
                if p.isField { fields[p.id] = SoftwareFieldPage(width: p.width, height: p.height) }
                else { coverage[p.id] = SoftwareTarget(width: p.width, height: p.height, tracksZeroRuns: true) }
            }
        }
        for u in frame.shapeUploads where u.serial > appliedSerial {
            appliedSerial = u.serial
            if u.field.isEmpty {
                guard let t = coverage[u.page] else { continue }
                Self.copy(u.coverage, u, into: t)
                t.updateZeroRuns(u)
                if !u.aux.isEmpty {
                    let a = aux[u.page] ?? SoftwareTarget(width: t.width, height: t.height)
                    aux[u.page] = a
                    Self.copy(u.aux, u, into: a)
                }
            } else if let f = fields[u.page] {
                f.write(u)
            }
        }
    }

    /// Copies RGBA8 rows (top first) into the rectangle of `u`, clipped to the page.
    static func copy(_ bytes: [UInt8], _ u: ShapeAtlasUpload, into t: SoftwareTarget) {
        guard u.width > 0, u.height > 0, bytes.count >= u.width * u.height * 4 else { return }
        bytes.withUnsafeBytes { b in
            for row in 0..<u.height {
                let y = u.y + row
                guard y >= 0, y < t.height else { continue }
                for col in 0..<u.width {
                    let x = u.x + col
                    guard x >= 0, x < t.width else { continue }
                    let s = (row * u.width + col) * 4
                    t.pixels[y * t.width + x] = UInt32(b[s]) | UInt32(b[s + 1]) << 8 | UInt32(b[s + 2]) << 16 | UInt32(b[s + 3]) << 24
                }
            }
        }
    }
}

/// An RGBA32F page of exact arc-length fields.
final class SoftwareFieldPage: @unchecked Sendable {
    let width: Int, height: Int
    /// The texels, held by pointer: a `var` array in a class is checked for exclusive access
    /// at every read, once per covered texel of a wide stroke.
    let data: UnsafeMutablePointer<SIMD4<Float>>

    init(width: Int, height: Int) {
        self.width = max(width, 1); self.height = max(height, 1)
        data = .allocate(capacity: self.width * self.height)
        data.initialize(repeating: .zero, count: self.width * self.height)
    }

    deinit { data.deallocate() }

    func write(_ u: ShapeAtlasUpload) {
        guard u.width > 0, u.height > 0, u.field.count >= u.width * u.height * 4 else { return }
        for row in 0..<u.height {
            let y = u.y + row
            guard y >= 0, y < height else { continue }
            for col in 0..<u.width {
                let x = u.x + col
                guard x >= 0, x < width else { continue }
                let s = (row * u.width + col) * 4
                data[y * width + x] = SIMD4(u.field[s], u.field[s + 1], u.field[s + 2], u.field[s + 3])
            }
        }
    }

    @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
        data[min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)]
    }

    /// Bilinear at texel-space (x, y), clamped to the edge.
    @inline(__always) func bilinear(_ x: Float, _ y: Float) -> SIMD4<Float> {
        let fx = x - 0.5, fy = y - 0.5
        let x0f = fx.softwareFloor, y0f = fy.softwareFloor
        let ax = fx - x0f, ay = fy - y0f
        let x0 = SoftwareClamp.int(x0f), y0 = SoftwareClamp.int(y0f)
        let a = texel(x0, y0), b = texel(x0 + 1, y0), c = texel(x0, y0 + 1), d = texel(x0 + 1, y0 + 1)
        let top = a + (b - a) * ax, bottom = c + (d - c) * ax
        return top + (bottom - top) * ay
    }
}
