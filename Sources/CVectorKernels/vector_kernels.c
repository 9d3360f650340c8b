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

__attribute__((target("avx2,fma")))
ptrdiff_t vs_conv2d_interior_avx2(
    const float *src, float *out_block, const float *block_weights, const float *bias,
    ptrdiff_t row_origin, ptrdiff_t ky_lower, ptrdiff_t ky_upper, ptrdiff_t dilation_y, ptrdiff_t row_stride,
    ptrdiff_t kernel_x, ptrdiff_t cin, ptrdiff_t stride_x, ptrdiff_t pad_x, ptrdiff_t tap_step,
    ptrdiff_t pixel_step, ptrdiff_t ox_start, ptrdiff_t ox_end, ptrdiff_t cout, int lanes, int relu) {
    const __m256 b = _mm256_loadu_ps(bias);
    ptrdiff_t ox = ox_start;
    // Eight pixels at a time share each weight load among eight multiply-adds; then four.
    for (; ox + 8 <= ox_end; ox += 8) {
        __m256 a[8];
        for (int i = 0; i < 8; i++) a[i] = b;
        const ptrdiff_t column_origin = ox * stride_x - pad_x;
        for (ptrdiff_t ky = ky_lower; ky < ky_upper; ky++) {
            const float *w = block_weights + ky * kernel_x * cin * 8;
            const float *p = src + (row_origin + ky * dilation_y) * row_stride + column_origin * cin;
            for (ptrdiff_t kx = 0; kx < kernel_x; kx++) {
                for (ptrdiff_t ci = 0; ci < cin; ci++) {
                    const __m256 wv = _mm256_loadu_ps(w + ci * 8);
                    for (int i = 0; i < 8; i++) {
                        a[i] = _mm256_fmadd_ps(wv, _mm256_broadcast_ss(p + i * pixel_step + ci), a[i]);
                    }
                }
                p += tap_step;
                w += cin * 8;
            }
        }
        float *q = out_block + ox * cout;
        for (int i = 0; i < 8; i++) store(a[i], q + i * cout, lanes, relu);
    }
    for (; ox + 4 <= ox_end; ox += 4) {
        __m256 a0 = b, a1 = b, a2 = b, a3 = b;
        const ptrdiff_t column_origin = ox * stride_x - pad_x;
        for (ptrdiff_t ky = ky_lower; ky < ky_upper; ky++) {
            const float *w = block_weights + ky * kernel_x * cin * 8;
            const float *p0 = src + (row_origin + ky * dilation_y) * row_stride + column_origin * cin;
            for (ptrdiff_t kx = 0; kx < kernel_x; kx++) {
                const float *p1 = p0 + pixel_step, *p2 = p1 + pixel_step, *p3 = p2 + pixel_step;
                for (ptrdiff_t ci = 0; ci < cin; ci++) {
                    const __m256 wv = _mm256_loadu_ps(w + ci * 8);
                    a0 = _mm256_fmadd_ps(wv, _mm256_broadcast_ss(p0 + ci), a0);
                    a1 = _mm256_fmadd_ps(wv, _mm256_broadcast_ss(p1 + ci), a1);
                    a2 = _mm256_fmadd_ps(wv, _mm256_broadcast_ss(p2 + ci), a2);
                    a3 = _mm256_fmadd_ps(wv, _mm256_broadcast_ss(p3 + ci), a3);
                }
                p0 += tap_step;
                w += cin * 8;
            }
        }
        float *q = out_block + ox * cout;
        store(a0, q, lanes, relu);
        store(a1, q + cout, lanes, relu);
        store(a2, q + 2 * cout, lanes, relu);
        store(a3, q + 3 * cout, lanes, relu);
    }
    return ox;
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
            __m256 a0 = _mm256_loadu_ps(bias + c), a1 = _mm256_loadu_ps(bias + c + 8);
            __m256 a2 = _mm256_loadu_ps(bias + c + 16), a3 = _mm256_loadu_ps(bias + c + 24);
            for (ptrdiff_t ky = ky_lower; ky < ky_upper; ky++) {
                const float *row = src + (row_origin + ky * dilation_y) * row_stride + c;
                const float *w = weights + ky * kernel_x * channels + c;
                for (ptrdiff_t kx = kx_lower; kx < kx_upper; kx++) {
                    const float *wp = w + kx * channels, *xp = row + (column_origin + kx * dilation_x) * channels;
                    a0 = _mm256_fmadd_ps(_mm256_loadu_ps(wp), _mm256_loadu_ps(xp), a0);
                    a1 = _mm256_fmadd_ps(_mm256_loadu_ps(wp + 8), _mm256_loadu_ps(xp + 8), a1);
                    a2 = _mm256_fmadd_ps(_mm256_loadu_ps(wp + 16), _mm256_loadu_ps(xp + 16), a2);
                    a3 = _mm256_fmadd_ps(_mm256_loadu_ps(wp + 24), _mm256_loadu_ps(xp + 24), a3);
                }
            }
            if (relu) { a0 = relu8(a0); a1 = relu8(a1); a2 = relu8(a2); a3 = relu8(a3); }
            _mm256_storeu_ps(out + c, a0); _mm256_storeu_ps(out + c + 8, a1);
            _mm256_storeu_ps(out + c + 16, a2); _mm256_storeu_ps(out + c + 24, a3);
        }
        for (; c < vector_end; c += 8) {
            __m256 a = _mm256_loadu_ps(bias + c);
            for (ptrdiff_t ky = ky_lower; ky < ky_upper; ky++) {
                const float *row = src + (row_origin + ky * dilation_y) * row_stride + c;
                const float *w = weights + ky * kernel_x * channels + c;
                for (ptrdiff_t kx = kx_lower; kx < kx_upper; kx++) {
                    const float *xp = row + (column_origin + kx * dilation_x) * channels;
                    a = _mm256_fmadd_ps(_mm256_loadu_ps(w + kx * channels), _mm256_loadu_ps(xp), a);
                }
            }
            if (relu) a = relu8(a);
            _mm256_storeu_ps(out + c, a);
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
