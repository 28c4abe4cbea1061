// Which pixel loops the span painters may run: `CPixelKernels`' eight-pixel AVX2 loops where
// the CPU has AVX2, the four-lane Swift loops (baseline x86-64, other architectures) otherwise.
import CPixelKernels

/// Whether `CPixelKernels`' AVX2 loops run on this CPU, checked once. They give the bytes of
/// the Swift loops they stand in for (`CGContext.usesWideKernels` turns them off per context, so
/// tests can compare the two).
package enum PixelKernels {
    package static let available = ca_pixel_kernels_wide() != 0
}
