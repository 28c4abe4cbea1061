import Testing
@testable import CoreAnimation

extension PinnedClock { @Suite struct GSpringAnimationTests {
    func zs(_ s: CASpringAnimation, _ ts: [Double]) -> [Double] {
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        TT.run(s, on: l)
        return ts.map { TT.z(l, at: $0) }
    }

    @Test("G2: default spring presentation values equal the table")
    func g2DefaultSpring() {
        defer { CAMediaClock.unfreeze() }
        let s = CASpringAnimation(keyPath: "zPosition")
        s.fromValue = 0.0; s.toValue = 1.0; s.duration = 2
        let ts = [0.05, 0.1, 0.2, 0.3, 0.36276, 0.5, 0.75, 1.0]
        let x = [0.104405, 0.340300, 0.849426, 1.124355, 1.163034, 1.074591, 0.974152, 1.002170]
        let got = zs(s, ts)
        for (g, e) in zip(got, x) { #expect(TT.near(g, e), "\(g) vs \(e)") }
    }

    @Test("G1/G2: t is seconds of basic time, not a fraction of duration; timing function ignored; from/to mapping")
    func g1SecondsAndMapping() {
        defer { CAMediaClock.unfreeze() }
        let s = CASpringAnimation(keyPath: "zPosition")
        s.fromValue = 10.0; s.toValue = 20.0; s.duration = 5
        s.timingFunction = CAMediaTimingFunction(name: .easeIn)
        #expect(TT.near(zs(s, [0.2])[0], 10 + 10 * 0.849426, 1e-5))
    }

    @Test("G2: critical damping (c = 20) → 0.264241, 0.593994, 0.959572, 0.999501")
    func g2Critical() {
        defer { CAMediaClock.unfreeze() }
        let s = CASpringAnimation(keyPath: "zPosition")
        s.fromValue = 0.0; s.toValue = 1.0; s.duration = 2; s.damping = 20
        let got = zs(s, [0.1, 0.2, 0.5, 1.0])
        for (g, e) in zip(got, [0.264241, 0.593994, 0.959572, 0.999501]) { #expect(TT.near(g, e), "\(g) vs \(e)") }
    }

    @Test("G3: settlingDuration — default 1.4727003346780927, damping 1 13.913…, 20 → 1.0, 100 → 1.0")
    func g3Settling() {
        let s = CASpringAnimation()
        #expect(TT.near(s.settlingDuration, 1.4727003346780927, 1e-9))
        s.damping = 1
        #expect(TT.near(s.settlingDuration, 13.91321015404625, 1e-9))
        s.damping = 20
        #expect(TT.near(s.settlingDuration, 1.0, 1e-9))
        s.damping = 100
        #expect(TT.near(s.settlingDuration, 1.0, 1e-9))
        #expect(TT.near(CASpringAnimation().perceptualDuration, 0.6283185307179586, 1e-9))
        #expect(TT.near(CASpringAnimation().bounce, 0.5, 1e-9))
    }

    @Test("G4: init(perceptualDuration: 1, bounce: 0.5) → k 4π², c 2π, overdamping allowed, duration = settlingDuration ≈ 2.3439")
    func g4Perceptual() {
        defer { CAMediaClock.unfreeze() }
        let s = CASpringAnimation(perceptualDuration: 1, bounce: 0.5)
        #expect(TT.near(s.mass, 1) && TT.near(s.stiffness, 4 * Double.pi * Double.pi, 1e-9) && TT.near(s.damping, 2 * Double.pi, 1e-9))
        #expect(s.allowsOverdamping)
        #expect(TT.near(s.settlingDuration, 2.3439, 1e-4))
        #expect(s.duration == s.settlingDuration)
        #expect(TT.near(s.perceptualDuration, 1, 1e-9) && TT.near(s.bounce, 0.5, 1e-9))
        let swiftUI = CASpringAnimation(perceptualDuration: 0.5, bounce: 0.3)
        #expect(TT.near(swiftUI.stiffness, 157.9, 0.05) && TT.near(swiftUI.damping, 17.6, 0.05))
        let flat = CASpringAnimation(perceptualDuration: 1, bounce: -1)
        #expect(flat.settlingDuration == 0)
        flat.keyPath = "zPosition"; flat.fromValue = 0.0; flat.toValue = 1.0; flat.duration = 1
        #expect(TT.near(zs(flat, [0.01])[0], 1))
    }
}
}
