import Testing
@testable import CoreAnimation

/// The particle model of `CAEmitterLayer` (`EmitterSimulation`): counts, closed-form motion,
/// emitter shapes, sub-cells, determinism and the bounds on hostile input. Expected values are
/// derived by hand from the model documented on `EmitterSimulation` (births at n / rate,
/// p = p0 + v·a + ½·acc·a²).
@Suite struct EmitterSimulationTests {
    func layer(_ cells: [CAEmitterCell], _ configure: (CAEmitterLayer) -> Void = { _ in }) -> CAEmitterLayer {
        let l = CAEmitterLayer()
        l.emitterCells = cells
        configure(l)
        return l
    }

    func cell(rate: Float = 10, life: Float = 2, _ configure: (CAEmitterCell) -> Void = { _ in }) -> CAEmitterCell {
        let c = CAEmitterCell()
        c.birthRate = rate
        c.lifetime = life
        configure(c)
        return c
    }

    func simulate(_ l: CAEmitterLayer, at t: Double) -> EmitterSimulation { EmitterSimulation(l.emitter, at: t) }

    // MARK: Counts

    /// Constant birth rate r and lifetime L: births at n / r; at t = 5 the live ones are born in
    /// (3, 5], n = 31…50: 20 = r × L. At t = 1 (younger than L): n = 0…10, 11 ≈ r × t.
    @Test func liveCountIsBirthRateTimesLifetime() {
        let l = layer([cell()])
        #expect(simulate(l, at: 5).particles.count == 20)
        #expect(simulate(l, at: 1).particles.count == 11)
        #expect(simulate(l, at: 0).particles.count == 1)
        #expect(simulate(l, at: -1).particles.isEmpty)   // emission starts at local time 0
    }

    /// CAEmitterLayer `birthRate` and `lifetime` multiply the cells' (Apple's property docs).
    @Test func layerMultipliersScaleRateAndLifetime() {
        #expect(simulate(layer([cell()]) { $0.birthRate = 2 }, at: 5).particles.count == 40)
        #expect(simulate(layer([cell()]) { $0.lifetime = 0.5 }, at: 5).particles.count == 10)
        #expect(simulate(layer([cell()]) { $0.birthRate = 0 }, at: 5).particles.isEmpty)
    }

    @Test func disabledCellsAndZeroRatesEmitNothing() {
        #expect(simulate(layer([cell { $0.isEnabled = false }]), at: 5).particles.isEmpty)
        #expect(simulate(layer([cell(rate: 0)]), at: 5).particles.isEmpty)
        #expect(simulate(layer([cell(life: 0)]), at: 5).particles.isEmpty)
    }

    /// A cell's `beginTime` and `duration` bound when it emits (CAMediaTiming on the cell).
    @Test func cellTimingBoundsEmission() {
        let l = layer([cell(rate: 10, life: 100) { $0.beginTime = 1; $0.duration = 2 }])
        #expect(simulate(l, at: 0.5).particles.isEmpty)
        // Born at 1, 1.1, … up to (not including) 3: 20 particles, all still alive at 10.
        #expect(simulate(l, at: 10).particles.count == 20)
    }

    // MARK: Motion

    /// p = p0 + v·a + ½·acc·a²: velocity 10 along longitude 0 (+x), yAcceleration 4, age 0.5 →
    /// (+5, +0.5) from the emitter position.
    @Test func motionIsClosedFormInAge() throws {
        let l = layer([cell(rate: 1, life: 3) { $0.velocity = 10; $0.yAcceleration = 4 }]) {
            $0.emitterPosition = CGPoint(x: 100, y: 50)
        }
        let p = try #require(simulate(l, at: 0.5).particles.first)
        #expect(abs(p.position.x - 105) < 1e-9 && abs(p.position.y - 50.5) < 1e-9)
        // Longitude π/2 turns the velocity to +y; the layer's velocity multiplier doubles it.
        let l2 = layer([cell(rate: 1, life: 3) { $0.velocity = 10; $0.emissionLongitude = .pi / 2 }]) { $0.velocity = 2 }
        let q = try #require(simulate(l2, at: 0.5).particles.first)
        #expect(abs(q.position.x) < 1e-9 && abs(q.position.y - 10) < 1e-9)
    }

