import Testing
@testable import CoreAnimation

/// CAMediaTiming on `CAEmitterCell` (docs/BEHAVIOUR.md Q7; Apple: "CAEmitterCell adopts the
/// CAMediaTiming protocol", whose `speed`, `timeOffset`, `repeatCount`, `repeatDuration` and
/// `autoreverses` map the parent's time to the cell's): the cell emits while its local time is
/// inside its active duration. Counts are derived by hand: births at window start + n / rate,
/// lifetimes long enough that every birth is still alive at the frame.
@Suite struct EmitterCellTimingTests {
    func count(at t: Double, rate: Float = 10, life: Float = 100, _ configure: (CAEmitterCell) -> Void) -> Int {
        let c = CAEmitterCell()
        c.birthRate = rate
        c.lifetime = life
        configure(c)
        let l = CAEmitterLayer()
        l.emitterCells = [c]
        return EmitterSimulation(l.emitter, at: t).particles.count
    }

    /// duration 1 repeated 3 times: births over [0, 3), 30 at rate 10; autoreverses doubles the
    /// active duration (60); an infinite repeatCount never ends (rate × t + 1 at t = 9.95 → 100).
    @Test func repeatCountAndAutoreversesLengthenTheWindow() {
        #expect(count(at: 10) { $0.duration = 1; $0.repeatCount = 3 } == 30)
        #expect(count(at: 10) { $0.duration = 1; $0.repeatCount = 3; $0.autoreverses = true } == 60)
        #expect(count(at: 9.95) { $0.duration = 1; $0.repeatCount = .infinity } == 100)
        // A fractional repeatCount plays part of the duration (CAMediaTiming: "may be fractional").
        #expect(count(at: 10) { $0.duration = 2; $0.repeatCount = 0.5 } == 10)
    }

    /// repeatDuration, when set, is the active duration (CAMediaTiming).
    @Test func repeatDurationIsTheActiveDuration() {
        #expect(count(at: 10) { $0.duration = 1; $0.repeatDuration = 2.5 } == 25)
    }

    /// speed 2: twice the births per second of parent time over half the window (duration 2 →
    /// [0, 1) at 20 a second: 20); speed 0: the cell's time stands still, nothing is emitted;
    /// without a duration, speed only scales the rate (rate 10 × 0.5 over [0, 4]: 21).
    @Test func speedScalesRateAndWindow() {
        #expect(count(at: 10) { $0.duration = 2; $0.speed = 2 } == 20)
        #expect(count(at: 10) { $0.speed = 0 } == 0)
        #expect(count(at: 4) { $0.speed = 0.5 } == 21)
    }

    /// timeOffset 0.5 starts the cell half a second into its 2 s duration: births over [0, 1.5).
    @Test func timeOffsetStartsTheCellIntoItsDuration() {
        #expect(count(at: 10) { $0.duration = 2; $0.timeOffset = 0.5 } == 15)
        #expect(count(at: 10) { $0.duration = 2; $0.timeOffset = 5 } == 0)
    }

    /// Non-finite timing values fall back to their defaults (one warning each), never a hang.
    @Test func nonFiniteTimingFallsBack() {
        #expect(count(at: 10) { $0.duration = 1; $0.speed = .nan } == 10)
        #expect(count(at: 10) { $0.duration = 1; $0.timeOffset = .infinity } == 10)
    }

    /// Fireworks (the well-known recipe): a rocket that lives 2 s has a sub-cell with beginTime
    /// 1.5 and duration 0.1 at 100 a second — each rocket bursts 10 sparks at ages [1.5, 1.6).
    /// One rocket a second: rockets born at 0, 1, 2, 3; the ones born at
    /// 0, 1 and 2 have burst (30 sparks, lifetime 10), the one born at 3 has not reached 1.5 by
    /// t = 3.7.
    @Test func subCellTimingIsMeasuredFromTheParentsBirth() {
        let spark = CAEmitterCell()
        spark.birthRate = 100
        spark.lifetime = 10
        spark.beginTime = 1.5
        spark.duration = 0.1
        let rocket = CAEmitterCell()
        rocket.birthRate = 1
        rocket.lifetime = 2
        rocket.emitterCells = [spark]
        let l = CAEmitterLayer()
        l.emitterCells = [rocket]
        let ps = EmitterSimulation(l.emitter, at: 3.7).particles
        let sparks = ps.filter { $0.node == 1 }
        #expect(sparks.count == 30)
        for s in sparks {
            let age = (s.birthTime - 1.5).truncatingRemainder(dividingBy: 1)
            #expect(age >= -1e-9 && age < 0.1 + 1e-9, "spark born at \(s.birthTime)")
        }
    }
}

