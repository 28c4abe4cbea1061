/// Something a layer runs when one of its properties changes (Apple's `CAAction`).
/// `CAAnimation` adds itself to the layer under the event key (docs/BEHAVIOUR.md J4).
public protocol CAAction {
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

/// `NSNull` is a valid action that does nothing; found in `actions`, `style` or returned by a
/// delegate it ends the search with no action (docs/BEHAVIOUR.md J1).
extension NSNull: CAAction {
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}
