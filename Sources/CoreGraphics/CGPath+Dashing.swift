// `copy(dashingWithPhase:lengths:transform:)`: the dashes of a dashed stroke as open
// subpaths (CGPathCreateCopyByDashingPath), keeping curves as curves.

extension CGPath {
    /// Returns the dashes this path would be stroked with: one open subpath per painted
    /// interval of the pattern, each starting with a move. Lines are cut into lines, and
    /// quadratic / cubic curves into sub-curves of the same degree (cut by arc length,
    /// measured on a fine polyline: error below 1/10 000 of the curve's length).
    ///
    /// Pattern semantics (Apple: `lengths` are "the lengths … of the painted and unpainted
    /// segments of the dash pattern"; `phase` "how far into the dash pattern the line
    /// starts"), following the PDF model Core Graphics implements:
    /// - entries alternate painted / unpainted, starting painted; an odd count is used twice
    ///   over (so `[a]` means a painted, a unpainted);
    /// - the pattern restarts, at `phase`, at the beginning of every subpath; a negative or
    ///   large phase is reduced modulo the pattern length;
    /// - a zero-length painted entry yields a zero-length dash (a move and a line to the same
    ///   point) so that round or square caps still draw a dot there;
    /// - a dash running over a corner stays one subpath (the corner keeps its join);
    /// - a closed subpath that the pattern paints entirely is returned closed.
    ///
    /// Degenerate patterns return the path undashed (a copy, `transform` applied), as a
    /// solid stroke is what Core Graphics draws for them: an empty `lengths`, any negative
    /// or non-finite length, or lengths summing to 0. A non-finite `phase` counts as 0.
    /// Also, to stay bounded, a pattern that would produce more than 1 000 000 dashes returns
    /// the path undashed (a deviation; Apple would try to build them all).
    ///
    /// `transform` is applied to the result (Apple: "applies the transformation to elements of
    /// the converted path before adding them to the new path").
    public func copy(dashingWithPhase phase: CGFloat, lengths: [CGFloat],
                     transform: CGAffineTransform = .identity) -> CGPath {
        let undashed = { () -> CGPath in
            CGPath(elements: transform.isIdentity ? self.elements : self.elements.transformed(by: transform))
        }
        guard !lengths.isEmpty, lengths.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return undashed() }
        let pattern = lengths.count % 2 == 1 ? lengths + lengths : lengths
        let total = pattern.reduce(0, +)
        guard total > 0, total.isFinite else { return undashed() }
        var start = phase.isFinite ? phase.truncatingRemainder(dividingBy: total) : 0
        if start < 0 { start += total }

        // Refuse runaway patterns before building anything: estimated dash count from the
        // flattened length (pattern repetitions × painted entries per repetition).
        let painted = CGFloat(pattern.count / 2)
        var length: CGFloat = 0
        for s in flattenedSubpaths(tolerance: max(boundingBox.width, boundingBox.height) * 1e-3) {
            var prev = s.points[0]
            for p in s.points.dropFirst() { length += prev.distance(to: p); prev = p }
            if s.isClosed { length += prev.distance(to: s.points[0]) }
        }
        guard length / total * painted <= CGFloat(Dasher.maxDashes) else { return undashed() }

        var dasher = Dasher(pattern: pattern, phase: start)
        forEachSegment { dasher.add($0) }
        guard !dasher.overflowed else { return undashed() }
        let out = dasher.output
        return CGPath(elements: transform.isIdentity ? out : out.transformed(by: transform))
    }
}

/// A line or curve that can be measured and cut by arc length.
private struct MeasuredSegment {
    enum Kind { case line, quad, cubic }
    let kind: Kind
    let p: [CGPoint]          // 2, 3 or 4 control points, first = start, last = end
    let length: CGFloat
    private let table: [CGFloat]  // cumulative length at t = i / (table.count − 1)

    init(line a: CGPoint, _ b: CGPoint) {
        kind = .line; p = [a, b]; length = a.distance(to: b); table = []
    }

    init(quad a: CGPoint, _ c: CGPoint, _ b: CGPoint) {
        let (len, t) = Self.measure(degree: 2, m: (a - c * 2 + b).vectorLength,
                                    roughLength: a.distance(to: c) + c.distance(to: b)) { quadPoint(a, c, b, $0) }
        kind = .quad; p = [a, c, b]; length = len; table = t
    }

    init(cubic a: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ b: CGPoint) {
        let m = max((a - c1 * 2 + c2).vectorLength, (c1 - c2 * 2 + b).vectorLength)
        let rough = a.distance(to: c1) + c1.distance(to: c2) + c2.distance(to: b)
        let (len, t) = Self.measure(degree: 3, m: m, roughLength: rough) { cubicPoint(a, c1, c2, b, $0) }
        kind = .cubic; p = [a, c1, c2, b]; length = len; table = t
    }

    private static func measure(degree: Int, m: CGFloat, roughLength: CGFloat,
                                _ f: (CGFloat) -> CGPoint) -> (CGFloat, [CGFloat]) {
        let tol = max(roughLength * 1e-4, 1e-9)
        let n = max(16, flatteningSegmentCount(degree: degree, secondDifference: m, tolerance: tol,
                                               maxSegments: 1024))
        var table = [CGFloat](repeating: 0, count: n + 1)
        var prev = f(0)
        for i in 1...n {
            let q = f(CGFloat(i) / CGFloat(n))
            table[i] = table[i - 1] + prev.distance(to: q)
            prev = q
        }
        return (table[n], table)
    }

