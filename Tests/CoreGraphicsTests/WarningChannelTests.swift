import Testing
import Synchronization

/// The warning channels remember what they said in bounded memory (issue 17: a long-running
/// server fed endless bad inputs, whose warnings carry sizes and names, must not grow).
@Suite struct WarningChannelTests {
    final class Sink: Sendable { let lines = Locked<[String]>([]) }

    @Test("each distinct message is written once; past the cap the channel forgets and starts over")
    func boundedMemory() {
        let sink = Sink()
        let channel = WarningChannel { m in sink.lines.withLock { $0.append(m) } }
        #expect(channel.warnOnce("first"))
        #expect(!channel.warnOnce("first"))
        // Fill the remembered set to its cap with distinct, input-like messages.
        for i in 1..<WarningChannel.seenCapacity { channel.warnOnce("data of \(i) bytes is not a font") }
        #expect(!channel.warnOnce("first"))                 // still remembered at the cap
        #expect(sink.lines.withLock { $0.count } == WarningChannel.seenCapacity)
        // One more distinct message: the set starts over, so "first" is written again once.
        #expect(channel.warnOnce("one past the cap"))
        #expect(channel.warnOnce("first"))
        #expect(!channel.warnOnce("first"))
        #expect(sink.lines.withLock { $0.count } == WarningChannel.seenCapacity + 2)
    }
}
