// `import UIKitCompat` replaces `import UIKit` in a ported iOS file. UIKit re-exports
// QuartzCore, CoreGraphics and Foundation, so this module does too: a file that used
// `CALayer`, `CGPath` or `Data` under `import UIKit` compiles unchanged.
//
// The module is deliberately *not* named `UIKit`: it holds only the value types that Core
// Animation code touches (docs/UIKIT-COMPAT.md lists them), and must never be mistaken for
// Apple's framework.
@_exported import QuartzCore
