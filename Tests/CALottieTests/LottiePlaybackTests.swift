import Testing
import Foundation
import CATestSupport

/// `LottieAnimationLayer` playback as lottie-ios plays (its `play(fromProgress:toProgress:
/// loopMode:completion:)`, `LottieLoopMode`, `pause()`, `animationSpeed`): loop modes are
/// CAMediaTiming on the tree's animations, so they are checked by sampling the presentation at
/// pinned media times. The file moves a layer's x from 0 at frame 0 to 100 at frame 100,
/// linearly, at 10 fps: x = the frame shown, and one second is ten frames.
@Suite(.serialized, .clockExclusive) struct LottiePlaybackTests {
    static let moving = #"{"p":{"a":1,"k":[{"t":0,"s":[0,50],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":100,"s":[100,50]}]}}"#
    static let square = #"{"ty":"rc","p":{"k":[0,0]},"s":{"k":[10,10]},"r":{"k":0}},{"ty":"fl","c":{"k":[1,0,0,1]},"o":{"k":100}}"#

    /// A playing layer at media time 1000 and the tree layer whose `position` the file animates.
    static func make(precompStart: Double? = nil) throws -> (LottieAnimationLayer, CALayer) {
        let data: Data
        if let st = precompStart {
            // The moving layer inside a precomposition whose start time is `st`: comp frame f
            // shows the inner frame f − st.
            let inner = shapeLayer(ks: moving, shapes: square)
            let pre = #"{"ty":0,"ind":1,"refId":"pc","w":100,"h":100,"ip":0,"op":100,"st":\#(st),"ks":{}}"#
            data = lottie(fr: 10, layers: pre, assets: #"{"id":"pc","layers":[\#(inner)]}"#)
        } else {
            data = lottie(fr: 10, layers: shapeLayer(ks: moving, shapes: square))
        }
        CAMediaClock.freeze(at: 1000)
        let l = LottieAnimationLayer(animation: try LottieAnimation(data: data))
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        var stack: [CALayer] = [l]
        var mover: CALayer?
        while let x = stack.popLast() {
            if x.animationKeys()?.contains("position") == true { mover = x }
            stack += x.sublayers ?? []
        }
        CATransaction.flush()
        return (l, try #require(mover))
    }

    /// x shown `t` seconds after media time 1000.
    static func x(_ mover: CALayer, at t: Double) -> Double {
        CAMediaClock.freeze(at: 1000 + t)
        return Double(mover.presentation()?.position.x ?? .nan)
    }

    static func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }

    @Test func playOnceStopsAtToProgress() throws {
        // From 0.2 to 0.5: frame 20 + 10·t until t = 3, then held at 50.
        let (l, m) = try Self.make()
        defer { CAMediaClock.unfreeze() }
        l.play(fromProgress: 0.2, toProgress: 0.5, loopMode: .playOnce)
        #expect(Self.near(Self.x(m, at: 1), 30))
        #expect(Self.near(Double(l.currentFrame), 30))
        #expect(l.isAnimationPlaying)
        #expect(Self.near(Self.x(m, at: 5), 50))
        #expect(Self.near(Double(l.currentFrame), 50))
        #expect(!l.isAnimationPlaying)
    }

    @Test func loopStartsOverAtFromProgress() throws {
        // 0.4 → 0.6 is a 2-s cycle: at 3 s, 1 s into the second cycle → frame 50.
        let (l, m) = try Self.make()
        defer { CAMediaClock.unfreeze() }
        l.play(fromProgress: 0.4, toProgress: 0.6, loopMode: .loop)
        #expect(Self.near(Self.x(m, at: 0.5), 45))
        #expect(Self.near(Self.x(m, at: 3), 50))
        #expect(Self.near(Self.x(m, at: 101.5), 55))
        #expect(l.isAnimationPlaying)
    }

    @Test func autoReverseComesBack() throws {
        // 0.4 → 0.6 forwards in 2 s, then back: at 3 s → frame 50, at 3.5 s → 45, at 4.5 → 45.
        let (l, m) = try Self.make()
        defer { CAMediaClock.unfreeze() }
        l.play(fromProgress: 0.4, toProgress: 0.6, loopMode: .autoReverse)
        #expect(Self.near(Self.x(m, at: 1.5), 55))
        #expect(Self.near(Self.x(m, at: 3.5), 45))
        #expect(Self.near(Self.x(m, at: 4.5), 45))
        #expect(Self.near(Self.x(m, at: 6), 60))
    }

    @Test func repeatCountsCyclesThenHolds() throws {
        // .repeat(2) of 0 → 0.2 (2 s a cycle): 1 s → 10, 3 s → 10 again, after 4 s held at 20.
        let (l, m) = try Self.make()
        defer { CAMediaClock.unfreeze() }
        var finished: [Bool] = []
        l.play(fromProgress: 0, toProgress: 0.2, loopMode: .repeat(2)) { finished.append($0) }
        #expect(Self.near(Self.x(m, at: 1), 10))
        #expect(Self.near(Self.x(m, at: 3), 10))
        #expect(finished.isEmpty)
        #expect(Self.near(Self.x(m, at: 10), 20))
        #expect(finished == [true])
        #expect(!l.isAnimationPlaying)
    }

    @Test func repeatBackwardsPlaysThereAndBack() throws {
        // .repeatBackwards(1) of 0 → 0.2: forwards 2 s, backwards 2 s, then held at the start
        // (CAMediaTiming: an autoreversed animation ends where it began, docs/BEHAVIOUR.md C7).
        let (l, m) = try Self.make()
        defer { CAMediaClock.unfreeze() }
        l.play(fromProgress: 0, toProgress: 0.2, loopMode: .repeatBackwards(1))
        #expect(Self.near(Self.x(m, at: 1), 10))
        #expect(Self.near(Self.x(m, at: 3), 10))
        #expect(Self.near(Self.x(m, at: 2.5), 15))
        #expect(Self.near(Self.x(m, at: 10), 0))
    }

    @Test func toProgressBelowFromPlaysBackwards() throws {
        // 0.8 → 0.5: frame 80 − 10·t, held at 50 from 3 s.
        let (l, m) = try Self.make()
        defer { CAMediaClock.unfreeze() }
        l.play(fromProgress: 0.8, toProgress: 0.5, loopMode: .playOnce)
        #expect(Self.near(Self.x(m, at: 1), 70))
        #expect(Self.near(Double(l.currentFrame), 70))
        #expect(Self.near(Self.x(m, at: 4), 50))
    }

    @Test func animationSpeedScalesTime() throws {
        // Speed 2 over the whole range (the unwrapped case): 20 frames a second.
        let (l, m) = try Self.make()
        defer { CAMediaClock.unfreeze() }
        l.animationSpeed = 2
        l.play(fromProgress: 0, toProgress: 1, loopMode: .playOnce)
        #expect(Self.near(Self.x(m, at: 1), 20))
        // Speed 2 on a loop: 0 → 0.3 takes 1.5 s; at 2 s, 0.5 s into the second cycle → 10.
        l.play(fromProgress: 0, toProgress: 0.3, loopMode: .loop)
        #expect(Self.near(Self.x(m, at: 3), 10))
    }

    @Test func pauseHoldsTheFrameAndReportsInterruption() throws {
        let (l, m) = try Self.make()
        defer { CAMediaClock.unfreeze() }
        var finished: [Bool] = []
        l.play(fromProgress: 0, toProgress: 0.5, loopMode: .loop) { finished.append($0) }
        _ = Self.x(m, at: 2.5)
        l.pause()
        #expect(finished == [false])
        #expect(Self.near(Double(l.currentFrame), 25))
        #expect(Self.near(Self.x(m, at: 9), 25))
        #expect(!l.isAnimationPlaying)
        // Setting the frame while paused shows it.
        l.currentFrame = 70
        #expect(Self.near(Self.x(m, at: 10), 70))
    }

    @Test func precompositionTimeLoops() throws {
        // Inside a precomp with st = 20, comp frame f shows x = f − 20. Loop 0.4 → 0.6 (frames
        // 40…60): at 3 s comp frame 50 → x = 30.
        let (l, m) = try Self.make(precompStart: 20)
        defer { CAMediaClock.unfreeze() }
        l.play(fromProgress: 0.4, toProgress: 0.6, loopMode: .loop)
        #expect(Self.near(Self.x(m, at: 1), 30))
        #expect(Self.near(Self.x(m, at: 3), 30))
        #expect(Self.near(Self.x(m, at: 3.5), 35))
    }

    @Test func playOnceToTheEndCompletes() throws {
        let (l, m) = try Self.make()
        defer { CAMediaClock.unfreeze() }
        var finished: [Bool] = []
        l.play { finished.append($0) }
        #expect(Self.near(Self.x(m, at: 4), 40))
        #expect(finished.isEmpty)
        _ = Self.x(m, at: 11)
        #expect(finished == [true])
        #expect(Self.near(Double(l.currentFrame), 100))
    }
}
