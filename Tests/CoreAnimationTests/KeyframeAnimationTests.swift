import Testing
@testable import CoreAnimation

extension PinnedClock { @Suite struct FKeyframeAnimationTests {
    func keyframes(_ values: [Double], duration: Double, mode: CAAnimationCalculationMode = .linear,
                   keyTimes: [Double]? = nil) -> CAKeyframeAnimation {
        let k = CAKeyframeAnimation(keyPath: "zPosition")
        k.values = values; k.duration = duration; k.calculationMode = mode
        k.keyTimes = keyTimes.map { $0.map { NSNumber(value: $0) } }
        k.fillMode = .forwards; k.isRemovedOnCompletion = false
        return k
    }

    func zs(_ k: CAKeyframeAnimation, _ ts: [Double]) -> [Double] {
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        TT.run(k, on: l)
        return ts.map { TT.z(l, at: $0) }
    }

    func all(_ a: [Double], _ b: [Double], _ tol: Double = 1e-6) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { TT.near($0, $1, tol) }
    }

    @Test("F1: default calculationMode is linear; a path replaces values for a point property")
    func f1PathReplacesValues() {
        defer { CAMediaClock.unfreeze() }
        #expect(CAKeyframeAnimation().calculationMode == .linear)
        let l = TT.layer(at: 0)
        let k = CAKeyframeAnimation(keyPath: "position")
        k.values = [CGPoint(x: 500, y: 500), CGPoint(x: 600, y: 600)]
        let p = CGMutablePath(); p.move(to: .zero); p.addLine(to: CGPoint(x: 100, y: 0))
        k.path = p; k.duration = 1
        TT.run(k, on: l)
        CAMediaClock.freeze(at: 0.5)
        #expect(l.presentation()!.position == CGPoint(x: 50, y: 0))
    }