    /// Scale, spin and colour change linearly with age, times the layer's multipliers; colour
    /// channels clamp to 0…1.
    @Test func scaleSpinAndColourFollowTheirSpeeds() throws {
        let l = layer([cell(rate: 1, life: 10) {
            $0.scale = 1; $0.scaleSpeed = 0.5; $0.spin = 2
            $0.color = CGColor(red: 0.5, green: 0.5, blue: 1, alpha: 1)
            $0.redSpeed = 0.1; $0.blueSpeed = 1; $0.alphaSpeed = -0.2
        }]) { $0.scale = 2; $0.spin = 3 }
        let p = try #require(simulate(l, at: 2).particles.first { $0.birthTime == 0 })
        #expect(abs(p.scale - 4) < 1e-9)          // (1 + 0.5·2) × 2
        #expect(abs(p.angle - 12) < 1e-9)         // 2 × 3 rad/s × 2 s
        #expect(abs(p.color.x - 0.7) < 1e-6 && p.color.z == 1 && abs(p.color.w - 0.6) < 1e-6)   // Float speeds
    }

    // MARK: Shapes

    @Test func emitterShapesPlaceBirthsOnTheirGeometry() {
        func positions(_ shape: CAEmitterLayerEmitterShape, _ mode: CAEmitterLayerEmitterMode) -> [SIMD3<Double>] {
            let l = layer([cell(rate: 50, life: 1)]) {
                $0.emitterShape = shape; $0.emitterMode = mode
                $0.emitterPosition = CGPoint(x: 100, y: 100); $0.emitterSize = CGSize(width: 40, height: 20)
                $0.emitterDepth = 10; $0.emitterZPosition = 5
            }
            return simulate(l, at: 3).particles.map(\.position)
        }
        let rect = positions(.rectangle, .surface)
        #expect(rect.count == 50 && rect.allSatisfy { abs($0.x - 100) <= 20 && abs($0.y - 100) <= 10 && $0.z == 5 })
        #expect(Set(rect.map(\.x)).count > 40)   // spread, not one point
        #expect(positions(.rectangle, .points).allSatisfy { abs(abs($0.x - 100) - 20) < 1e-9 && abs(abs($0.y - 100) - 10) < 1e-9 })
        #expect(positions(.rectangle, .outline).allSatisfy {
            abs(abs($0.x - 100) - 20) < 1e-9 || abs(abs($0.y - 100) - 10) < 1e-9
        })
        #expect(positions(.line, .volume).allSatisfy { abs($0.x - 100) <= 20 && $0.y == 100 })
        // Circle: radius emitterSize.width (Apple's `circle` doc).
        #expect(positions(.circle, .outline).allSatisfy { abs((($0.x - 100) * ($0.x - 100) + ($0.y - 100) * ($0.y - 100)).squareRoot() - 40) < 1e-9 })
        #expect(positions(.circle, .surface).allSatisfy { (($0.x - 100) * ($0.x - 100) + ($0.y - 100) * ($0.y - 100)).squareRoot() <= 40 + 1e-9 })
        #expect(positions(.sphere, .surface).allSatisfy {
            let d = $0 - SIMD3(100, 100, 5)
            return abs((d * d).sum().squareRoot() - 40) < 1e-9
        })
        #expect(positions(.cuboid, .volume).allSatisfy { abs($0.z - 5) <= 5 && abs($0.x - 100) <= 20 })
        #expect(positions(.point, .volume).allSatisfy { $0 == SIMD3(100, 100, 5) })
    }

    /// A zero-size emitter of any shape is its position.
    @Test func zeroSizeEmittersEmitFromTheirPosition() {
        for shape in [CAEmitterLayerEmitterShape.line, .rectangle, .cuboid, .circle, .sphere] {
            let l = layer([cell()]) { $0.emitterShape = shape; $0.emitterPosition = CGPoint(x: 7, y: 9); $0.emitterSize = .zero }
            let ps = simulate(l, at: 5).particles
            #expect(ps.count == 20 && ps.allSatisfy { $0.position == SIMD3(7, 9, 0) })
        }
    }

    // MARK: Determinism

    @Test func equalSeedsGiveEqualParticlesAndDifferentSeedsDiffer() {
        func make(_ seed: UInt32) -> CAEmitterLayer {
            layer([cell { $0.velocity = 50; $0.velocityRange = 30; $0.emissionRange = 2 * .pi; $0.scaleRange = 0.5 }]) { $0.seed = seed }
        }
        let a = simulate(make(7), at: 12.3).particles, b = simulate(make(7), at: 12.3).particles
        #expect(a == b && !a.isEmpty)
        #expect(simulate(make(8), at: 12.3).particles.map(\.position) != a.map(\.position))
        // Frame t alone equals frame t after every earlier frame (no state carried).
        let l = make(7)
        for i in 0..<50 { _ = simulate(l, at: Double(i) * 0.25) }
        #expect(simulate(l, at: 12.3).particles == a)
        // A particle keeps its attributes from frame to frame (same key, same birth, moved by v·Δt).
        let later = simulate(make(7), at: 12.4).particles
        let shared = a.filter { p in later.contains { $0.key == p.key } }
        #expect(!shared.isEmpty)
    }

    // MARK: Sub-cells

    /// Each particle of a cell emits the cell's sub-cells from where it is: a parent at rest
    /// (velocity 0) at (10, 20) emits sub-particles there, at the sub-cell's rate over the last
    /// sub-lifetime of its own life.
    @Test func subCellsAreEmittedByEachParticle() {
        let child = cell(rate: 4, life: 1)
        let parent = cell(rate: 1, life: 10) { $0.emitterCells = [child] }
        let l = layer([parent]) { $0.emitterPosition = CGPoint(x: 10, y: 20) }
        let ps = simulate(l, at: 3.5).particles
        let parents = ps.filter { $0.node == 0 }, children = ps.filter { $0.node == 1 }
        #expect(parents.count == 4)   // born at 0, 1, 2, 3
        // Parent born at b emits at b + n/4; live ones born in (2.5, 3.5]: parents 0, 1, 2 have 4
        // each (n/4 ∈ (2.5−b, 3.5−b]); the parent born at 3 has n = 0, 1, 2 (3, 3.25, 3.5).
        #expect(children.count == 4 + 4 + 4 + 3)
        #expect(children.allSatisfy { $0.position == SIMD3(10, 20, 0) })
    }

    // MARK: Bad input

    /// A cycle through sub-cells is rejected where it repeats, with one warning.
    @Test func cyclesThroughSubCellsAreRejected() {
        let a = cell(rate: 1, life: 1), b = cell(rate: 1, life: 1)
        a.name = "a"
        a.emitterCells = [b]
        b.emitterCells = [a]
        let (sim, warnings) = Diagnostics.capture { simulate(layer([a]), at: 5) }
        #expect(sim.tree.nodes.count == 2)
        #expect(warnings.contains { $0.contains("cycle") })
        let selfLoop = cell()
        selfLoop.emitterCells = [selfLoop]
        #expect(simulate(layer([selfLoop]), at: 5).tree.nodes.count == 1)
    }

    @Test func deepNestingIsBounded() {
        var top = cell(rate: 1, life: 1)
        for _ in 0..<40 { let c = cell(rate: 1, life: 1); c.emitterCells = [top]; top = c }
        let (sim, warnings) = Diagnostics.capture { simulate(layer([top]), at: 5) }
        #expect(sim.tree.nodes.count == EmitterCellTree.maxDepth)
        #expect(warnings.contains { $0.contains("deeper than \(EmitterCellTree.maxDepth)") })
    }

    /// birthRate 1e9 and lifetime 1e9: the live-particle cap holds (bounded memory and time),
    /// with one warning naming it.
    @Test func hugeRatesAndLifetimesAreCapped() {
        let l = layer([cell(rate: 1e9, life: 1e9)])
        let (sim, warnings) = Diagnostics.capture { simulate(l, at: 1000) }
        #expect(sim.particles.count == EmitterSimulation.maxParticles && sim.capped)
        #expect(warnings.contains { $0.contains("\(EmitterSimulation.maxParticles) live particles") })
        // The youngest are the ones kept.
        #expect(sim.particles.allSatisfy { $0.birthTime > 999.99 })
        // A shared sub-cell listed many times at every level cannot explode the work either.
        let leaf = cell(rate: 1e6, life: 1e6)
        let mid = cell(rate: 1e6, life: 1e6) { $0.emitterCells = Array(repeating: leaf, count: 50) }
        let top = cell(rate: 1e6, life: 1e6) { $0.emitterCells = Array(repeating: mid, count: 50) }
        let big = simulate(layer([top]), at: 100)
        #expect(big.particles.count <= EmitterSimulation.maxParticles && big.capped)
    }

    /// Cell values that are not finite count as their defaults, with a warning naming them;
    /// nothing non-finite reaches a particle.
    @Test func nonFiniteCellValuesFallBackToDefaults() {
        let c = cell { $0.velocity = .nan; $0.scale = .infinity; $0.yAcceleration = -.infinity; $0.lifetimeRange = .nan }
        let (sim, warnings) = Diagnostics.capture { simulate(layer([c]), at: 5) }
        #expect(sim.particles.count == 20)
        #expect(sim.particles.allSatisfy { $0.position.x.isFinite && $0.position.y.isFinite && $0.scale == 1 })
        #expect(warnings.contains { $0.contains("CAEmitterCell.velocity is not finite") })
        #expect(simulate(layer([cell()]), at: .nan).particles.isEmpty)
        // Values finite but huge: the particles that overflow are dropped, nothing crashes.
        let fast = cell { $0.velocity = 1e300; $0.xAcceleration = 1e300 }
        #expect(simulate(layer([fast]), at: 1e200).particles.allSatisfy { $0.position.x.isFinite })
    }

    // MARK: Order

    @Test func renderModesOrderParticles() {
        func order(_ mode: CAEmitterLayerRenderMode) -> [Double] {
            simulate(layer([cell { $0.zAcceleration = 1; $0.emissionLatitude = 0.3; $0.velocity = 5; $0.velocityRange = 5 }]) {
                $0.renderMode = mode
            }, at: 5).ordered().map(\.birthTime)
        }
        let oldestFirst = order(.oldestFirst)
        #expect(oldestFirst == oldestFirst.sorted())
        #expect(order(.oldestLast) == oldestFirst.reversed())
        let l = layer([cell { $0.emissionLatitude = 0.5; $0.velocity = 5; $0.velocityRange = 5 }]) { $0.renderMode = .backToFront }
        let z = simulate(l, at: 5).ordered().map(\.position.z)
        #expect(z == z.sorted() && Set(z).count > 1)
    }
}

