import Testing
import Foundation

/// feTurbulence, feDisplacementMap and feImage (Filter Effects Module Level 1, issue 24;
/// docs/FILTERS.md "Filter graphs"). Expected pixels are derived by hand from the
/// specification's formulas, over white, in 8-bit sRGB (`color-interpolation-filters="sRGB"`
/// unless a test says otherwise, so values are not re-encoded).
@Suite struct SVGFilterSourceTests {
    func render(_ body: String) throws -> (rgb: [UInt8], doc: SVGDocument) {
        let doc = try SVGDocument(string: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\">\(body)</svg>")
        let img = try SVGRenderCache().render(doc, pixelWidth: 100, pixelHeight: 100)
        return (SVGImageDiff.onWhite(img), doc)
    }

    func pixel(_ rgb: [UInt8], _ x: Int, _ y: Int) -> SIMD3<Int> {
        let i = (y * 100 + x) * 3
        return SIMD3(Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }

    func near(_ p: SIMD3<Int>, _ q: SIMD3<Double>, _ tol: Double = 2) -> Bool {
        abs(Double(p.x) - q.x) <= tol && abs(Double(p.y) - q.y) <= tol && abs(Double(p.z) - q.z) <= tol
    }

    // MARK: feTurbulence

    @Test("fractalNoise at lattice points is ½ in every channel: grey at alpha ½ (noise2 is 0 on the lattice)")
    func fractalNoiseOnLattice() throws {
        // baseFrequency 1: every pixel corner (where the noise is sampled) is a lattice point, for
        // all octaves. Colour ½ at alpha ½ over white: 0.5 · 0.5 + 0.5 = 0.75 → 191.
        let (rgb, _) = try render("""
            <filter id="f" filterUnits="userSpaceOnUse" x="10" y="10" width="60" height="60" color-interpolation-filters="sRGB">
              <feTurbulence type="fractalNoise" baseFrequency="1" numOctaves="3" seed="5"/>
            </filter>
            <rect x="20" y="20" width="10" height="10" filter="url(#f)"/>
            """)
        for (x, y) in [(10, 10), (35, 40), (69, 69)] {
            #expect(near(pixel(rgb, x, y), SIMD3(191.25, 191.25, 191.25)), "\(x),\(y): \(pixel(rgb, x, y))")
        }
        #expect(pixel(rgb, 75, 75) == SIMD3(255, 255, 255))   // outside the filter region
    }

    @Test("feTurbulence's lattice is uploaded once per seed, not per frame (it depends only on the seed)")
    func turbulenceLatticeUploadedOnce() throws {
        let doc = try SVGDocument(string: """
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
              <filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="100" height="100">
                <feTurbulence baseFrequency="0.05" numOctaves="2" seed="9137"/>
              </filter>
              <rect x="10" y="10" width="50" height="50" filter="url(#f)"/>
            </svg>
            """)
        let r = try CARenderer(offscreenSize: CGSize(width: 100, height: 100), options: .init(backend: .openGL))
        r.layer = doc.layer
        var uploads: [Int] = []
        var frames: [[UInt8]] = []
        for f in 0..<3 {
            r.beginFrame(atTime: Double(f) / 60)
            try r.renderChecked()
            r.endFrame()
            uploads.append(r.statistics.textureUploads)
            frames.append(try r.makeImage().rgba8Bytes)
        }
        // Frame 1 uploads the lattice (and whatever else it draws the first time); later frames
        // draw the same filter from the kept texture, with the same pixels.
        #expect(uploads[0] >= 1)
        #expect(uploads[1] == 0 && uploads[2] == 0, "uploads per frame: \(uploads)")
        #expect(frames[1] == frames[0] && frames[2] == frames[0])
    }

    @Test("turbulence at lattice points is 0: transparent")
    func turbulenceOnLattice() throws {
        let (rgb, _) = try render("""
            <filter id="f" filterUnits="userSpaceOnUse" x="10" y="10" width="60" height="60">
              <feTurbulence baseFrequency="1 1" numOctaves="2"/>
            </filter>
            <rect x="20" y="20" width="10" height="10" filter="url(#f)"/>
            """)
        #expect(near(pixel(rgb, 40, 40), SIMD3(255, 255, 255)))
    }

    @Test("the noise follows the element's transform: under scale(2) only every fourth pixel corner is a lattice point at f = ½")
    func turbulenceFollowsTransform() throws {
        let (rgb, _) = try render("""
            <g transform="scale(2)">
              <filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="50" height="50" color-interpolation-filters="sRGB">
                <feTurbulence type="fractalNoise" baseFrequency="0.5" seed="11"/>
              </filter>
              <rect x="5" y="5" width="10" height="10" filter="url(#f)"/>
            </g>
            """)
        // Frame corner (8, 12) is user (4, 6), lattice (2, 3): grey 191.
        for (x, y) in [(8, 12), (40, 4), (60, 80)] {
            #expect(near(pixel(rgb, x, y), SIMD3(191.25, 191.25, 191.25)), "\(x),\(y): \(pixel(rgb, x, y))")
        }
        // Elsewhere the noise is not 0 everywhere: some pixel of a row is far from that grey.
        let row = (0..<100).map { pixel(rgb, $0, 50) }
        #expect(row.contains { abs($0.x - 191) > 10 || abs($0.y - 191) > 10 })
    }

    @Test("numOctaves 1e6 is clamped (FilterTurbulenceStep.maxOctaves), reported, and draws as 16 octaves")
    func octavesClamped() throws {
        func doc(_ n: String) -> String {
            """
            <filter id="f" color-interpolation-filters="sRGB"><feTurbulence baseFrequency="0.05" numOctaves="\(n)" seed="2"/></filter>
            <rect x="10" y="10" width="80" height="80" filter="url(#f)"/>
            """
        }
        let (huge, d) = try render(doc("1000000"))
        let (sixteen, _) = try render(doc("16"))
        #expect(huge == sixteen)
        #expect(d.issues.contains { $0.kind == .limitReached && $0.feature.contains("numOctaves") })
        #expect(huge.contains { $0 < 250 })                     // something was drawn
    }

    // MARK: feDisplacementMap

    @Test("a constant map shifts by scale × (v − ½): red 1 with scale 20 reads 10 px to the right")
    func displacementByConstantMap() throws {
        // P'(x, y) = P(x + 20 (1 − ½), y + 20 (128/255 − ½)) = P(x + 10, y + 0.04): the black rect
        // at x 40…60 appears at 30…50.
        let (rgb, _) = try render("""
            <filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="100" height="100" color-interpolation-filters="sRGB">
              <feFlood flood-color="rgb(255,128,0)" result="map"/>
              <feDisplacementMap in="SourceGraphic" in2="map" scale="20" xChannelSelector="R" yChannelSelector="G"/>
            </filter>
            <rect x="40" y="40" width="20" height="20" fill="#000000" filter="url(#f)"/>
            """)
        #expect(near(pixel(rgb, 31, 50), SIMD3(0, 0, 0)))
        #expect(near(pixel(rgb, 49, 50), SIMD3(0, 0, 0)))
        #expect(near(pixel(rgb, 55, 50), SIMD3(255, 255, 255)))
        #expect(near(pixel(rgb, 28, 50), SIMD3(255, 255, 255)))
    }

    @Test("the channel selector picks the map's channel: alpha ½ (the default A) does not move")
    func displacementAlphaSelectorNeutral() throws {
        let (rgb, _) = try render("""
            <filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="100" height="100" color-interpolation-filters="sRGB">
              <feFlood flood-color="#ffffff" flood-opacity="0.5" result="map"/>
              <feDisplacementMap in="SourceGraphic" in2="map" scale="40"/>
            </filter>
            <rect x="40" y="40" width="20" height="20" fill="#000000" filter="url(#f)"/>
            """)
        // A = 128/255: offset 40 · (0.502 − 0.5) = 0.08 px, below one pixel.
        #expect(near(pixel(rgb, 41, 41), SIMD3(0, 0, 0)))
        #expect(near(pixel(rgb, 58, 58), SIMD3(0, 0, 0)))
        #expect(near(pixel(rgb, 62, 50), SIMD3(255, 255, 255)))
    }

    // MARK: feImage

    /// A 2 × 1 PNG: red, then blue.
    static let redBlue = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg=="

    @Test("feImage with a data URL fills its subregion (preserveAspectRatio none)")
    func imageDataURL() throws {
        let (rgb, _) = try render("""
            <filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="100" height="100">
              <feImage href="\(Self.redBlue)" x="20" y="20" width="60" height="60" preserveAspectRatio="none"/>
            </filter>
            <rect x="40" y="40" width="5" height="5" fill="#00ff00" filter="url(#f)"/>
            """)
        #expect(near(pixel(rgb, 25, 50), SIMD3(255, 0, 0), 4))
        #expect(near(pixel(rgb, 75, 50), SIMD3(0, 0, 255), 4))
        #expect(pixel(rgb, 50, 10) == SIMD3(255, 255, 255))    // outside the subregion
        #expect(pixel(rgb, 10, 50) == SIMD3(255, 255, 255))
    }

    @Test("feImage of an element draws that element in the filtered element's user space, not the source")
    func imageOfElement() throws {
        let (rgb, _) = try render("""
            <defs>
              <filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="100" height="100">
                <feImage href="#g"/>
              </filter>
              <rect id="g" x="30" y="30" width="40" height="40" fill="#008000"/>
            </defs>
            <rect x="10" y="10" width="80" height="80" fill="#ff0000" filter="url(#f)"/>
            """)
        #expect(near(pixel(rgb, 50, 50), SIMD3(0, 128, 0)))
        #expect(near(pixel(rgb, 15, 15), SIMD3(255, 255, 255)))   // the red source is not drawn
    }

    @Test("feImage of an element with x and y moves it by them and cuts it to the subregion")
    func imageOfElementMoved() throws {
        let (rgb, _) = try render("""
            <defs><rect id="g" width="30" height="30" fill="#008000"/></defs>
            <filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="100" height="100">
              <feImage href="#g" x="40" y="50" width="20" height="40"/>
            </filter>
            <rect x="10" y="10" width="80" height="80" fill="#ff0000" filter="url(#f)"/>
            """)
        #expect(near(pixel(rgb, 45, 55), SIMD3(0, 128, 0)))       // inside rect and subregion
        #expect(near(pixel(rgb, 65, 55), SIMD3(255, 255, 255)))   // rect reaches 70, subregion 60
        #expect(near(pixel(rgb, 15, 15), SIMD3(255, 255, 255)))   // not at its own place
    }

    @Test("feImage of an element moves it by the default subregion's origin too (the filter region's, as resvg's references)")
    func imageOfElementAtRegionOrigin() throws {
        // Region: the bounding box 20…80 grown by 10 %: 14…86. The referenced 10 × 10 square at
        // the origin is drawn at 14…24.
        let (rgb, _) = try render("""
            <defs><rect id="g" width="10" height="10" fill="#008000"/></defs>
            <filter id="f"><feImage href="#g"/></filter>
            <rect x="20" y="20" width="60" height="60" fill="#ff0000" filter="url(#f)"/>
            """)
        #expect(near(pixel(rgb, 19, 19), SIMD3(0, 128, 0)))
        #expect(near(pixel(rgb, 5, 5), SIMD3(255, 255, 255)))
        #expect(near(pixel(rgb, 26, 26), SIMD3(255, 255, 255)))
    }

    @Test("an feImage referencing the element its filter is on is refused with a report, not recursed")
    func recursiveImageRefused() throws {
        let (rgb, doc) = try render("""
            <filter id="i"><feImage href="#r"/></filter>
            <rect id="r" x="10" y="10" width="30" height="30" filter="url(#i)"/>
            <filter id="j"><feImage href="#g"/></filter>
            <g id="g" filter="url(#j)"><rect x="60" y="60" width="30" height="30"/></g>
            """)
        #expect(doc.issues.filter { $0.feature.hasPrefix("<feImage") && $0.detail.contains("recursive") }.count == 2)
        #expect(pixel(rgb, 25, 25) == SIMD3(255, 255, 255))
        #expect(pixel(rgb, 75, 75) == SIMD3(255, 255, 255))
    }
}
