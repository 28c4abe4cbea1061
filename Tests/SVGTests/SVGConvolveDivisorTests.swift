import Testing
import Foundation

/// feConvolveMatrix's divisor (SVG 1.1 § feConvolveMatrix: "It is an error to specify a divisor
/// of zero"; the suite's `filters/feConvolveMatrix/divisor=0`, which Chrome, Firefox, Safari and
/// resvg all draw as nothing).
@Suite struct SVGConvolveDivisorTests {
    func render(_ divisor: String) throws -> (rgb: [UInt8], doc: SVGDocument) {
        let doc = try SVGDocument(string: """
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
              <filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="100" height="100">
                <feConvolveMatrix \(divisor) kernelMatrix="0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1"/>
              </filter>
              <rect x="20" y="20" width="60" height="60" fill="#0000ff" filter="url(#f)"/>
            </svg>
            """)
        let img = try SVGRenderCache().render(doc, pixelWidth: 100, pixelHeight: 100)
        return (SVGImageDiff.onWhite(img), doc)
    }

    func pixel(_ rgb: [UInt8], _ x: Int, _ y: Int) -> SIMD3<Int> {
        let i = (y * 100 + x) * 3
        return SIMD3(Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }

    @Test("divisor=\"0\" is an error: the primitive's result is transparent, reported once")
    func zeroDivisorIsTransparent() throws {
        let (rgb, doc) = try render(#"divisor="0""#)
        // Inside the rect: nothing drawn, white.
        #expect(pixel(rgb, 50, 50) == SIMD3(255, 255, 255))
        #expect(doc.issues.contains { $0.feature.contains("divisor=0") }, "\(doc.issues)")
    }

    @Test("Without a divisor the kernel's sum (0.9) divides: inside a flat area the source comes back unchanged")
    func defaultDivisorIsKernelSum() throws {
        let (rgb, doc) = try render("")
        // Nine neighbours of opaque blue, each × 0.1, divided by 0.9: blue, opaque.
        let p = pixel(rgb, 50, 50)
        #expect(abs(p.x) <= 2 && abs(p.y) <= 2 && abs(p.z - 255) <= 2, "\(p)")
        #expect(!doc.issues.contains { $0.feature.contains("divisor") }, "\(doc.issues)")
    }
}
