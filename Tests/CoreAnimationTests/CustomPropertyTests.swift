import Testing
@testable import CoreAnimation

/// The Swift counterpart of Apple's `@NSManaged var time` clock layer: an animatable custom
/// property, redisplayed on every frame through `needsDisplay(forKey:)`.
final class DisplayClockLayer: CALayer {
    @LayerProperty(key: "time") var time: CGFloat = 0
    nonisolated(unsafe) static var displayedTimes: [CGFloat] = []

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "time" || super.needsDisplay(forKey: key)
    }

    override func display() {
        // Called on the presentation copy, which carries the animated value.
        DisplayClockLayer.displayedTimes.append(time)
    }
}

extension PinnedClock {
    @Suite struct CustomPropertyTests {
        @Test("Custom @LayerProperty animates, is read from the presentation, and drives display() each frame")
        func clockLayer() throws {
            CAMediaClock.freeze(at: 50)
            defer { CAMediaClock.unfreeze() }
            DisplayClockLayer.displayedTimes = []
            let clock = DisplayClockLayer()
            #expect(clock.time == 0)
            clock.time = 2
            #expect(clock.value(forKey: "time") as? CGFloat == 2)
            CATransaction.flush()
            let a = CABasicAnimation(keyPath: "time")
            a.fromValue = 0; a.toValue = 10; a.duration = 1
            clock.add(a, forKey: "tick")
            CATransaction.flush()
            CAMediaClock.advance(by: 0.25)
            let p = try #require(clock.presentation())
            #expect(p !== clock && p.model() === clock)
            #expect(abs(p.time - 2.5) < 1e-9)
            #expect(clock.time == 2, "the model keeps its own value")
            CAMediaClock.advance(by: 0.25)
            // The model once, at the commit after `time = 2` (P1), then the presentation copy at
            // each frame step while `time` animates.
            #expect(DisplayClockLayer.displayedTimes.count == 3)
            #expect(DisplayClockLayer.displayedTimes.map { Double($0) }.elementsEqual([2, 2.5, 5.0]) { abs($0 - $1) < 1e-9 })
            #expect(type(of: clock).needsDisplay(forKey: "time") && !CALayer.needsDisplay(forKey: "time"))
        }
    }
}

@Suite struct ImplicitTransactionRunLoopTests {
    @Test("K3: a change made during a run-loop turn is committed at the end of that turn, with no flush")
    func committedAtEndOfTurn() {
        let layer = CALayer()
        CATransaction.flush()
        #expect(layer.presentation()?.opacity == 1)
        nonisolated(unsafe) let target = layer  // the block runs on this thread's run loop
        RunLoop.current.perform { target.opacity = 0.25 }
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.05))
        #expect(TransactionStack.current.topIfOpen == nil, "the implicit transaction was committed")
        #expect(layer.committedCopy?.opacity == 0.25)
    }
}

@Suite struct PresentationLifetimeTests {
    @Test("L2: a presentation kept past later commits and past its model's lifetime never dangles")
    func keptPresentation() {
        var model: CALayer? = CALayer()
        CATransaction.flush()
        let early = model!.presentation()!
        #expect(early.model() === model!)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        model!.opacity = 0.5
        CATransaction.commit()
        let late = model!.presentation()!
        #expect(late.model() === model! && late.opacity == 0.5)
        #expect(early.model() === early, "an outdated copy answers itself")
        model = nil
        #expect(late.model() === late)
        #expect(late.superlayer == nil && late.sublayers == nil)
    }
}
