/// The emitters of the layers whose content is made for each frame rather than set once
/// (issue 19): `CATiledLayer`'s tiles. One entry in `RenderTreeBuilder.contentEmitters`
/// through `all`, so the builder names them in one place.
final class ContentLayerEmitters {
    let tiled = TiledEmitter()

    /// In compositing order, placed after shapes and before particles.
    var all: [any ContentEmitter] { [tiled] }

    /// Whether the last frame showed content that changes with time alone (the frame must be
    /// built anew, never reused).
    var dependsOnTime: Bool { false }
}
