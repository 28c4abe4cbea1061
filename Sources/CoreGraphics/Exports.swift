// `import CoreGraphics` on Apple platforms brings Foundation's geometry types along;
// re-exporting Foundation keeps `import QuartzCore` alone enough for Apple sample code.
@_exported import Foundation

/// Seconds, as Core Foundation spells it (`CFTimeInterval` is `Double` on Apple platforms too).
public typealias CFTimeInterval = Double
