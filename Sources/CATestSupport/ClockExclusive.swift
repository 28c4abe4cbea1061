import Testing

/// Runs each test of the suite it marks while holding `ClockLock`: suites that pin the
/// process-wide `CAMediaClock` and suites that need real time never overlap.
package struct ClockExclusive: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }
    package init() {}

    package func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        // The suite's own scope passes through; each test (each case) takes the lock.
        guard !test.isSuite else { return try await function() }
        await ClockLock.shared.acquire()
        do {
            try await function()
        } catch {
            await ClockLock.shared.release()
            throw error
        }
        await ClockLock.shared.release()
    }
}

extension Trait where Self == ClockExclusive {
    /// Excludes clock-pinning and real-time tests from running at the same time.
    package static var clockExclusive: Self { Self() }
}
