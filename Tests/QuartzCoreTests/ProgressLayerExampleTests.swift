import Testing

// The seed's example, written as a user would: a layer with a custom animatable `time`
// property whose `draw(in:)` paints a progress bar `time × bounds.width` wide. Apple's pattern
// (CALayer `needsDisplay(forKey:)`: "Animations changing the value of the attribute also
// trigger redisplay"); `@LayerProperty(key:)` stands where Apple code writes `@NSManaged`.
final class ProgressLayer: CALayer {
    @LayerProperty(key: "time") var time: CGFloat = 0
    /// A plain stored property: copied to the presentation layer by `init(layer:)`, as on Apple.
    var barColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    /// Whether each draw ran on a presentation layer, and the `time` it read.
    var drawnTimes: [(presentation: Bool, time: CGFloat)] = []

    override init() { super.init() }

    required init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? ProgressLayer {
            barColor = other.barColor
        }
    }

    required init?(coder: NSCoder) { nil }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "time" || super.needsDisplay(forKey: key)
    }

    override func draw(in ctx: CGContext) {
        model().drawnTimes.append((self !== model(), time))
        ctx.setFillColor(barColor)
        ctx.fill(CGRect(x: 0, y: 0, width: time * bounds.width, height: bounds.height))
    }
}

@Suite struct ProgressLayerExampleTests {
    /// The bar's width in pixels on row `y`: the first column that is not the bar colour.
    func barWidth(_ image: CGImage, row y: Int) -> Int {
        var x = 0
        while x < image.width {
            let p = image.rgba8Bytes[(y * image.width + x) * 4 ..< (y * image.width + x) * 4 + 4]
            if Array(p) != [255, 0, 0, 255] { break }
            x += 1
        }
        return x
    }

    @Test("P7 (the seed's example): an animated needsDisplay(forKey:) property is redrawn on the presentation layer every frame, and that drawing is the frame")
    func progressBar() throws {
        let bar = ProgressLayer()
        bar.frame = CGRect(x: 0, y: 0, width: 200, height: 20)
        bar.time = 1                       // the model's final value …
        let grow = CABasicAnimation(keyPath: "time")
        grow.fromValue = 0                 // … animated from 0 over 2 s, linearly
        grow.toValue = 1
        grow.duration = 2
        bar.add(grow, forKey: "progress")

        let renderer = try CARenderer(offscreenSize: CGSize(width: 200, height: 20))
        renderer.layer = bar
        var widths: [Int] = []
        for t in [0.0, 0.5, 1.0, 1.5, 2.5] {
            renderer.beginFrame(atTime: t)
            renderer.render()
            renderer.endFrame()
            let frame = try renderer.makeImage()
            widths.append(barWidth(frame, row: 10))
            // The bar's right edge is a hard pixel edge: the next column is untouched.
            let w = widths.last!
            if w < 200 { #expect(frame.rgba8Bytes[(10 * 200 + w) * 4 + 3] == 0, "column \(w) at t = \(t) is clear") }
        }
        // time = t / 2 while the animation runs: 0, 50, 100, 150 pixels; after it ends, the
        // model's time = 1 (the whole width).
        #expect(widths == [0, 50, 100, 150, 200])
        // The model was drawn once at the commit (time 1), the presentation layer at each
        // animated frame with the interpolated time.
        #expect(bar.drawnTimes.first.map { !$0.presentation && $0.time == 1 } == true)
        let animated = bar.drawnTimes.filter(\.presentation).map(\.time)
        #expect(animated == [0, 0.25, 0.5, 0.75])
    }
}