/// A top-level cell's timing is measured from the layer's local time 0, not from the last
/// committed change: a cell with beginTime 1 keeps emitting across a change of the layer's
/// birth rate at t = 5, and under an animated layer birth rate its window still applies.
@Suite struct EmitterCellTimingAcrossCommitsTests {
    func make(_ configure: (CAEmitterCell) -> Void) -> CAEmitterLayer {
        let l = CAEmitterLayer()
        let c = CAEmitterCell()
        c.name = "spark"
        c.birthRate = 10
        c.lifetime = 100
        configure(c)
        l.emitterCells = [c]
        return l
    }

    func simulate(_ l: CAEmitterLayer, at t: Double) -> EmitterSimulation {
        CAMediaClock.freeze(at: t)
        CATransaction.flush()
        return EmitterSimulation(model: l, current: (l.presentation() ?? l).emitter, at: t)
    }

    /// Rate 10 from beginTime 1: 41 births by t = 5 (1, 1.1, …, 5). The layer's birthRate set to
    /// 2 and first rendered at t = 5 starts a new era at 5 whose births begin at once, not a
    /// second later: at 20 a second, 5.05 … 5.5 are the 10 births after 5 by t = 5.5.
    @Test func aCommittedChangeDoesNotRestartTheCellsDelay() {
        defer { CAMediaClock.unfreeze() }
        CAMediaClock.freeze(at: 0)
        let l = make { $0.beginTime = 1 }
        CATransaction.flush()
        #expect(simulate(l, at: 5).particles.count == 41)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        l.birthRate = 2
        CATransaction.commit()
        _ = simulate(l, at: 5)   // the renderer sees the change at 5
        let after = simulate(l, at: 5.5).particles.filter { $0.birthTime > 5 }
        #expect(!after.isEmpty, "the cell keeps emitting right after the change")
        #expect(after.allSatisfy { $0.birthTime > 5 && $0.birthTime <= 5.5 })
        #expect(after.count == 10)   // 5.05 … 5.5 at 20 a second
    }

    /// beginTime 1, duration 1 under an animated layer birth rate (0.5 → 1.5 over [0, 4]): no
    /// birth before 1 or from 2 on.
    @Test func theWindowHoldsUnderAnimatedBirthRates() {
        defer { CAMediaClock.unfreeze() }
        CAMediaClock.freeze(at: 0)
        let l = make { $0.beginTime = 1; $0.duration = 1 }
        CATransaction.flush()
        let a = CABasicAnimation(keyPath: "birthRate")
        a.fromValue = 0.5; a.toValue = 1.5; a.duration = 4
        l.add(a, forKey: "rate")
        CATransaction.flush()
        let ps = simulate(l, at: 3).particles
        #expect(!ps.isEmpty)
        #expect(ps.allSatisfy { $0.birthTime >= 1 && $0.birthTime < 2 }, "\(ps.map(\.birthTime))")
    }
}

/// A large cell without sub-cells is simulated on all cores (`EmitterSimulation+Parallel`):
/// the particles must be the serial loop's, in the same order. The serial loop is what the same
/// cell takes when it has a sub-cell (here one that never emits, so it adds no particle).
@Suite struct EmitterParallelSimulationTests {
    func layer(subCell: Bool) -> CAEmitterLayer {
        let c = CAEmitterCell()
        c.birthRate = 25_000
        c.lifetime = 2
        c.lifetimeRange = 0.5
        c.velocity = 40
        c.velocityRange = 20
        c.emissionRange = 2 * .pi
        c.scaleRange = 0.3
        c.spinRange = 2
        c.alphaSpeed = -0.3
        if subCell {
            let quiet = CAEmitterCell()
            quiet.birthRate = 0
            quiet.lifetime = 1
            c.emitterCells = [quiet]
        }
        let l = CAEmitterLayer()
        l.emitterShape = .rectangle
        l.emitterSize = CGSize(width: 300, height: 100)
        l.emitterCells = [c]
        return l
    }

    @Test func parallelBirthsEqualTheSerialLoop() {
        let t = 3.25
        let parallel = EmitterSimulation(layer(subCell: false).emitter, at: t).particles
        let serial = EmitterSimulation(layer(subCell: true).emitter, at: t).particles
        #expect(parallel.count > EmitterSimulation.parallelBirths)
        #expect(parallel.count == serial.count)
        #expect(parallel == serial)
    }
}
