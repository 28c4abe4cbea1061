/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): small, seedable, and the same sequence on every platform, so the seeded
/// property-based and fuzz tests reproduce a failure from its seed alone. Shared by the test
/// targets; not part of any product.
package struct SplitMix64: RandomNumberGenerator {
    package var state: UInt64

    package init(state: UInt64) { self.state = state }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in 0..<n (0 when n ≤ 1); modulo bias is irrelevant for test inputs.
    package mutating func int(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
}
