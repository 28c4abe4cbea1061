/// Counts the elementary steps layout takes (units classified, glyphs shaped and placed, break
/// candidates tried), so a test can prove layout is linear in the text's length without a
/// timer (extension beyond Apple's API, for tests). Counting is per task: `measure` collects
/// the work done by its body only.
package enum LayoutWork {
    package final class Counter: @unchecked Sendable {
        package var steps = 0
    }

    @TaskLocal static var counter: Counter?

    /// Adds `n` steps to the running measurement, if any.
    @inline(__always)
    static func add(_ n: Int) { counter?.steps += n }

    /// Runs `body` and returns its result with the number of steps it took.
    package static func measure<T>(_ body: () throws -> T) rethrows -> (T, Int) {
        let c = Counter()
        let r = try $counter.withValue(c) { try body() }
        return (r, c.steps)
    }
}
