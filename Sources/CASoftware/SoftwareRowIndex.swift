/// A batch's instances by the rows they touch, so that a band visits only its own (issue 22:
/// with 100,000 particles, every band of 32 rows walked all 100,000 instances, copying each one
/// out of the batch to test its rows: 3.4 million copies a 1080p frame).
///
/// Rows are grouped in stripes of `stripeRows`; each stripe lists, in paint order, the
/// instances whose pixel rows meet it. A band's instances are the union of its stripes' lists,
/// still in paint order and each once (an instance spanning several stripes is in each list).
/// Small batches keep no index: walking them costs less than building one.
struct SoftwareRowIndex {
    static let stripeRows = 32
    /// Batches of fewer instances walk them all.
    static let minimumInstances = 256
    private let stripes: [[Int]]
    private let count: Int

    /// `rows(k)`: the pixel rows instance k may paint (empty when none).
    init(count: Int, height: Int, rows: (Int) -> Range<Int>) {
        self.count = count
        guard count >= Self.minimumInstances, height > 0 else { stripes = []; return }
        var lists = [[Int]](repeating: [], count: (height + Self.stripeRows - 1) / Self.stripeRows)
        for k in 0..<count {
            let r = rows(k).clamped(to: 0..<height)
            guard !r.isEmpty else { continue }
            for s in (r.lowerBound / Self.stripeRows)...((r.upperBound - 1) / Self.stripeRows) { lists[s].append(k) }
        }
        stripes = lists
    }

    /// The instances that may touch `rows`, ascending: every index when the batch keeps no index
    /// (a range, no array made: small batches are drawn by many bands of many passes).
    func candidates(_ rows: Range<Int>) -> Candidates {
        guard !stripes.isEmpty else { return Candidates(all: count) }
        return Candidates(listed: listed(rows))
    }

    /// Either every index below a count or a list of them.
    struct Candidates: Sequence {
        private let all: Int
        private let list: [Int]?
        init(all: Int) { self.all = all; list = nil }
        init(listed: [Int]) { all = 0; list = listed }

        func makeIterator() -> Iterator { Iterator(all: all, list: list) }

        struct Iterator: IteratorProtocol {
            let all: Int
            let list: [Int]?
            var k = 0
            mutating func next() -> Int? {
                if let list {
                    guard k < list.count else { return nil }
                    defer { k += 1 }
                    return list[k]
                }
                guard k < all else { return nil }
                defer { k += 1 }
                return k
            }
        }
    }

    private func listed(_ rows: Range<Int>) -> [Int] {
        guard !rows.isEmpty else { return [] }
        let s0 = max(rows.lowerBound / Self.stripeRows, 0), s1 = min((rows.upperBound - 1) / Self.stripeRows, stripes.count - 1)
        guard s0 <= s1 else { return [] }
        if s0 == s1 { return stripes[s0] }
        // Merge the stripes' ascending lists, each index once.
        var out: [Int] = []
        var cursors = [Int](repeating: 0, count: s1 - s0 + 1)
        var last = -1
        while true {
            var best = Int.max, which = -1
            for (c, s) in (s0...s1).enumerated() where cursors[c] < stripes[s].count && stripes[s][cursors[c]] < best {
                best = stripes[s][cursors[c]]; which = c
            }
            guard which >= 0 else { return out }
            cursors[which] += 1
            if best != last { out.append(best); last = best }
        }
    }
}
