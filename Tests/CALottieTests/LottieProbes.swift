// Internal values the tests read, through functions in a file that does not import Testing
// (see Imports.swift: `@testable` does not pass through a re-export).
import Foundation
@testable import CALottie

/// An animated property decoded from its JSON, evaluated at `frame`.
func propertyValue(_ json: String, at frame: Double) -> [Double]? {
    guard let j = try? JSONDecoder().decode(LottieJSON.self, from: Data(json.utf8)) else { return nil }
    return LVector(json: j)?.value(at: frame).v
}

/// Whether the property is animated and how many keyframes it has.
func propertyKeyframeCount(_ json: String) -> Int? {
    guard let j = try? JSONDecoder().decode(LottieJSON.self, from: Data(json.utf8)) else { return nil }
    return LVector(json: j)?.keyframes.count
}

/// The eased progress of one keyframe segment at `u`.
func easedProgress(_ u: Double, out: CGPoint, in inn: CGPoint) -> Double {
    LottieEasing.progress(u, out: out, in: inn)
}

/// A transform's split position: (position present, x, y).
func splitPosition(_ json: String) -> (Bool, Double?, Double?) {
    guard let j = try? JSONDecoder().decode(LottieJSON.self, from: Data(json.utf8)) else { return (false, nil, nil) }
    let t = LottieTransformModel(json: j)
    return (t.position != nil, t.positionX?.initial.x, t.positionY?.initial.x)
}

/// LottieMergePaths' helpers (merge paths mode 2, add).
func mergeSignedArea(_ p: CGPath) -> Double { LottieMergePaths.signedArea(p) }
func mergeReversed(_ p: CGPath) -> CGPath { LottieMergePaths.reversed(p) }
func mergeOrientedPositive(_ p: CGPath) -> CGPath { LottieMergePaths.orientedPositive(p) }
