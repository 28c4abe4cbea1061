/// The rasters a cache filed since its last builds, in filing order, so that those no later
/// frame drew can be dropped (`ShapeCache.dropTransientEntries`).
///
/// A raster belongs to a shape that changes every frame (a trim, a scale or a path animating:
/// issue 23's TwitterHeart makes fourteen a frame) when no frame after the one that made it
/// asks for it. Kept for `ShapeCache.maxIdleFrames` like a still shape's, such rasters piled up
/// in the table by thousands, and every time the table grew it was copied into new memory that
/// the frame then faulted in page by page (the 0.3–0.5 ms frames of that burst).
///
/// Only builds judge. A build draws every visible shape, so a raster that the build after the
/// one it was filed in (or after the patches that followed it) did not draw is not on screen.
/// A patch draws only what changed: a still shape's raster is not drawn by the patches after
/// the build that made it, and judged by them it would be made again and again, in a new place
/// each time. (So rasters filed under patches wait for the next builds, as the table's other
/// eviction does.)
struct TransientRasters {
    /// Builds and patches so far; `ShapeCache.Entry.lastUse` is the last one that drew an entry.
    private(set) var use = 0

    /// A filed raster: the build (or the build before the patch) and the use it was filed in.
    struct Filed {
        var build: Int
        var use: Int
        var key: ShapeCache.Key
    }

    /// Filed rasters, oldest first from `head`.
    private var filed: [Filed] = []
    private var head = 0

    /// A build or a patch begins.
    mutating func begin() { use &+= 1 }

    /// `key` filed in the current use, under build number `build` (the last build's).
    mutating func file(_ key: ShapeCache.Key, build: Int) {
        filed.append(Filed(build: build, use: use, key: key))
    }

    /// Hands `body` each raster filed `builds` builds or more before build `now`, once.
    mutating func judge(builds: Int, now: Int, _ body: (Filed) -> Void) {
        while head < filed.count, filed[head].build <= now - builds {
            body(filed[head])
            head += 1
        }
        if head == filed.count {
            filed.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 256, head * 2 >= filed.count {
            filed.removeFirst(head)
            head = 0
        }
    }

    mutating func removeAll() {
        filed.removeAll(keepingCapacity: true)
        head = 0
    }
}

extension ShapeCache {
    /// Builds after the one a raster was filed in (or the patches after it) at which the
    /// raster is dropped when none of them drew it: at the second, the first having had its
    /// chance.
    static let transientFrames = 2

    /// At a build, drops the rasters that nothing drew after the build or patch that filed
    /// them, once the build after that has passed (`TransientRasters`). Their atlas room is not
    /// reused: it is counted until the atlas starts again, as before.
    func dropTransientEntries() {
        // (Judged even when nothing is dropped, so the list does not grow.)
        let drops = dropsTransientRasters
        transient.judge(builds: Self.transientFrames, now: frameNumber) { f in
            guard drops, let i = entries.index(forKey: f.key) else { return }
            let e = entries.values[i]
            // (A raster filed again under the key since, or drawn by a later build or patch, stays.)
            if e.lastUsed == f.build, e.lastUse == f.use { entries.remove(at: i) }
        }
    }

    /// Files `entry` under `key`, to be judged later by `dropTransientEntries`.
    func file(_ entry: Entry, under key: Key) {
        var e = entry
        e.lastUse = transient.use
        entries[key] = e
        transient.file(key, build: frameNumber)
    }
}
