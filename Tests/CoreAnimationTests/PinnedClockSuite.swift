import Testing
import CATestSupport

/// Every suite that pins `CAMediaClock` nests inside this one: the clock is process-wide, so
/// those tests run one at a time while the rest of the suite runs in parallel.
/// `.clockExclusive`: and never alongside the real-time window tests (`ClockLock`).
@Suite(.serialized, .clockExclusive) enum PinnedClock {}
