import Testing

/// `UIColor`: UIKit's documented component values, conversions and equality.
@Suite struct UIColorTests {
    private func rgba(_ c: UIColor) -> [CGFloat] {
        var r: CGFloat = -1, g: CGFloat = -1, b: CGFloat = -1, a: CGFloat = -1
        #expect(c.getRed(&r, green: &g, blue: &b, alpha: &a))
        return [r, g, b, a]
    }

    private func close(_ x: [CGFloat], _ y: [CGFloat], _ eps: CGFloat = 1e-9) -> Bool {
        x.count == y.count && zip(x, y).allSatisfy { abs($0 - $1) <= eps }
    }

    @Test("Fixed colours have UIKit's documented components; grays are grayscale colours")
    func fixedColours() {
        let rgbTable: [(UIColor, [CGFloat])] = [
            (.red, [1, 0, 0, 1]), (.green, [0, 1, 0, 1]), (.blue, [0, 0, 1, 1]),
            (.cyan, [0, 1, 1, 1]), (.yellow, [1, 1, 0, 1]), (.magenta, [1, 0, 1, 1]),
            (.orange, [1, 0.5, 0, 1]), (.purple, [0.5, 0, 0.5, 1]), (.brown, [0.6, 0.4, 0.2, 1]),
        ]
        for (c, expected) in rgbTable {
            #expect(rgba(c) == expected, "\(c)")
            #expect(c.cgColor.numberOfComponents == 4)
            var w: CGFloat = -1
            #expect(!c.getWhite(&w, alpha: nil), "an RGB colour has no white value")
            #expect(w == -1)
        }
        let grayTable: [(UIColor, CGFloat, CGFloat)] = [
            (.black, 0, 1), (.darkGray, 1.0 / 3.0, 1), (.lightGray, 2.0 / 3.0, 1),
            (.white, 1, 1), (.gray, 0.5, 1), (.clear, 0, 0),
        ]
        for (c, white, alpha) in grayTable {
            var w: CGFloat = -1, a: CGFloat = -1
            #expect(c.getWhite(&w, alpha: &a), "\(c)")
            #expect(w == white && a == alpha, "\(c)")
            #expect(c.cgColor.components == [white, alpha])
            #expect(rgba(c) == [white, white, white, alpha], "gray reads back as equal RGB channels")
        }
    }

    @Test("System colours are the HIG light-mode values")
    func systemColours() {
        let table: [(UIColor, [CGFloat])] = [
            (.systemRed, [255, 59, 48, 1]), (.systemOrange, [255, 149, 0, 1]), (.systemYellow, [255, 204, 0, 1]),
            (.systemGreen, [52, 199, 89, 1]), (.systemMint, [0, 199, 190, 1]), (.systemTeal, [48, 176, 199, 1]),
            (.systemCyan, [50, 173, 230, 1]), (.systemBlue, [0, 122, 255, 1]), (.systemIndigo, [88, 86, 214, 1]),
            (.systemPurple, [175, 82, 222, 1]), (.systemPink, [255, 45, 85, 1]), (.systemBrown, [162, 132, 94, 1]),
            (.systemGray, [142, 142, 147, 1]), (.systemGray2, [174, 174, 178, 1]), (.systemGray3, [199, 199, 204, 1]),
            (.systemGray4, [209, 209, 214, 1]), (.systemGray5, [229, 229, 234, 1]), (.systemGray6, [242, 242, 247, 1]),
            (.label, [0, 0, 0, 1]), (.secondaryLabel, [60, 60, 67, 0.6]), (.tertiaryLabel, [60, 60, 67, 0.3]),
            (.quaternaryLabel, [60, 60, 67, 0.18]), (.link, [0, 122, 255, 1]), (.separator, [60, 60, 67, 0.29]),
            (.systemBackground, [255, 255, 255, 1]), (.secondarySystemBackground, [242, 242, 247, 1]),
            (.systemGroupedBackground, [242, 242, 247, 1]), (.systemFill, [120, 120, 128, 0.2]),
        ]
        for (c, e) in table {
            #expect(close(rgba(c), [e[0] / 255, e[1] / 255, e[2] / 255, e[3]]), "\(c)")
        }
        #expect(UIColor.tintColor == .systemBlue)
    }