    /// Curve parameter at arc length `s` (0 … length).
    func parameter(at s: CGFloat) -> CGFloat {
        if s <= 0 { return 0 }
        if s >= length { return 1 }
        if kind == .line { return s / length }
        var lo = 0, hi = table.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if table[mid] < s { lo = mid } else { hi = mid }
        }
        let span = table[hi] - table[lo]
        let f = span > 0 ? (s - table[lo]) / span : 0
        return (CGFloat(lo) + f) / CGFloat(table.count - 1)
    }

    func point(at s: CGFloat) -> CGPoint {
        let t = parameter(at: s)
        if t >= 1 { return p[p.count - 1] }
        switch kind {
        case .line: return lerp(p[0], p[1], t)
        case .quad: return quadPoint(p[0], p[1], p[2], t)
        case .cubic: return cubicPoint(p[0], p[1], p[2], p[3], t)
        }
    }

    /// The element drawing this segment from arc length `s0` to `s1`, starting at the
    /// point at `s0` (which the caller has already reached).
    func piece(from s0: CGFloat, to s1: CGFloat) -> PathElement {
        let t0 = parameter(at: s0), t1 = parameter(at: s1)
        switch kind {
        case .line:
            return .line(t1 >= 1 ? p[1] : lerp(p[0], p[1], t1))
        case .quad:
            let (_, c, e) = quadSubcurve(p[0], p[1], p[2], from: t0, to: t1)
            return .quad(c, e)
        case .cubic:
            let (_, c1, c2, e) = cubicSubcurve(p[0], p[1], p[2], p[3], from: t0, to: t1)
            return .cubic(c1, c2, e)
        }
    }
}

/// The dash pattern state machine, fed segment by segment.
private struct Dasher {
    let pattern: [CGFloat]
    let phase: CGFloat
    private let epsilon: CGFloat
    var output: [PathElement] = []
    var overflowed = false

    private var index = 0
    private var remaining: CGFloat = 0
    private var painting = true
    private var penDown = false         // inside a dash: the next piece continues it
    private var switched = false        // the pattern changed entry inside this subpath
    private var startedPainting = true
    private var dashCount = 0
    static let maxDashes = 1_000_000

    init(pattern: [CGFloat], phase: CGFloat) {
        self.pattern = pattern
        self.phase = phase
        epsilon = pattern.reduce(0, +) * 1e-12
        restart(at: nil)
    }

    /// Restarts the pattern at `phase` (every subpath starts afresh); a zero-length painted
    /// entry found there leaves a dot at `p`.
    private mutating func restart(at p: CGPoint?) {
        index = 0
        painting = true
        var skip = phase
        var count = 0
        // Skip the entries the phase covers whole; with phase 0 nothing is skipped, so a
        // leading zero-length entry still counts.
        while skip > 0, skip >= pattern[index], count < pattern.count {
            skip -= pattern[index]
            index = (index + 1) % pattern.count
            painting.toggle()
            count += 1
        }
        remaining = pattern[index] - skip
        penDown = false
        switched = false
        if let p { settleZeroEntries(at: p) }
        switched = false
        startedPainting = painting
    }

    mutating func add(_ seg: PathSegment) {
        guard !overflowed else { return }
        switch seg {
        case .move(let p):
            restart(at: p)
        case .line(let a, let b):
            walk(MeasuredSegment(line: a, b))
        case .quad(let a, let c, let b):
            walk(MeasuredSegment(quad: a, c, b))
        case .cubic(let a, let c1, let c2, let b):
            walk(MeasuredSegment(cubic: a, c1, c2, b))
        case .close(let a, let b):
            let closing = MeasuredSegment(line: a, b)
            if !switched, startedPainting, penDown, remaining >= closing.length {
                // Painted all the way round: keep it one closed subpath.
                output.append(.close)
                penDown = false
            } else {
                walk(closing)
            }
        }
    }

    private mutating func walk(_ s: MeasuredSegment) {
        var pos: CGFloat = 0
        while pos < s.length, !overflowed {
            let step = min(remaining, s.length - pos)
            if painting {
                if !penDown { emitDashStart(s.point(at: pos)) }
                output.append(s.piece(from: pos, to: pos + step))
            }
            pos += step
            remaining -= step
            if remaining <= epsilon { finishEntry(at: s.point(at: pos)) }
        }
    }

    /// The current entry is used up at `q`: go to the next one.
    private mutating func finishEntry(at q: CGPoint) {
        index = (index + 1) % pattern.count
        painting.toggle()
        remaining = pattern[index]
        penDown = false
        switched = true
        settleZeroEntries(at: q)
    }

    /// Passes over zero-length entries at `q`; a painted one becomes a zero-length dash
    /// (move + line to the same point) so caps can draw a dot. Bounded: the pattern's total
    /// is positive, so a non-zero entry comes within `pattern.count` steps.
    private mutating func settleZeroEntries(at q: CGPoint) {
        var count = 0
        while remaining <= 0, count < pattern.count, !overflowed {
            if painting {
                emitDashStart(q)
                output.append(.line(q))
                penDown = false
            }
            index = (index + 1) % pattern.count
            painting.toggle()
            remaining = pattern[index]
            switched = true
            count += 1
        }
    }

    private mutating func emitDashStart(_ p: CGPoint) {
        output.append(.move(p))
        penDown = true
        dashCount += 1
        if dashCount > Self.maxDashes { overflowed = true }
    }
}
