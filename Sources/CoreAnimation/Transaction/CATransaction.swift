/// Transaction settings keys with Apple's raw values (docs/BEHAVIOUR.md A1).
public let kCATransactionAnimationDuration = "animationDuration"
public let kCATransactionDisableActions = "disableActions"
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
public let kCATransactionCompletionBlock = "completionBlock"

/// Groups layer-tree changes into atomic updates (Apple's `CATransaction`). Transactions nest
/// and are per thread; a change outside `begin()`/`commit()` opens an implicit transaction that
/// is committed at the end of the run-loop turn, by `flush()`, or by the renderer's next frame.
open class CATransaction: NSObject {

    /// Begins a transaction for the current thread; nests (K2).
    open class func begin() { TransactionStack.current.begin() }

    /// Commits the innermost transaction. Only the outermost commit reaches the render tree:
    /// stamps begin times (C9), makes layers' presentations current (L1), schedules the
    /// completion block (K4). Without a matching `begin()` it does nothing (K3).
    open class func commit() { TransactionStack.current.commit() }

    /// Commits the implicit transaction now, if one is open and no explicit one encloses it.
    open class func flush() { TransactionStack.current.flush() }

    /// A process-wide lock, recursive per thread, as Apple's: while a thread holds it no other
    /// thread steps animations, renders or changes a layer, so values read, modified and set
    /// back stay valid (Apple's discussion of `lock()`; `CrossThreadMutation`). An `unlock()`
    /// without a `lock()` is ignored (K3: neither raises).
    open class func lock() { CrossThreadRelease.lockTransaction() }
    open class func unlock() { CrossThreadRelease.unlockTransaction() }

    /// 0.25 s unless the transaction sets another duration (K1).
    open class func animationDuration() -> CFTimeInterval {
        AnimValue.number(from: value(forKey: kCATransactionAnimationDuration)) ?? 0.25
    }

    open class func setAnimationDuration(_ dur: CFTimeInterval) {
        setValue(NSNumber(value: dur), forKey: kCATransactionAnimationDuration)
    }

    open class func animationTimingFunction() -> CAMediaTimingFunction? {
        value(forKey: kCATransactionAnimationTimingFunction) as? CAMediaTimingFunction
    }

    open class func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        setValue(function, forKey: kCATransactionAnimationTimingFunction)
    }

    /// Whether property changes skip their actions (J5); the change itself still happens.
    open class func disableActions() -> Bool {
        AnimValue.number(from: value(forKey: kCATransactionDisableActions)).map { $0 != 0 } ?? false
    }

    open class func setDisableActions(_ flag: Bool) {
        setValue(NSNumber(value: flag), forKey: kCATransactionDisableActions)
    }

    /// The block set in the current transaction (or an enclosing one), nil after it ran (K4).
    open class func completionBlock() -> (() -> Void)? {
        value(forKey: kCATransactionCompletionBlock) as? () -> Void
    }

    /// Runs `block` once every animation added in this transaction has finished or been
    /// removed; with none, at the next frame step after the commit (K4, docs/BEHAVIOUR.md O3: the
    /// Apple-run behaviour, not "immediately"). Setting a second block does not cancel the
    /// first: both run.
    open class func setCompletionBlock(_ block: (() -> Void)?) {
        let frame = TransactionStack.current.top
        if let block { frame.completionBlocks.append(block) }
        frame.values[kCATransactionCompletionBlock] = block
    }

    open class func value(forKey key: String) -> Any? {
        TransactionStack.current.topIfOpen?.values[key]
    }

    open class func setValue(_ anObject: Any?, forKey key: String) {
        let frame = TransactionStack.current.top
        if key == kCATransactionCompletionBlock {
            if let block = anObject as? () -> Void { frame.completionBlocks.append(block) }
        }
        frame.values[key] = anObject
    }
}
