#ifndef VITALSNAP_VECTOR_KERNELS_H
#define VITALSNAP_VECTOR_KERNELS_H

#include <stddef.h>

/// Whether this CPU and its operating system run AVX2 and FMA instructions (x86-64 only; 0 elsewhere).
int vs_cpu_has_avx2_fma(void);

/// The interior of one output row of a dense 2-D convolution for one block of 8 output channels, with AVX2 and
/// fused multiply-adds: the output pixels from `ox_start`, four at a time while all four lie before `ox_end`.
/// Returns the first output column not written (the caller writes the rest). The layout and arithmetic are
/// `Conv2DKernel`'s (VitalSnapInference): HWC input, weights packed 8 output channels to a tap and input channel,
/// every tap of an interior pixel inside the input row. Call only where `vs_cpu_has_avx2_fma()` is 1.
ptrdiff_t vs_conv2d_interior_avx2(
    const float *src, float *out_block, const float *block_weights, const float *bias,
    ptrdiff_t row_origin, ptrdiff_t ky_lower, ptrdiff_t ky_upper, ptrdiff_t dilation_y, ptrdiff_t row_stride,
    ptrdiff_t kernel_x, ptrdiff_t cin, ptrdiff_t stride_x, ptrdiff_t pad_x, ptrdiff_t tap_step,
    ptrdiff_t pixel_step, ptrdiff_t ox_start, ptrdiff_t ox_end, ptrdiff_t cout, int lanes, int relu);

/// One output row of a depthwise 2-D convolution (each channel with its own kernel) with AVX2 and fused
/// multiply-adds, every channel of every pixel: `DepthwiseConv2DKernel`'s layout (HWC input and output, weights
/// `[ky][kx][channel]`), kernel rows `ky_lower..<ky_upper` inside the input, kernel columns clipped per pixel.
/// Call only where `vs_cpu_has_avx2_fma()` is 1.
void vs_depthwise_row_avx2(
    const float *src, float *out_row, const float *weights, const float *bias,
    ptrdiff_t row_origin, ptrdiff_t ky_lower, ptrdiff_t ky_upper, ptrdiff_t dilation_y, ptrdiff_t width,
    ptrdiff_t kernel_x, ptrdiff_t stride_x, ptrdiff_t pad_x, ptrdiff_t dilation_x, ptrdiff_t out_width,
    ptrdiff_t channels, int relu);

#endif