/// `emitterCells.<name>.<property>` key paths (CAEmitterLayer.h: cells are looked up by
/// `name`; CAEmitterCell's properties are "Animatable").
extension PinnedClock { @Suite struct EmitterCellKeyPathTests {
    func emitter() -> (CAEmitterLayer, CAEmitterCell, CAEmitterCell) {
        let spark = CAEmitterCell()
        spark.name = "spark"
        spark.birthRate = 10
        let trail = CAEmitterCell()
        trail.name = "trail"
        trail.velocity = 5
        spark.emitterCells = [trail]
        let l = CAEmitterLayer()
        l.emitterCells = [spark]
        return (l, spark, trail)
    }

    @Test func keyValueCodingReadsAndWritesCellsByName() {
        let (l, spark, trail) = emitter()
        #expect((l.value(forKeyPath: "emitterCells.spark.birthRate") as? CGFloat) == 10)
        #expect((l.value(forKeyPath: "emitterCells.spark.emitterCells.trail.velocity") as? CGFloat) == 5)
        l.setValue(25, forKeyPath: "emitterCells.spark.birthRate")
        #expect(spark.birthRate == 25)   // the model's cell, in place
        l.setValue(CGColor(red: 1, green: 0, blue: 0, alpha: 1), forKeyPath: "emitterCells.spark.emitterCells.trail.color")
        #expect(trail.color?.rgba.red == 1 && trail.color?.rgba.green == 0)
        #expect(l.value(forKeyPath: "emitterCells.nobody.birthRate") == nil)
    }

