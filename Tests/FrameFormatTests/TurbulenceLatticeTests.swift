import Testing
@testable import CAFrame

/// feTurbulence's reference algorithm (Filter Effects Module Level 1 § feTurbulence), as
/// `TurbulenceLattice` builds and evaluates it; expected values worked out by hand from the
/// specification's generator and formulas.
@Suite struct TurbulenceLatticeTests {
    @Test("setup_seed and random follow the specification's Park–Miller generator")
    func generator() {
        #expect(TurbulenceLattice.setupSeed(0) == 1)         // −(0 mod (m − 1)) + 1
        #expect(TurbulenceLattice.setupSeed(-20) == 21)      // −(−20) + 1
        #expect(TurbulenceLattice.setupSeed(5) == 5)
        #expect(TurbulenceLattice.setupSeed(Int(Int32.max) + 10) == 2_147_483_646)
        #expect(TurbulenceLattice.next(1) == 16807)           // 16807 · 1
        #expect(TurbulenceLattice.next(16807) == 282_475_249) // 16807², below m
    }

    @Test("the first gradient of seed 1 is (423 − 256, 241 − 256) / 256, normalised")
    func firstGradient() {
        // 16807 mod 512 = 423, 282475249 mod 512 = 241 (the first two draws).
        let l = TurbulenceLattice(seed: 1)
        let v = SIMD2<Double>(167.0 / 256, -15.0 / 256)
        let n = v / (v.x * v.x + v.y * v.y).squareRoot()
        #expect(abs(l.gradients[0][0].x - n.x) < 1e-12 && abs(l.gradients[0][0].y - n.y) < 1e-12)
        #expect(Set(l.lattice).count == 256 && l.lattice.allSatisfy { $0 >= 0 && $0 < 256 })
    }

    @Test("noise is 0 at lattice points, so fractalNoise there is ½ in every channel")
    func latticePoints() {
        let l = TurbulenceLattice(seed: 7)
        for p in [SIMD2<Double>(0, 0), SIMD2(3, 5), SIMD2(-2, 17), SIMD2(255, 256)] {
            for k in 0..<4 {
                #expect(l.noise(k, p) == 0)
                let sum = l.turbulence(k, at: p, frequency: SIMD2(1, 1), octaves: 4, fractal: true)
                #expect(TurbulenceLattice.channel(sum, fractal: true) == 0.5)
                #expect(TurbulenceLattice.channel(sum, fractal: false) == 0)
            }
        }
    }

    @Test("noise halfway along x is ¼ (g[b00].x − g[b10].x), the specification's lerps at s(½) = ½")
    func halfwayAlongX() {
        let l = TurbulenceLattice(seed: 3)
        // t = 4096.5: bx0 = 4096 & 255 = 0, bx1 = 1, rx0 = ½; ry0 = 0 so only row b00/b10 counts:
        // u = ½ g00.x, v = −½ g10.x, a = u + ½ (v − u).
        let b00 = l.lattice[l.lattice[0]], b10 = l.lattice[l.lattice[1]]
        for k in 0..<4 {
            let expected = 0.25 * (l.gradients[k][b00].x - l.gradients[k][b10].x)
            #expect(abs(l.noise(k, SIMD2(0.5, 0)) - expected) < 1e-12)
        }
    }

    @Test("stitching moves the frequency to the nearer of floor and ceil of tile × f over the tile")
    func stitchFrequency() {
        // 110 × 0.05 = 5.5: 5/110 gives f/lo = 1.1, 6/110 gives hi/f ≈ 1.0909, so 6/110.
        let (f, s) = TurbulenceLattice.stitch(frequency: SIMD2(0.05, 0.05), tile: SIMD4(0, 0, 110, 100))
        #expect(abs(f.x - 6.0 / 110) < 1e-15)
        #expect(abs(f.y - 0.05) < 1e-15)                      // 100 × 0.05 = 5 exactly
        #expect(s.width == 6 && s.height == 5)
        #expect(s.wrapX == 4096 + 6 && s.wrapY == 4096 + 5)
    }

    @Test("numOctaves is clamped to FilterTurbulenceStep.maxOctaves (a bad-input bound)")
    func octaveClamp() {
        let step = FilterTurbulenceStep(lattice: TurbulenceLattice(seed: 0), inverse: [], frequency: SIMD2(0.05, 0.05),
                                        octaves: 1_000_000, fractal: false, stitch: nil)
        #expect(step.octaves == FilterTurbulenceStep.maxOctaves)
        // Huge coordinates do not trap (the casts are done in floating point).
        let l = TurbulenceLattice(seed: 0)
        #expect(l.noise(0, SIMD2(1e300, -1e300)).isFinite)
    }

    @Test("cached(seed:) gives the lattice a fresh build gives, and keeps at most cacheLimit seeds")
    func cachedLattice() {
        #expect(TurbulenceLattice.cached(seed: 42) == TurbulenceLattice(seed: 42))
        #expect(TurbulenceLattice.cached(seed: 42).seed == 42)
        // Past the limit the cache starts over rather than growing: every seed still answers right.
        for s in 1000..<(1000 + 3 * TurbulenceLattice.cacheLimit) {
            #expect(TurbulenceLattice.cached(seed: s).lattice == TurbulenceLattice(seed: s).lattice)
            #expect(TurbulenceLattice.cachedSeeds <= TurbulenceLattice.cacheLimit)
        }
    }
}
