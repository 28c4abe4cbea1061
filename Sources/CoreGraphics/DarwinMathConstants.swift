// Linux compatibility: the Darwin spellings of floating-point limits that Core Animation code
// writes and that Swift on Linux does not import.
//
// On Apple platforms `import QuartzCore` (or UIKit) brings Darwin's <math.h> and Core
// Foundation's CFCGTypes.h into scope, so `animation.repeatCount = HUGE` — the most common way
// iOS code writes "repeat forever" — compiles. Glibc defines `HUGE` and `MAXFLOAT` only under
// feature macros that Swift's Glibc module does not surface, and Core Foundation's CGFloat
// macros are not exported on Linux at all. These declarations give each name the type and value
// it has in Swift on Apple platforms. `M_PI` and the other `M_…` constants, `FLT_MAX` and
// `DBL_MAX` already reach Swift through Glibc and are not repeated here.

/// Darwin's `HUGE` (<math.h>: `#define HUGE MAXFLOAT`), imported by Swift as a `Float`
/// equal to `FLT_MAX`. Linux compatibility: not part of Glibc's Swift module.
///
/// Core Animation code writes `repeatCount = HUGE` to repeat forever; `CAMediaTiming`
/// documents `Float.greatestFiniteMagnitude` (and `.infinity`) for that, and `HUGE` is that
/// value, so both spellings behave the same here as on Apple platforms.
public let HUGE: Float = Float.greatestFiniteMagnitude

/// Darwin's `MAXFLOAT` (<math.h>), the largest finite `Float`. Linux compatibility.
public let MAXFLOAT: Float = Float.greatestFiniteMagnitude

/// `CGFLOAT_MAX`, the largest finite `CGFloat`: imported by Swift on Apple platforms as a
/// `Double` (Apple's documentation: `var CGFLOAT_MAX: Double { get }`). Linux compatibility.
public let CGFLOAT_MAX: Double = Double.greatestFiniteMagnitude

/// `CGFLOAT_MIN`, the smallest positive normal `CGFloat` (`DBL_MIN` on 64-bit platforms), a
/// `Double` as Swift imports it on Apple platforms. Linux compatibility.
public let CGFLOAT_MIN: Double = Double.leastNormalMagnitude

/// `CGFLOAT_EPSILON` (`DBL_EPSILON` on 64-bit platforms), a `Double` as Swift imports it on
/// Apple platforms. Linux compatibility.
public let CGFLOAT_EPSILON: Double = Double.ulpOfOne

/// `CGFLOAT_IS_DOUBLE`: 1, since `CGFloat` is a `Double` on every 64-bit platform. An `Int32`
/// as Swift imports it on Apple platforms. Linux compatibility.
public let CGFLOAT_IS_DOUBLE: Int32 = 1