    /// An animation of a cell property shows in the presentation copy's cells, never in the
    /// model's (which the copy shares until it animates).
    @Test func animatingACellPropertyChangesOnlyThePresentation() throws {
        defer { CAMediaClock.unfreeze() }
        CAMediaClock.freeze(at: 0)
        let (l, spark, trail) = emitter()
        CATransaction.flush()
        let a = CABasicAnimation(keyPath: "emitterCells.spark.emitterCells.trail.velocity")
        a.fromValue = 0
        a.toValue = 100
        a.duration = 1
        l.add(a, forKey: "v")
        CATransaction.flush()
        CAMediaClock.freeze(at: 0.25)
        let p = try #require(l.presentation())
        let cells = try #require(p.emitterCells)
        let pTrail = try #require(cells.first?.emitterCells?.first)
        #expect(abs(Double(pTrail.velocity) - 25) < 1e-6)
        #expect(trail.velocity == 5 && spark.emitterCells?.first === trail)
        #expect(cells.first?.birthRate == 10)
        // The layer's birth rate of the spark animates as a number too.
        let b = CABasicAnimation(keyPath: "emitterCells.spark.birthRate")
        b.fromValue = 0
        b.toValue = 40
        b.duration = 1
        l.add(b, forKey: "b")
        CATransaction.flush()
        CAMediaClock.freeze(at: 0.75)
        let q = try #require(l.presentation()?.emitterCells?.first)
        #expect(abs(Double(q.birthRate) - 20) < 1e-6)   // added at 0.25: halfway at 0.75
        #expect(spark.birthRate == 10)
    }
}
/// Properties over time (docs/BEHAVIOUR.md Q4): births follow the animated birth rates, each
/// particle keeps the values of its birth time, and a birth rate set to 0 lets the live
/// particles finish their lives; frame t is the same whether rendered alone or after others.
@Suite struct EmitterTimelineTests {
    func make(rate: Float = 100, life: Float = 10, _ configure: (CAEmitterLayer, CAEmitterCell) -> Void = { _, _ in }) -> CAEmitterLayer {
        let l = CAEmitterLayer()
        let c = CAEmitterCell()
        c.name = "spark"
        c.birthRate = rate
        c.lifetime = life
        configure(l, c)
        l.emitterCells = [c]
        return l
    }

