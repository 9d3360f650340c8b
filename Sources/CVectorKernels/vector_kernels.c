// The convolutions' inner loops with AVX2 and FMA, each function compiled for those instructions alone (the
// rest of the package targets baseline x86-64), called only where vs_cpu_has_avx2_fma() says the CPU and its
// operating system run them. The loops and their order are those of the Swift kernels in VitalSnapInference.
#include "vector_kernels.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int vs_cpu_has_avx2_fma(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned fma = 1u << 12, osxsave = 1u << 27, avx = 1u << 28;
    if ((c & (fma | osxsave | avx)) != (fma | osxsave | avx)) return 0;
    // The operating system saves the YMM registers (XCR0 bits 1 and 2).
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6u) != 6u) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & (1u << 5)) ? 1 : 0;
}

/// max(v, 0) per lane, a NaN kept (as `SIMDMath.relu`).
__attribute__((target("avx2,fma")))
static inline __m256 relu8(__m256 v) {
    return _mm256_blendv_ps(v, _mm256_setzero_ps(), _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ));
}

__attribute__((target("avx2,fma")))
static inline void store(__m256 v, float *to, int lanes, int relu) {
    if (relu) v = relu8(v);
    if (lanes == 8) {
        _mm256_storeu_ps(to, v);
    } else {
        float lanes_out[8];
        _mm256_storeu_ps(lanes_out, v);
        for (int i = 0; i < lanes; i++) to[i] = lanes_out[i];
    }
}

/// `n` (at most 8) neighbouring interior output pixels from the one whose first tap is `p`: `n` accumulators
/// share each weight load. Inlined with `n` a constant, the accumulators live in registers.
__attribute__((target("avx2,fma"), always_inline))
static inline void interior_pixels(
    int n, const float *p, const float *w, __m256 bias, float *q, ptrdiff_t ky_count, ptrdiff_t row_step,
    ptrdiff_t kernel_x, ptrdiff_t cin, ptrdiff_t tap_step, ptrdiff_t pixel_step, ptrdiff_t cout, int lanes, int relu) {
    __m256 a[8];
    for (int i = 0; i < n; i++) a[i] = bias;
    for (ptrdiff_t ky = 0; ky < ky_count; ky++, p += row_step) {
        const float *tap = p;
        for (ptrdiff_t kx = 0; kx < kernel_x; kx++, tap += tap_step, w += cin * 8) {
            for (ptrdiff_t ci = 0; ci < cin; ci++) {
                const __m256 wv = _mm256_loadu_ps(w + ci * 8);
                for (int i = 0; i < n; i++) {
                    a[i] = _mm256_fmadd_ps(wv, _mm256_broadcast_ss(tap + i * pixel_step + ci), a[i]);
                }
            }
        }
    }
    for (int i = 0; i < n; i++) store(a[i], q + i * cout, lanes, relu);
}

__attribute__((target("avx2,fma")))
ptrdiff_t vs_conv2d_interior_avx2(
    const float *src, float *out_block, const float *block_weights, const float *bias,
    ptrdiff_t row_origin, ptrdiff_t ky_lower, ptrdiff_t ky_upper, ptrdiff_t dilation_y, ptrdiff_t row_stride,
    ptrdiff_t kernel_x, ptrdiff_t cin, ptrdiff_t stride_x, ptrdiff_t pad_x, ptrdiff_t tap_step,
    ptrdiff_t pixel_step, ptrdiff_t ox_start, ptrdiff_t ox_end, ptrdiff_t cout, int lanes, int relu) {
    const __m256 b = _mm256_loadu_ps(bias);
    const float *w = block_weights + ky_lower * kernel_x * cin * 8;
    const float *first_row = src + (row_origin + ky_lower * dilation_y) * row_stride;
    const ptrdiff_t row_step = dilation_y * row_stride, ky_count = ky_upper - ky_lower;
    ptrdiff_t ox = ox_start;
    // Eight pixels at a time (measured faster than four: fewer weight loads per multiply-add), then four.
    for (; ox + 8 <= ox_end; ox += 8) {
        interior_pixels(8, first_row + (ox * stride_x - pad_x) * cin, w, b, out_block + ox * cout, ky_count, row_step,
                        kernel_x, cin, tap_step, pixel_step, cout, lanes, relu);
    }
    for (; ox + 4 <= ox_end; ox += 4) {
        interior_pixels(4, first_row + (ox * stride_x - pad_x) * cin, w, b, out_block + ox * cout, ky_count, row_step,
                        kernel_x, cin, tap_step, pixel_step, cout, lanes, relu);
    }
    return ox;
}

