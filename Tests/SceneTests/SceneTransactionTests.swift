import Testing
import Foundation

/// Scheduled transactions: changes committed at their own time inside a CATransaction, so the
/// implicit animation they imply (docs/BEHAVIOUR.md J4) begins then, with the transaction's duration.
@Suite struct SceneTransactionTests {
    static let json = doc(root: ##"{"sublayers": [{"name": "box", "frame": [0, 0, 10, 10], "opacity": 1, "backgroundColor": "#ff0000"}]}"##, extra: #"""
    "transactions": [
      {"time": 1, "animationDuration": 2, "animationTimingFunction": "linear", "changes": [{"layer": "box", "set": {"opacity": 0}}]},
      {"time": 0.5, "disableActions": true, "changes": [{"layer": "box", "set": {"position": [50, 50]}}]}
    ]
    """#)

    func presentationOpacity(_ l: CALayer, at t: CFTimeInterval) -> Float? {
        CAMediaClock.withFrameTime(t) { l.presentation()?.opacity }
    }

    @Test func implicitAnimationBeginsAtTheTransactionTime() throws {
        let s = try loadScene(Self.json)
        let box = try #require(s.rootLayer.sublayers?.first)
        #expect(s.transactions.map(\.time) == [0.5, 1])  // sorted
        s.applyScheduledChanges(upTo: 0.9)
        #expect(box.position == CGPoint(x: 50, y: 50))
        #expect(box.animationKeys() == nil, "disableActions: the move does not animate")
        #expect(box.opacity == 1)
        s.applyScheduledChanges(upTo: 1.0)
        #expect(box.opacity == 0)
        let anim = try #require(box.animation(forKey: "opacity") as? CABasicAnimation)
        #expect(anim.beginTime == 1 && anim.duration == 2)
        // Linear over 2 s from 1 to 0: half way at t = 2.
        #expect(abs((presentationOpacity(box, at: 2) ?? -1) - 0.5) < 1e-6)
        #expect(abs((presentationOpacity(box, at: 1.5) ?? -1) - 0.75) < 1e-6)
    }

    /// A renderer that starts mid-range (a shard) still sees each change at its own time.
    @Test func aShardStartingLateGetsEarlierChangesAtTheirOwnTimes() throws {
        let s = try loadScene(Self.json)
        let box = try #require(s.rootLayer.sublayers?.first)
        s.applyScheduledChanges(upTo: 2.5)
        let anim = try #require(box.animation(forKey: "opacity"))
        #expect(anim.beginTime == 1)
        #expect(abs((presentationOpacity(box, at: 2.5) ?? -1) - 0.25) < 1e-6)
    }

    /// Rendered: the red box fades over white as the transaction says.
    @Test func renderedFadeFollowsTheTransaction() throws {
        let s = try loadScene(Self.json.replacingOccurrences(of: "[50, 50]", with: "[5, 5]"))
        let frames = try renderFrames(s, times: [0.9, 2, 3.5])
        // Opacity 1, 0.5, 0 of red over the (transparent) clear colour.
        #expect(pixel(frames[0], 5, 5) == [255, 0, 0, 255])
        let mid = pixel(frames[1], 5, 5)
        #expect(abs(mid[0] - 128) <= 1 && abs(mid[3] - 128) <= 1, "\(mid)")
        #expect(pixel(frames[2], 5, 5)[3] == 0)
    }

    @Test func sublayersAndAnimationsChangeOnSchedule() throws {
        let json = doc(root: ##"{"name": "root", "sublayers": [{"name": "old", "animations": [{"key": "spin", "class": "CABasicAnimation", "keyPath": "transform.rotation.z", "toValue": 1, "duration": 10}]}]}"##, extra: ##"""
        "transactions": [{"time": 0.25, "disableActions": true, "changes": [
          {"layer": "old", "removeAnimation": "spin"},
          {"layer": "old", "removeFromSuperlayer": true},
          {"layer": "root", "addSublayer": {"name": "new", "backgroundColor": "#00ff00"}},
          {"layer": "new", "addAnimation": {"key": "fade", "class": "CABasicAnimation", "keyPath": "opacity", "fromValue": 0, "duration": 1}}
        ]}]
        """##)
        let s = try loadScene(json)
        let old = try #require(s.rootLayer.sublayers?.first)
        #expect(old.animation(forKey: "spin") != nil)
        s.applyScheduledChanges(upTo: 0.3)
        #expect(old.animation(forKey: "spin") == nil && old.superlayer == nil)
        #expect(s.rootLayer.sublayers?.map(\.name) == ["new"])
        #expect(s.rootLayer.sublayers?.first?.animation(forKey: "fade")?.beginTime == 0.25)
    }
}
