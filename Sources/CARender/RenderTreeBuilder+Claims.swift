import CoreAnimation

/// Which kinds of content claim a layer (`ContentEmitter.claims`), asked for every layer the
/// walk visits, answered by each emitter's `claimRule` without asking it where the rule allows:
/// answers by class are kept per class in a short list, and a claim by `contents` reads the
/// layer's flag. (Asking every emitter cost a protocol call, a dynamic cast and a retain and
/// release per emitter: about 700 instructions a layer, a tenth of a small layer's walk,
/// callgrind, issue 23.)
final class ContentClaims {
    let emitters: [any ContentEmitter]
    @exclusivity(unchecked) private var byClass: [(type: ObjectIdentifier, bits: UInt32)] = []
    /// The emitters answered by class, by `contents`, and asked every time (bit masks).
    private let classBits: UInt32, contentsBits: UInt32, askedBits: UInt32
    /// A tree has a handful of layer classes; past this many the list starts again.
    private static let maxClasses = 32

    init(_ emitters: [any ContentEmitter]) {
        self.emitters = emitters
        var c: UInt32 = 0, k: UInt32 = 0, a: UInt32 = 0
        for (i, e) in emitters.enumerated() {
            switch e.claimRule {
            case .byClass: c |= 1 << UInt32(i)
            case .byContents: k |= 1 << UInt32(i)
            case .asked: a |= 1 << UInt32(i)
            }
        }
        (classBits, contentsBits, askedBits) = (c, k, a)
    }

    /// Drops the answers kept per class (an emitter's claims changed).
    func forgetClasses() { byClass.removeAll() }

    /// Bit i set: `emitters[i]` claims `copy`.
    func mask(_ copy: CALayer) -> UInt32 {
        let type = ObjectIdentifier(Swift.type(of: copy))
        var bits: UInt32 = 0
        var found = false
        for k in byClass.indices where byClass[k].type == type {
            bits = byClass[k].bits
            found = true
            break
        }
        if !found {
            bits = ask(copy, classBits)
            if byClass.count >= Self.maxClasses { byClass.removeAll(keepingCapacity: true) }
            byClass.append((type, bits))
        }
        if contentsBits != 0, copy.hasContents { bits |= contentsBits }
        if askedBits != 0 { bits |= ask(copy, askedBits) }
        return bits
    }

    private func ask(_ copy: CALayer, _ which: UInt32) -> UInt32 {
        var bits: UInt32 = 0
        for i in emitters.indices where which & (1 << UInt32(i)) != 0 && emitters[i].claims(copy) { bits |= 1 << UInt32(i) }
        return bits
    }
}
