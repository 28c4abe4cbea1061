import Testing

struct CGColorTests {
    @Test("RGB and gray colours expose their components, colour space and alpha")
    func components() {
        let c = CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)
        #expect(c.components == [0.1, 0.2, 0.3, 0.4])
        #expect(c.numberOfComponents == 4)
        #expect(c.alpha == 0.4)
        #expect(c.colorSpace?.model == .rgb)
        let g = CGColor(gray: 0.5, alpha: 1)
        #expect(g.components == [0.5, 1])
        #expect(g.numberOfComponents == 2)
        #expect(g.colorSpace?.model == .monochrome)
        #expect(g.rgba == (0.5, 0.5, 0.5, 1))
    }

    @Test("copy(alpha:) replaces alpha, clamped to 0…1, keeping the colour")
    func copyAlpha() throws {
        let c = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        #expect(try #require(c.copy(alpha: 0.25)).components == [1, 0.5, 0, 0.25])
        #expect(try #require(c.copy(alpha: 1.5)).alpha == 1)
        #expect(try #require(c.copy(alpha: -2)).alpha == 0)
        #expect(try #require(CGColor.white.copy(alpha: 0.5)).components == [1, 0.5])
    }

    @Test("equality compares space and components: gray 0.5 differs from RGB 0.5")
    func equality() {
        #expect(CGColor(red: 1, green: 0, blue: 0, alpha: 1) == CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(CGColor(red: 1, green: 0, blue: 0, alpha: 1) != CGColor(red: 1, green: 0, blue: 0, alpha: 0.5))
        #expect(CGColor(gray: 0.5, alpha: 1) != CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1))
        #expect(CGColor.black == CGColor(gray: 0, alpha: 1))
        #expect(CGColor.clear.alpha == 0)
    }

    @Test("colour spaces: known names resolve, unknown names give nil, component counts checked")
    func colorSpaces() throws {
        let srgb = try #require(CGColorSpace(name: CGColorSpace.sRGB))
        #expect(srgb.numberOfComponents == 3)
        #expect(CGColorSpace(name: "kCGColorSpaceNoSuchSpace") == nil)
        #expect(CGColor(colorSpace: srgb, componentArray: [1, 0, 0]) == nil)
        #expect(CGColor(colorSpace: srgb, componentArray: [1, 0, 0, 1]) == CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(CGColorSpaceCreateDeviceRGB().model == .rgb)
        #expect(CGColorSpaceCreateDeviceGray().model == .monochrome)
    }
}