    @Test("F2: discrete doc example — keyTimes [0,.25,.5,.75,1], values [310,60,120,60]")
    func f2DiscreteDocExample() {
        defer { CAMediaClock.unfreeze() }
        let k = keyframes([310, 60, 120, 60], duration: 4, mode: .discrete, keyTimes: [0, 0.25, 0.5, 0.75, 1])
        #expect(all(zs(k, [0, 0.5, 0.99, 1, 1.5, 2, 2.5, 3, 3.5, 3.99, 4, 10]),
                    [310, 310, 310, 60, 60, 120, 120, 60, 60, 60, 60, 60]))
    }

    @Test("F2: invalid keyTimes (count, decreasing, out of range) are ignored with a warning; a late start or early end is honoured (18.5)")
    func f2InvalidKeyTimes() {
        defer { CAMediaClock.unfreeze() }
        for kt in [[0, 1], [0, 0.8, 0.2, 1][0..<3].map { $0 }, [0, 1.5, 1], [-0.1, 0.5, 1]] {
            let k = keyframes([0, 1, 0], duration: 4, keyTimes: kt)
            #expect(all(zs(k, [1, 2, 3]), [0.5, 1, 0.5]), "\(kt)")
        }
        #expect(TT.warned("keyTimes"))
        // As iOS renders them: the first value holds until the first key time, the last is
        // reached at the last key time and held.
        #expect(all(zs(keyframes([0, 1, 0], duration: 4, keyTimes: [0.1, 0.5, 1]), [0.2, 1.2, 2, 3]), [0, 0.5, 1, 0.5]))
        #expect(all(zs(keyframes([0, 1, 0], duration: 4, keyTimes: [0, 0.5, 0.9]), [1, 2, 2.8, 3.6, 3.9]), [0.5, 1, 0.5, 0, 0]))
    }

    @Test("F3: missing keyTimes space values evenly; discrete without keyTimes uses i/(n−1) (code's choice, O6)")
    func f3EvenSpacing() {
        defer { CAMediaClock.unfreeze() }
        #expect(all(zs(keyframes([0, 10, 30], duration: 2), [0.5, 1, 1.5]), [5, 10, 20]))
        #expect(all(zs(keyframes([0, 1, 2], duration: 2, mode: .discrete), [0.5, 0.99, 1, 1.9, 2]), [0, 0, 1, 1, 2]))
    }

    @Test("F4: linear [0,1,0] over 4 s → 0.5, 1, 0.5, 0; keyTimes [0,.75,1] → 0.5, 1, 0.5")
    func f4Linear() {
        defer { CAMediaClock.unfreeze() }
        #expect(all(zs(keyframes([0, 1, 0], duration: 4), [1, 2, 3, 4]), [0.5, 1, 0.5, 0]))
        #expect(all(zs(keyframes([0, 1, 0], duration: 4, keyTimes: [0, 0.75, 1]), [1.5, 3, 3.5]), [0.5, 1, 0.5]))
    }

    @Test("F4: per-segment timing functions apply inside each segment")
    func f4SegmentTimingFunctions() {
        defer { CAMediaClock.unfreeze() }
        let k = keyframes([0, 1, 2], duration: 2)
        k.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .linear)]
        #expect(all(zs(k, [0.5, 1.5]), [0.315357, 1.5]))
    }

    @Test("F5: paced [0,10,110] → 5.5, 11, 27.5, 55, 110 (linear: 1, 2, 5, 10, 110); keyTimes ignored")
    func f5Paced() {
        defer { CAMediaClock.unfreeze() }
        let ts = [0.1, 0.2, 0.5, 1, 2]
        #expect(all(zs(keyframes([0, 10, 110], duration: 2), ts), [1, 2, 5, 10, 110]))
        #expect(all(zs(keyframes([0, 10, 110], duration: 2, mode: .paced), ts), [5.5, 11, 27.5, 55, 110]))
        let withKT = keyframes([0, 10, 110], duration: 2, mode: .paced, keyTimes: [0, 0.9, 1])
        withKT.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeIn)]
        #expect(all(zs(withKT, ts), [5.5, 11, 27.5, 55, 110]))
    }

    @Test("F6: cubic [0,1,0] with reflected endpoints → 0.232, 0.625, 1.0, 0.625; overshoot −0.625")
    func f6Cubic() {
        defer { CAMediaClock.unfreeze() }
        #expect(all(zs(keyframes([0, 1, 0], duration: 1, mode: .cubic), [0.1, 0.25, 0.5, 0.75]), [0.232, 0.625, 1.0, 0.625]))
        #expect(all(zs(keyframes([0, 10, 110], duration: 1, mode: .cubic), [0.25]), [-0.625]))
        let tight = keyframes([0, 1, 0], duration: 1, mode: .cubic)
        tight.tensionValues = [1, 1, 1]       // T = 1: zero tangents → smoothstep
        #expect(all(zs(tight, [0.25]), [0.5]))
    }

    @Test("F7: path keyframes — segment end points are keyframes; keyTimes apply to them; close is a line back")
    func f7Path() {
        defer { CAMediaClock.unfreeze() }
        func run(_ path: CGPath, keyTimes: [Double]? = nil, _ ts: [Double]) -> [CGPoint] {
            let l = TT.layer(at: 0)
            let k = CAKeyframeAnimation(keyPath: "position")
            k.path = path; k.duration = 1; k.fillMode = .forwards; k.isRemovedOnCompletion = false
            k.keyTimes = keyTimes.map { $0.map { NSNumber(value: $0) } }
            TT.run(k, on: l)
            return ts.map { CAMediaClock.freeze(at: $0); return l.presentation()!.position }
        }
        let p = CGMutablePath()
        p.move(to: .zero); p.addLine(to: CGPoint(x: 100, y: 0)); p.addLine(to: CGPoint(x: 100, y: 100))
        #expect(run(p, [0.25, 0.75, 1]) == [CGPoint(x: 50, y: 0), CGPoint(x: 100, y: 50), CGPoint(x: 100, y: 100)])
        #expect(run(p, keyTimes: [0, 0.8, 1], [0.4, 0.9]) == [CGPoint(x: 50, y: 0), CGPoint(x: 100, y: 50)])
        let closed = CGMutablePath()
        closed.move(to: .zero); closed.addLine(to: CGPoint(x: 100, y: 0)); closed.addLine(to: CGPoint(x: 100, y: 100))
        closed.closeSubpath()
        let c = run(closed, [5.0 / 6, 1])
        #expect(TT.near(c[0].x, 50) && TT.near(c[0].y, 50) && TT.near(c[1].x, 0) && TT.near(c[1].y, 0))
        let q = CGMutablePath()
        q.move(to: .zero); q.addQuadCurve(to: CGPoint(x: 100, y: 0), control: CGPoint(x: 50, y: 100))
        let qp = run(q, [0.5])
        #expect(TT.near(qp[0].x, 50) && TT.near(qp[0].y, 50))
    }

    @Test("F8: rotationMode auto turns the layer to the tangent; autoReverse adds 180°; nil rotates nothing")
    func f8RotationMode() {
        defer { CAMediaClock.unfreeze() }
        func transform(_ mode: CAAnimationRotationMode?) -> CATransform3D {
            let l = TT.layer(at: 0)
            let k = CAKeyframeAnimation(keyPath: "position")
            let p = CGMutablePath(); p.move(to: .zero); p.addLine(to: CGPoint(x: 100, y: 100))
            k.path = p; k.duration = 1; k.rotationMode = mode
            TT.run(k, on: l)
            CAMediaClock.freeze(at: 0.5)
            return l.presentation()!.transform
        }
        let h = 0.5.squareRoot()
        let a = transform(.rotateAuto)
        #expect(TT.near(a.m11, h) && TT.near(a.m12, h) && TT.near(a.m21, -h))
        let r = transform(.rotateAutoReverse)
        #expect(TT.near(r.m11, -h) && TT.near(r.m12, -h))
        #expect(transform(nil) == CATransform3DIdentity)
    }

    @Test("C6: a 5-step 5-s looping animation with timeOffset 2 plays steps 3,4,5,1,2")
    func c6TimeOffsetWraps() {
        defer { CAMediaClock.unfreeze() }
        let k = keyframes([1, 2, 3, 4, 5], duration: 5, mode: .discrete, keyTimes: [0, 0.2, 0.4, 0.6, 0.8, 1])
        k.repeatCount = .infinity; k.timeOffset = 2
        #expect(all(zs(k, [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5]), [3, 4, 5, 1, 2, 3, 4]))
    }

    @Test("C6: non-repeating with timeOffset 2 → basic 2,3,4,4.99,0,1.9; over at a ≥ 5")
    func c6NonRepeating() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        let a = TT.clockAnim(5); a.timeOffset = 2
        TT.run(a, on: l)
        #expect(all([0, 1, 2, 2.99, 3, 4.9].map { TT.z(l, at: $0) }, [2, 3, 4, 4.99, 0, 1.9], 1e-9))
        #expect(TT.z(l, at: 5) == -1)
    }
}
}
