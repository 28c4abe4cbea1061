import CoreAnimation

/// Which kinds of content claim a layer (`ContentEmitter.claims`), asked for every layer the
/// walk visits. Most emitters claim by the layer's class alone (`claimsByClass`): their answers
/// are kept per class in a short list, so a layer costs one comparison per class seen instead
/// of a protocol call and a dynamic cast per emitter (issue 23: about 700 instructions a layer,
/// a tenth of a small layer's walk, callgrind). The others are asked every time.
struct ContentClaims {
    private var byClass: [(type: ObjectIdentifier, bits: UInt32)] = []
    /// The emitters that are asked every time (their indices).
    private var askedEachTime: [Int] = []
    /// The emitters that claim by class (their indices).
    private var askedByClass: [Int] = []
    /// A tree has a handful of layer classes; past this many the list starts again.
    private static let maxClasses = 32

    init(_ emitters: [any ContentEmitter]) {
        for (i, e) in emitters.enumerated() {
            if e.claimsByClass { askedByClass.append(i) } else { askedEachTime.append(i) }
        }
    }

    /// Bit i set: `emitters[i]` claims `copy`.
    mutating func mask(_ copy: CALayer, _ emitters: [any ContentEmitter]) -> UInt32 {
        let type = ObjectIdentifier(Swift.type(of: copy))
        var bits: UInt32 = 0
        if let k = byClass.firstIndex(where: { $0.type == type }) {
            bits = byClass[k].bits
        } else {
            for i in askedByClass where emitters[i].claims(copy) { bits |= 1 << UInt32(i) }
            if byClass.count >= Self.maxClasses { byClass.removeAll(keepingCapacity: true) }
            byClass.append((type, bits))
        }
        for i in askedEachTime where emitters[i].claims(copy) { bits |= 1 << UInt32(i) }
        return bits
    }
}