    /// The simulation a renderer makes at media time t (the layer is its own root: local = media).
    func simulate(_ l: CAEmitterLayer, at t: Double) -> EmitterSimulation {
        CAMediaClock.freeze(at: t)
        CATransaction.flush()
        return EmitterSimulation(model: l, current: (l.presentation() ?? l).emitter, at: t)
    }

    /// Layer `birthRate` animated from 0 to 2 over [1, 3] (explicit beginTime 1), cell rate 100:
    /// before 1 the model's 1 gives 100 births; from 1 the rate 100·(τ − 1) is sampled at the
    /// start of each 1/240 s step, so by t = 2 the count is 100 + 100·Σ_{j<240} (j/240)/240 =
    /// 100 + 49.79 = 149.79: particles n = 0…149 (150) live. Read at the frame (rate 100 for all
    /// of [0, 2]) it would be 201.
    @Test func birthsFollowAnAnimatedLayerBirthRate() {
        defer { CAMediaClock.unfreeze() }
        CAMediaClock.freeze(at: 0)
        let l = make()
        CATransaction.flush()
        let a = CABasicAnimation(keyPath: "birthRate")
        a.fromValue = 0; a.toValue = 2; a.duration = 2; a.beginTime = 1
        l.add(a, forKey: "rate")
        #expect(simulate(l, at: 0.5).particles.count == 51)   // n = 0…50, births at n / 100
        #expect(simulate(l, at: 2).particles.count == 150)
    }

    /// Frame t directly equals frame t after every earlier frame while the layer's birth rate
    /// and a cell's velocity animate (issue 21: sharded video rendering must agree).
    @Test func directEqualsSequentialWhileBirthRateAnimates() {
        defer { CAMediaClock.unfreeze() }
        func animated() -> CAEmitterLayer {
            CAMediaClock.freeze(at: 0)
            let l = make(rate: 30, life: 1.5) { l, c in
                l.emitterShape = .rectangle; l.emitterSize = CGSize(width: 40, height: 20)
                c.velocity = 10; c.velocityRange = 5; c.emissionRange = 2 * .pi; c.scaleRange = 0.3
            }
            CATransaction.flush()
            let a = CAKeyframeAnimation(keyPath: "birthRate")
            a.values = [0.2, 3, 0, 1.5]; a.duration = 2; a.beginTime = 0.3; a.repeatCount = .infinity
            l.add(a, forKey: "rate")
            let v = CABasicAnimation(keyPath: "emitterCells.spark.velocity")
            v.fromValue = 0; v.toValue = 80; v.duration = 1.7; v.beginTime = 0.1; v.autoreverses = true; v.repeatCount = .infinity
            l.add(v, forKey: "v")
            return l
        }
        let seq = animated()
        var last: EmitterSimulation?
        for f in 0...150 { last = simulate(seq, at: Double(f) / 30) }
        let direct = simulate(animated(), at: 5)
        #expect(direct.particles.count > 20)
        #expect(direct.particles == last?.particles)
        // Out of order: an earlier frame after the later one is still the same frame.
        let back = simulate(seq, at: 2.5)
        let alone = simulate(animated(), at: 2.5)
        #expect(back.particles == alone.particles)
    }