/// `vectors` (at most 4) groups of 8 channels of one depthwise output pixel, from the channel `src`, `weights`,
/// `bias` and `out` start at; kernel columns `kx_lower..<kx_upper`.
__attribute__((target("avx2,fma"), always_inline))
static inline void depthwise_channels(
    int vectors, const float *src, const float *weights, const float *bias, float *out, ptrdiff_t row_origin,
    ptrdiff_t ky_lower, ptrdiff_t ky_upper, ptrdiff_t dilation_y, ptrdiff_t row_stride, ptrdiff_t kernel_x,
    ptrdiff_t kx_lower, ptrdiff_t kx_upper, ptrdiff_t column_origin, ptrdiff_t dilation_x, ptrdiff_t channels,
    int relu) {
    __m256 a[4];
    for (int v = 0; v < vectors; v++) a[v] = _mm256_loadu_ps(bias + 8 * v);
    for (ptrdiff_t ky = ky_lower; ky < ky_upper; ky++) {
        const float *row = src + (row_origin + ky * dilation_y) * row_stride;
        const float *w = weights + ky * kernel_x * channels;
        for (ptrdiff_t kx = kx_lower; kx < kx_upper; kx++) {
            const float *wp = w + kx * channels, *xp = row + (column_origin + kx * dilation_x) * channels;
            for (int v = 0; v < vectors; v++) {
                a[v] = _mm256_fmadd_ps(_mm256_loadu_ps(wp + 8 * v), _mm256_loadu_ps(xp + 8 * v), a[v]);
            }
        }
    }
    for (int v = 0; v < vectors; v++) _mm256_storeu_ps(out + 8 * v, relu ? relu8(a[v]) : a[v]);
}

__attribute__((target("avx2,fma")))
void vs_depthwise_row_avx2(
    const float *src, float *out_row, const float *weights, const float *bias,
    ptrdiff_t row_origin, ptrdiff_t ky_lower, ptrdiff_t ky_upper, ptrdiff_t dilation_y, ptrdiff_t width,
    ptrdiff_t kernel_x, ptrdiff_t stride_x, ptrdiff_t pad_x, ptrdiff_t dilation_x, ptrdiff_t out_width,
    ptrdiff_t channels, int relu) {
    const ptrdiff_t row_stride = width * channels, vector_end = channels & ~(ptrdiff_t)7;
    for (ptrdiff_t ox = 0; ox < out_width; ox++) {
        const ptrdiff_t column_origin = ox * stride_x - pad_x;
        ptrdiff_t kx_lower = 0, kx_upper = kernel_x;
        while (kx_lower < kernel_x && column_origin + kx_lower * dilation_x < 0) kx_lower++;
        while (kx_upper > kx_lower && column_origin + (kx_upper - 1) * dilation_x >= width) kx_upper--;
        float *out = out_row + ox * channels;
        ptrdiff_t c = 0;
        // 32 channels at a time, then 8: each tap's weights and inputs are contiguous over channels.
        for (; c + 32 <= channels; c += 32) {
            depthwise_channels(4, src + c, weights + c, bias + c, out + c, row_origin, ky_lower, ky_upper, dilation_y,
                               row_stride, kernel_x, kx_lower, kx_upper, column_origin, dilation_x, channels, relu);
        }
        for (; c < vector_end; c += 8) {
            depthwise_channels(1, src + c, weights + c, bias + c, out + c, row_origin, ky_lower, ky_upper, dilation_y,
                               row_stride, kernel_x, kx_lower, kx_upper, column_origin, dilation_x, channels, relu);
        }
        for (; c < channels; c++) {
            float a = bias[c];
            for (ptrdiff_t ky = ky_lower; ky < ky_upper; ky++) {
                const float *row = src + (row_origin + ky * dilation_y) * row_stride + c;
                const float *w = weights + ky * kernel_x * channels + c;
                for (ptrdiff_t kx = kx_lower; kx < kx_upper; kx++) {
                    a += w[kx * channels] * row[(column_origin + kx * dilation_x) * channels];
                }
            }
            out[c] = relu && a < 0 ? 0 : a;
        }
    }
}

#else

int vs_cpu_has_avx2_fma(void) { return 0; }

ptrdiff_t vs_conv2d_interior_avx2(
    const float *src, float *out_block, const float *block_weights, const float *bias,
    ptrdiff_t row_origin, ptrdiff_t ky_lower, ptrdiff_t ky_upper, ptrdiff_t dilation_y, ptrdiff_t row_stride,
    ptrdiff_t kernel_x, ptrdiff_t cin, ptrdiff_t stride_x, ptrdiff_t pad_x, ptrdiff_t tap_step,
    ptrdiff_t pixel_step, ptrdiff_t ox_start, ptrdiff_t ox_end, ptrdiff_t cout, int lanes, int relu) {
    (void)src; (void)out_block; (void)block_weights; (void)bias; (void)row_origin; (void)ky_lower;
    (void)ky_upper; (void)dilation_y; (void)row_stride; (void)kernel_x; (void)cin; (void)stride_x; (void)pad_x;
    (void)tap_step; (void)pixel_step; (void)ox_end; (void)cout; (void)lanes; (void)relu;
    return ox_start;
}

void vs_depthwise_row_avx2(
    const float *src, float *out_row, const float *weights, const float *bias,
    ptrdiff_t row_origin, ptrdiff_t ky_lower, ptrdiff_t ky_upper, ptrdiff_t dilation_y, ptrdiff_t width,
    ptrdiff_t kernel_x, ptrdiff_t stride_x, ptrdiff_t pad_x, ptrdiff_t dilation_x, ptrdiff_t out_width,
    ptrdiff_t channels, int relu) {
    (void)src; (void)out_row; (void)weights; (void)bias; (void)row_origin; (void)ky_lower; (void)ky_upper;
    (void)dilation_y; (void)width; (void)kernel_x; (void)stride_x; (void)pad_x; (void)dilation_x;
    (void)out_width; (void)channels; (void)relu;
}

#endif
