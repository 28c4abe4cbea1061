import QuartzCore

extension StressScenes {
    /// The filter benchmark (issue 24): 1920×1080, 20 layers each blurred by a 16-point
    /// `CIGaussianBlur` (a card with a coloured sublayer), and 10 layers compositing over them
    /// with a blend mode each, sliding so every frame is drawn.
    public static func filters() -> CALayer {
        let root = root()
        root.backgroundColor = CGColor(gray: 0.9, alpha: 1)
        var rng = Random(state: 29)
        for _ in 0..<20 {
            let l = CALayer()
            l.frame = CGRect(x: 40 + rng.unit() * (size.width - 320), y: 40 + rng.unit() * (size.height - 260), width: 240, height: 180)
            l.backgroundColor = CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 1)
            l.cornerRadius = 16
            let spot = CALayer()
            spot.frame = CGRect(x: 40, y: 40, width: 100, height: 80)
            spot.backgroundColor = CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 1)
            l.addSublayer(spot)
            l.filters = [CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 16]) as Any]
            root.addSublayer(l)
        }
        let modes = ["multiplyBlendMode", "screenBlendMode", "overlayBlendMode", "darkenBlendMode", "lightenBlendMode",
                     "colorDodgeBlendMode", "softLightBlendMode", "differenceBlendMode", "hueBlendMode", "luminosityBlendMode"]
        for (i, mode) in modes.enumerated() {
            let l = CALayer()
            l.frame = CGRect(x: 60 + CGFloat(i) * 180, y: 300 + rng.unit() * 400, width: 220, height: 220)
            l.backgroundColor = CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.8)
            l.compositingFilter = mode
            let a = CABasicAnimation(keyPath: "position.x")
            a.byValue = 120; a.duration = 2; a.autoreverses = true; a.repeatCount = .infinity
            l.add(a, forKey: "slide")
            root.addSublayer(l)
        }
        return root
    }
}