    @Test("HSB: init(hue:…) and getHue round-trip; primaries at 0, 1/3, 2/3")
    func hueSaturationBrightness() {
        #expect(close(rgba(UIColor(hue: 0, saturation: 1, brightness: 1, alpha: 1)), [1, 0, 0, 1]))
        #expect(close(rgba(UIColor(hue: 1.0 / 3, saturation: 1, brightness: 1, alpha: 1)), [0, 1, 0, 1]))
        #expect(close(rgba(UIColor(hue: 2.0 / 3, saturation: 1, brightness: 1, alpha: 0.5)), [0, 0, 1, 0.5]))
        #expect(close(rgba(UIColor(hue: 1, saturation: 1, brightness: 1, alpha: 1)), [1, 0, 0, 1]), "hue 1 is red")
        #expect(close(rgba(UIColor(hue: 0.5, saturation: 0, brightness: 0.25, alpha: 1)), [0.25, 0.25, 0.25, 1]))
        var h: CGFloat = 0, s: CGFloat = 0, v: CGFloat = 0, a: CGFloat = 0
        #expect(UIColor.orange.getHue(&h, saturation: &s, brightness: &v, alpha: &a))
        #expect(close([h, s, v, a], [30.0 / 360, 1, 1, 1]))
        for hue in stride(from: 0.0, to: 1.0, by: 0.07) {
            let c = UIColor(hue: hue, saturation: 0.6, brightness: 0.8, alpha: 1)
            #expect(c.getHue(&h, saturation: &s, brightness: &v, alpha: &a))
            #expect(close([h, s, v], [hue, 0.6, 0.8], 1e-9), "hue \(hue)")
        }
        #expect(UIColor.gray.getHue(&h, saturation: &s, brightness: &v, alpha: nil))
        #expect([h, s, v] == [0, 0, 0.5])
    }

    @Test("Equality is UIKit's: same colour space and components")
    func equality() {
        #expect(UIColor(white: 1, alpha: 1) == .white)
        #expect(UIColor(red: 1, green: 1, blue: 1, alpha: 1) != .white, "RGB white is not gray white")
        #expect(UIColor(red: 1, green: 0, blue: 0, alpha: 1) == .red)
        #expect(UIColor(cgColor: UIColor.red.cgColor) == .red)
        #expect(UIColor.red.isEqual(UIColor(red: 1, green: 0, blue: 0, alpha: 1)) && !UIColor.red.isEqual("red"))
        #expect(Set([UIColor.red, UIColor(red: 1, green: 0, blue: 0, alpha: 1)]).count == 1)
        #expect(UIColor.red.withAlphaComponent(0.5) == UIColor(red: 1, green: 0, blue: 0, alpha: 0.5))
        #expect(UIColor.black.withAlphaComponent(0.25) == UIColor(white: 0, alpha: 0.25), "stays grayscale")
        #expect(UIColor.red.cgColor == CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        #expect("\(UIColor.red)" == "UIExtendedSRGBColorSpace 1 0 0 1")
        #expect("\(UIColor.black)" == "UIExtendedGrayColorSpace 0 1")
    }

    @Test("Display P3 components are used as sRGB, with one warning")
    func displayP3() {
        let (c, warnings) = CompatDiagnostics.capture { UIColor(displayP3Red: 0.2, green: 0.4, blue: 0.6, alpha: 1) }
        #expect(close(rgba(c), [0.2, 0.4, 0.6, 1]))
        #expect(warnings.contains { $0.contains("UIColor(displayP3Red:green:blue:alpha:)") })
    }
}