    /// Cell `velocity` animated 0 → 240 over [0, 1]: each particle keeps the velocity of the
    /// start of the 1/240 s step it was born in, v ∈ [240·(b − 1/240), 240·b], so at t = 0.9 it is
    /// x = v·(t − b) from the point emitter. Read at the frame it would be 216·(t − b) for all.
    @Test func particlesKeepTheValuesOfTheirBirthTime() {
        defer { CAMediaClock.unfreeze() }
        CAMediaClock.freeze(at: 0)
        let l = make(rate: 10, life: 5)
        CATransaction.flush()
        let a = CABasicAnimation(keyPath: "emitterCells.spark.velocity")
        a.fromValue = 0; a.toValue = 240; a.duration = 1
        l.add(a, forKey: "v")
        CATransaction.flush()   // stamps beginTime 0 (C9)
        let t = 0.9
        let sim = simulate(l, at: t)
        #expect(sim.particles.count == 10)
        for p in sim.particles {
            let b = p.birthTime
            #expect(p.position.x >= 240 * (b - 1.0 / 240) * (t - b) - 1e-6 && p.position.x <= 240 * b * (t - b) + 1e-6,
                    "born \(b): x \(p.position.x)")
        }
    }

    /// Setting the layer's `birthRate` to 0 stops births; the particles already born live out
    /// their lifetime (Apple's behaviour). Cell rate 10, lifetime 2, births at n / 10: the change
    /// is seen at t = 1, so births 0…0.9 (10) stay; at 2.5 those born after 0.5 (0.6…0.9: 4)
    /// live; at 3.5 none.
    @Test func zeroBirthRateLetsLiveParticlesFinish() {
        defer { CAMediaClock.unfreeze() }
        CAMediaClock.freeze(at: 0)
        let l = make(rate: 10, life: 2)
        CATransaction.flush()
        #expect(simulate(l, at: 1).particles.count == 11)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        l.birthRate = 0
        CATransaction.commit()
        #expect(simulate(l, at: 1).particles.count == 10)
        #expect(simulate(l, at: 1.5).particles.count == 10)
        #expect(simulate(l, at: 2.5).particles.count == 4)
        #expect(simulate(l, at: 3.5).particles.isEmpty)
    }

    /// A frame long after an endlessly repeating birth-rate animation began is computed from at
    /// most one 60 s epoch of grid steps (bounded time), and is the same whether an earlier
    /// frame of the same epoch, or of the epoch before, was rendered first.
    @Test func lateFramesOfEndlessAnimationsAreBoundedAndOrderFree() {
        defer { CAMediaClock.unfreeze() }
        func make() -> CAEmitterLayer {
            CAMediaClock.freeze(at: 0)
            let l = self.make(rate: 20, life: 2)
            CATransaction.flush()
            let a = CABasicAnimation(keyPath: "birthRate")
            a.fromValue = 0.5; a.toValue = 1.5; a.duration = 0.7; a.beginTime = 0.25
            a.autoreverses = true; a.repeatCount = .infinity
            l.add(a, forKey: "rate")
            return l
        }
        let late = simulate(make(), at: 1e6)
        // About 20 × (mean multiplier ≈ 1) × 2 s live.
        #expect(late.particles.count > 20 && late.particles.count < 80)
        let seq = make()
        _ = simulate(seq, at: 59.5)
        let across = simulate(seq, at: 61)
        #expect(across.particles == simulate(make(), at: 61).particles)
        #expect(simulate(seq, at: 1e6).particles == late.particles)
    }
}
}
