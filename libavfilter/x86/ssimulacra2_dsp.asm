;*****************************************************************************
;* x86-optimized functions for the ssimulacra2 filter
;*
;* This file is part of FFmpeg.
;*
;* FFmpeg is free software; you can redistribute it and/or
;* modify it under the terms of the GNU Lesser General Public
;* License as published by the Free Software Foundation; either
;* version 2.1 of the License, or (at your option) any later version.
;*
;* FFmpeg is distributed in the hope that it will be useful,
;* but WITHOUT ANY WARRANTY; without even the implied warranty of
;* MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
;* Lesser General Public License for more details.
;*
;* You should have received a copy of the GNU Lesser General Public
;* License along with FFmpeg; if not, write to the Free Software
;* Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
;*****************************************************************************

; The metric is specified to the last bit of its float arithmetic: every
; function does exactly the operations of its C version, in the same order.

%include "libavutil/x86/x86util.asm"

SECTION_RODATA 32

quarter: times 8 dd 0.25
; ssimu2_srgb_to_linear(): numerator and denominator, highest power first
srgb_p:  dd 8.210152774e-01, 7.961564959e-01, 1.624820318e-01, 1.043637593e-02, 2.200248328e-04
srgb_q:  dd 6.521209011e-03, -5.512498495e-02, 4.987528350e-01, 1.076976492e+00, 2.631846970e-01
srgb_knee:   dd 0.04045
srgb_slope:  dd 0.0773993805
fifth:       dd 0.2
magic5:      dd 0xCCCCCCCD        ; u / 5 = (u * magic5) >> 34 for every 32-bit u
root5_bias:  dd 0x32CCCCCD
abs_mask:    dd 0x7fffffff
sign_mask:   dd 0x80000000
; vmaskmovps masks of the last 0..7 elements
tail_mask: times 8 dd -1
           times 8 dd 0
; whole-vector operands shared by several functions
align 32
ps_one:      times 8 dd 1.0
ps_abs:      times 8 dd 0x7fffffff
; blur_cols
cols_c2:     times 8 dd 0.000899999985
cols_one_d:  times 4 dq 1.0
cols_mone_d: times 4 dq -1.0
cols_half_d: times 4 dq 0.5
cols_abs_d:  times 4 dq 0x7fffffffffffffff
; the blur input of rows outside the image (a block is at most 64 columns)
cols_zero:   times 64 dd 0
; ssimu2_col_step() coefficients (SSIMU2_D1_INIT, SSIMU2_N2_INIT)
cols_d1:     dd -1.90211308, -1.17557049, -1.22464685e-16
cols_n2:     dd 0.0552952364, -0.0588366874, 0.0129558193
; blur_rows
; the row form of the recursive Gaussian (ssimu2_row_step(),
; ssimu2_resonator_block4()): SSIMU2_MUL_IN_INIT, SSIMU2_MUL_PREV_INIT and
; SSIMU2_MUL_PREV2_INIT, entry [k][j] (resonator k, position j) broadcast to a
; vector at row_mul_* + (4 * k + j) * 32
%macro ROWS_ROW_COEFS 4
    times 8 dd %1
    times 8 dd %2
    times 8 dd %3
    times 8 dd %4
%endmacro
align 32
row_mul_in:    ROWS_ROW_COEFS  0.0552952364,   0.10517779,      0.144764811,     0.17018123
               ROWS_ROW_COEFS -0.0588366874,  -0.0691666752,   -0.0224736147,    0.042747356
               ROWS_ROW_COEFS  0.0129558193,   1.58663023e-18, -0.0129558193,   -3.17326046e-18
row_mul_prev:  ROWS_ROW_COEFS  1.90211308,     2.61803389,      3.07768345,      3.23606801
               ROWS_ROW_COEFS  1.17557049,     0.381966025,    -0.726542532,    -1.23606801
               ROWS_ROW_COEFS  1.22464685e-16, -1.0,           -2.44929371e-16,  1.0
row_mul_prev2: ROWS_ROW_COEFS -1.0,           -1.90211308,     -2.61803389,     -3.07768345
               ROWS_ROW_COEFS -1.0,           -1.17557049,     -0.381966025,     0.726542532
               ROWS_ROW_COEFS -1.0,           -1.22464685e-16,  1.0,             2.44929371e-16

; yuv_row: offsets of the fields of SSIMU2Colour (ssimulacra2_math.h)
%define COLOUR_Y_OFF    8
%define COLOUR_Y_SCALE 12
%define COLOUR_C_OFF   16
%define COLOUR_C_SCALE 20
%define COLOUR_CR_R    28
%define COLOUR_CB_G    32
%define COLOUR_CR_G    36
%define COLOUR_CB_B    40

align 32
; xyb_row: operands of whole vectors (memory operands of the arithmetic)
pix_ps_half:       times 8 dd 0.5
pix_ps_sign:       times 8 dd 0x80000000
; ssimu2_opsin(): the rows of the opsin matrix and the bias
pix_ps_opsin_bias: times 8 dd 0.00379307335
pix_ps_opsin0_r:   times 8 dd 0.300000012
pix_ps_opsin0_g:   times 8 dd 0.621999979
pix_ps_opsin0_b:   times 8 dd 0.0780000016
pix_ps_opsin1_r:   times 8 dd 0.230000004
pix_ps_opsin1_g:   times 8 dd 0.691999972
pix_ps_opsin1_b:   times 8 dd 0.0780000016
pix_ps_opsin2_r:   times 8 dd 0.243422687
pix_ps_opsin2_g:   times 8 dd 0.204767451
pix_ps_opsin2_b:   times 8 dd 0.551809847
; ssimu2_cbrt_add()
pix_pd_cbrt_magic: times 8 dd 0x54800000
pix_pd_cbrt_mul:   times 8 dd 0x002AAAAA
pix_ps_k13:        times 8 dd 0.333333343
pix_ps_neg_k13:    times 8 dd -0.333333343
pix_ps_k43:        times 8 dd 1.33333337
pix_ps_cbrt_bias:  times 8 dd -0.155954197
; ssimu2_linear_to_xyb(): the final combination
pix_ps_14:         times 8 dd 14.0
pix_ps_0_42:       times 8 dd 0.42
pix_ps_0_01:       times 8 dd 0.01
pix_ps_0_55:       times 8 dd 0.55

; yuv_row: the bits above an index into an 8-element window
pix_pd_not7:       times 8 dd ~7

; unpack8: bytes 0, 3, 6, 9 of the low lane and 6, 9, 12, 15 of the high lane
; (loads at src and src + 6) to dwords; step 4: 0, 4, 8, 12 and 3, 7, 11, 15
; (loads at src and src + 13), so that no byte after the last sample is read
pix_pd_0xff:    times 8 dd 0xff
pix_pb_unpack3: db 0, -1, -1, -1, 3, -1, -1, -1, 6, -1, -1, -1,  9, -1, -1, -1
            db 6, -1, -1, -1, 9, -1, -1, -1, 12, -1, -1, -1, 15, -1, -1, -1
pix_pb_unpack4: db 0, -1, -1, -1, 4, -1, -1, -1, 8, -1, -1, -1, 12, -1, -1, -1
            db 3, -1, -1, -1, 7, -1, -1, -1, 11, -1, -1, -1, 15, -1, -1, -1

SECTION .text

%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2

; void box_row(const float *r0, const float *r1, int w, float *dst)
; dst[x] = ((((+0 + r0[2x]) + r0[2x + 1]) + r1[2x]) + r1[2x + 1]) * 0.25, as
; ssimu2_box4() (the +0 turns a -0 sample into +0, as in the CUDA kernels; the
; C may drop it under -fno-signed-zeros); an odd last column is averaged with
; itself
cglobal ssimulacra2_box_row, 4, 7, 6, src0, src1, w, dst, n, x, n8
    movsxdifnidn     wq, wd
    mov             nd, wd
    shr             nd, 1
    mov            n8d, nd
    and            n8d, ~7
    xor             xd, xd
    xorps           m5, m5
    mova            m4, [quarter]
    test           n8d, n8d
    jz .tail
.loop:
    movu            m0, [src0q + xq * 8]
    movu            m1, [src0q + xq * 8 + mmsize]
    shufps          m2, m0, m1, q2020       ; even columns, in 128-bit lanes
    shufps          m0, m0, m1, q3131       ; odd columns
    vpermpd         m2, m2, q3120
    vpermpd         m0, m0, q3120
    addps           m2, m5, m2
    addps           m2, m2, m0
    movu            m0, [src1q + xq * 8]
    movu            m1, [src1q + xq * 8 + mmsize]
    shufps          m3, m0, m1, q2020
    shufps          m0, m0, m1, q3131
    vpermpd         m3, m3, q3120
    vpermpd         m0, m0, q3120
    addps           m2, m2, m3
    addps           m2, m2, m0
    mulps           m2, m2, m4
    movu [dstq + xq * 4], m2
    add             xd, 8
    cmp             xd, n8d
    jl .loop
.tail:
    cmp             xd, nd
    jge .odd
    movss          xm0, [src0q + xq * 8]
    addss          xm0, xm5, xm0
    addss          xm0, [src0q + xq * 8 + 4]
    addss          xm0, [src1q + xq * 8]
    addss          xm0, [src1q + xq * 8 + 4]
    mulss          xm0, xm4
    movss [dstq + xq * 4], xm0
    inc             xd
    jmp .tail
.odd:
    test            wd, 1
    jz .end
    movss          xm0, [src0q + wq * 4 - 4]
    addss          xm0, xm5, xm0
    addss          xm0, [src0q + wq * 4 - 4]
    addss          xm0, [src1q + wq * 4 - 4]
    addss          xm0, [src1q + wq * 4 - 4]
    mulss          xm0, xm4
    movss [dstq + nq * 4], xm0
.end:
    RET

; x (m0) -> libjxl's sRGB EOTF, as ssimu2_srgb_to_linear(); m1-m4 clobbered
%macro SRGB_TO_LINEAR 0
    vbroadcastss    m1, [abs_mask]
    andps           m1, m1, m0                  ; x = |v|
    vbroadcastss    m2, [srgb_p]
    vbroadcastss    m3, [srgb_q]
%assign i 1
%rep 4
    vbroadcastss    m4, [srgb_p + 4 * i]
    vfmadd213ps     m2, m1, m4                  ; p = fma(p, x, c)
    vbroadcastss    m4, [srgb_q + 4 * i]
    vfmadd213ps     m3, m1, m4
%assign i i + 1
%endrep
    divps           m2, m2, m3                  ; rational = p / q
    vbroadcastss    m4, [srgb_slope]
    mulps           m3, m1, m4                  ; linear = x * 0.0773993805
    vbroadcastss    m4, [srgb_knee]
    cmpps           m1, m1, m4, 0x1e            ; x > 0.04045 (false for NaN)
    blendvps        m3, m3, m2, m1
    xorps           m1, m1, m1
    cmpps           m1, m0, m1, 0x11            ; v < 0 (false for -0 and NaN)
    vbroadcastss    m4, [sign_mask]
    andps           m1, m1, m4
    xorps           m0, m3, m1
%endmacro

; v (m0) -> v^2.4 for v > 0, else +0, as ssimu2_pow24(); m1-m5 clobbered
%macro POW24 0
    xorps           m1, m1, m1
    cmpps           m5, m0, m1, 0x1e            ; v > 0
    mulps           m0, m0, m0                  ; x2 = v * v
    vpbroadcastd    m4, [magic5]
    pmuludq         m1, m0, m4                  ; even elements: bits(x2) / 5
    psrlq           m1, 34
    psrlq           m2, m0, 32                  ; odd elements
    pmuludq         m2, m4
    psrlq           m2, 34
    psllq           m2, 32
    vpblendd        m1, m1, m2, 0xaa
    vpbroadcastd    m4, [root5_bias]
    paddd           m1, m4                      ; r: estimate of x2^(1/5)
    vbroadcastss    m4, [fifth]
%rep 5
    mulps           m2, m1, m1                  ; r2
    mulps           m2, m2, m2                  ; r4
    divps           m2, m0, m2                  ; x2 / r4
    subps           m2, m1, m2                  ; r - x2 / r4
    mulps           m2, m2, m4
    subps           m1, m1, m2
%endrep
    mulps           m0, m0, m1                  ; x2 * r
    andps           m0, m0, m5
%endmacro

; void eotf_row(float *v, int w, int transfer): SSIMU2_TRC_SRGB 0, BT1886 1, LINEAR 2
cglobal ssimulacra2_eotf_row, 3, 5, 7, v, w, transfer, x, left
    cmp      transferd, 1
    ja .end
    movsxdifnidn    wq, wd
    xor             xq, xq
.loop:
    mov          leftq, wq
    sub          leftq, xq
    jle .end
    cmp          leftq, 8
    jl .last
    movu            m0, [vq + xq * 4]
    jmp .curve
.last:
    ; the last w - x < 8 elements through masked loads and stores (the mask:
    ; w - x dwords of -1 from tail_mask + 32 - 4 * (w - x)); w = 0 marks it
    neg          leftq
    lea             wq, [tail_mask + 32]
    movu            m6, [wq + leftq * 4]
    vmaskmovps      m0, m6, [vq + xq * 4]
    xor             wq, wq
.curve:
    test     transferd, transferd
    jnz .pow
    SRGB_TO_LINEAR
    jmp .store
.pow:
    POW24
.store:
    test            wq, wq
    jz .store_last
    movu [vq + xq * 4], m0
    add             xq, 8
    jmp .loop
.store_last:
    vmaskmovps [vq + xq * 4], m6, m0
.end:
    RET

; void unpack16(const uint16_t *src, int n, int shift, int mask, int *dst)
; dst[x] = (src[x] >> shift) & mask
cglobal ssimulacra2_unpack16, 5, 7, 3, src, n, shift, mask, dst, x, tmp
    movd           xm1, shiftd
    movd           xm2, maskd
    vpbroadcastd    m2, xm2
    xor             xd, xd
.loop:
    lea           tmpd, [xq + 8]
    cmp           tmpd, nd
    jg .tail
    pmovzxwd        m0, [srcq + xq * 2]
    psrld           m0, xm1
    pand            m0, m2
    movu [dstq + xq * 4], m0
    add             xd, 8
    jmp .loop
.tail:
    cmp             xd, nd
    jge .end
    movzx         tmpd, word [srcq + xq * 2]
    movd           xm0, tmpd
    psrld          xm0, xm1
    pand           xm0, xm2
    movd [dstq + xq * 4], xm0
    inc             xd
    jmp .tail
.end:
    RET
; unpack8: 8 samples at x + %2 with step %1 (step 3: nq = 3 * x); m7 the
; shuffle of steps 3 and 4, the mask 0xff of step 2
%macro UNPACK8_BLOCK 2
%if %1 == 1
    pmovzxbd        m0, [srcq + xq + %2]
%elif %1 == 2
    pmovzxwd        m0, [srcq + xq * 2 + 2 * %2]
    pand            m0, m0, m7
%elif %1 == 3
    movu           xm0, [srcq + nq + 3 * %2]
    vinserti128     m0, m0, [srcq + nq + 3 * %2 + 6], 1
    pshufb          m0, m0, m7
%else
    movu           xm0, [srcq + xq * 4 + 4 * %2]
    vinserti128     m0, m0, [srcq + xq * 4 + 4 * %2 + 13], 1
    pshufb          m0, m0, m7
%endif
    movu [dstq + xq * 4 + 4 * %2], m0
%endmacro

; the samples of step %1: 32 at a time, then 8 at a time, then the last 8
; again (overlapping) when n is not a multiple of 8; lastd = n - 8 >= 0.
; Step 2 reads the byte after the last sample of a block: its blocks end
; before the last sample, and the last block is read one byte early
%macro UNPACK8_STEP 1
%if %1 == 2
    lea          stepd, [nq - 33]
%else
    lea          stepd, [nq - 32]
%endif
    jmp .cmp32_%1
.loop32_%1:
%if %1 == 3
    lea             nd, [xq + xq * 2]
%endif
    UNPACK8_BLOCK   %1, 0
    UNPACK8_BLOCK   %1, 8
    UNPACK8_BLOCK   %1, 16
    UNPACK8_BLOCK   %1, 24
    add             xd, 32
.cmp32_%1:
    cmp             xd, stepd
    jle .loop32_%1
%if %1 != 2
    lea          stepd, [lastq + 8]         ; n
%endif
    jmp .cmp8_%1
.loop8_%1:
%if %1 == 3
    lea             nd, [xq + xq * 2]
%endif
    UNPACK8_BLOCK   %1, 0
    add             xd, 8
.cmp8_%1:
    cmp             xd, lastd
%if %1 == 2
    jl .loop8_%1
    pmovzxwd        m0, [srcq + lastq * 2 - 1]
    psrld           m0, 8
    movu [dstq + lastq * 4], m0
%else
    jle .loop8_%1
    cmp             xd, stepd
    je .end
    mov             xd, lastd
%if %1 == 3
    lea             nd, [xq + xq * 2]
%endif
    UNPACK8_BLOCK   %1, 0
%endif
    RET
%endmacro

; void unpack8(const uint8_t *src, int n, int step, int *dst): dst[x] = src[step * x]
; steps 1 to 4 eight samples at a time, reading no byte outside src[0] ..
; src[step * (n - 1)] (steps 3 and 4: two 16-byte loads, the second ending
; at the last sample), other steps and n < 8 (step 2: n < 9) one at a time
cglobal ssimulacra2_unpack8, 4, 6, 8, src, n, step, dst, x, last
    xor             xd, xd
    lea          lastd, [nq - 8]            ; start of the last block of 8
    test         lastd, lastd
    jl .scalar
    cmp          stepd, 1
    je .step1
    cmp          stepd, 3
    je .step3
    cmp          stepd, 2
    je .step2
    cmp          stepd, 4
    jne .scalar
    mova            m7, [pix_pb_unpack4]
    UNPACK8_STEP 4
.step3:
    mova            m7, [pix_pb_unpack3]
    UNPACK8_STEP 3
.step2:
    test         lastd, lastd
    jz .scalar
    mova            m7, [pix_pd_0xff]
    UNPACK8_STEP 2
.step1:
    UNPACK8_STEP 1
.scalar:                                    ; 4 samples at a time, then 1
    movsxdifnidn stepq, stepd
    lea          lastd, [nq - 4]
    jmp .cmp4
.loop4:
    movzx           nd, byte [srcq]
    mov [dstq + xq * 4], nd
    movzx           nd, byte [srcq + stepq]
    mov [dstq + xq * 4 + 4], nd
    movzx           nd, byte [srcq + stepq * 2]
    mov [dstq + xq * 4 + 8], nd
    lea           srcq, [srcq + stepq * 2]
    movzx           nd, byte [srcq + stepq]
    mov [dstq + xq * 4 + 12], nd
    lea           srcq, [srcq + stepq * 2]
    add             xd, 4
.cmp4:
    cmp             xd, lastd
    jle .loop4
    add          lastd, 4                   ; n
    cmp             xd, lastd
    jge .end
.loop1:
    movzx           nd, byte [srcq]
    mov [dstq + xq * 4], nd
    add           srcq, stepq
    inc             xd
    cmp             xd, lastd
    jl .loop1
.end:
    RET

%if ARCH_X86_64
; Loop control of xyb_row: blocks of 8 while x <= w - 8 (wd holds w - 8), then
; the last w - x < 8 elements through masked loads and stores, mask dwords -1
; from tail_mask + 4 * (8 - (w - x)), its address left in %1q (%2q a scratch
; register)
%macro XYB_TAIL_MASK_ADDR 2
    sub             wd, xd                  ; (w - x) - 8, -8 when nothing is left
    cmp             wd, -8
    jle .end
    neg             wd
    lea            %2q, [tail_mask]
    lea            %1q, [%2q + wq * 4]
%endmacro

; yuv_row: the columns x run from -w to 0 (the row pointers advanced by w);
; blocks of 8 columns at x + %2 (%2: displacement of the addresses), the
; last w % 8 columns masked, the mask at maskq (base0q)

; %1: mask of the gather (or of a masked load or store) into %2
%macro YUV_MASK 2
%if %1
    movu            %2, [maskq]
%else
    pcmpeqd         %2, %2, %2
%endif
%endmacro

; %1 masked, %2 destination, %3 source: a load or a store (one side memory)
%macro YUV_MOVE 3
%if %1
    YUV_MASK        %1, m7
    vpmaskmovd      %2, m7, %3
%else
    movu            %2, %3
%endif
%endmacro

; %2 <- the taps of row %3 at the indices of %4 (m0 for x0, m1 for x1), as
; floats; %5: gather, or the register of the first element of an 8-element
; window of the row that holds the taps (%4 then holds the indices minus it)
%macro YUV_TAPS 5
%ifidn %5, gather
    YUV_MASK        %1, m7
    pxor            %2, %2, %2              ; no dependency on the old contents
    vpgatherdd      %2, [%3q + %4 * 4], m7
%else
    vpermd          %2, %4, [%3q + %5q * 4]
%endif
    cvtdq2ps        %2, %2
%endmacro

; %1 masked; %2 <- ssimu2_bilinear() of rows %3 (above), %4 (below), taps m0
; (x0) and m1 (x1), wx1 m2, wx0 m3, wy1 m9, wy0 m10; %5, %6 clobbered;
; %7, %8: how the taps of x0, x1 are fetched (YUV_TAPS)
%macro YUV_BILINEAR 8
    YUV_TAPS        %1, %2, %3, m0, %7      ; c00
    YUV_TAPS        %1, %5, %3, m1, %8      ; c01
    mulps           %2, %2, m3              ; wx0 * c00
    mulps           %5, %5, m2              ; wx1 * c01
    addps           %2, %2, %5              ; top
    YUV_TAPS        %1, %5, %4, m0, %7      ; c10
    YUV_TAPS        %1, %6, %4, m1, %8      ; c11
    mulps           %5, %5, m3
    mulps           %6, %6, m2
    addps           %5, %5, %6              ; bot
    mulps           %2, %2, m10             ; wy0 * top
    mulps           %5, %5, m9              ; wy1 * bot
    addps           %2, %2, %5
%endmacro

; ssimu2_clip01(): max(v, +0) gives +0 for NaN, -0 and negatives (maxps
; returns its second operand unless the first is greater), then min(., 1);
; vmaxps, vminps: x86inc's maxps, minps would swap the operands of m0-m7 with
; those of m8-m15 (the shorter encoding), which changes the result for NaN and
; signed zeros
%macro YUV_CLIP01 1
    vmaxps          %1, %1, m6
    vminps          %1, %1, m8
%endmacro

; 8 columns at x + %2; %1: the last w % 8 columns, masked; %3: gather (taps
; by gathers), else by permutations of the windows at base0q, base1q (m0, m1
; already hold x0 - base0, x1 - base1)
%macro YUV_BLOCK 3
%ifidn %3, gather
    YUV_MOVE        %1, m0, [x0q + xq * 4 + %2]
    YUV_MOVE        %1, m1, [x1q + xq * 4 + %2]
    %define %%t0 gather
    %define %%t1 gather
%else
    %define %%t0 base0
    %define %%t1 base1
%endif
    YUV_MOVE        %1, m2, [wxq + xq * 4 + %2]
    subps           m3, m8, m2              ; wx0 = 1 - wx1
    YUV_BILINEAR    %1, m4, u0, u1, m5, m6, %%t0, %%t1  ; Cb
    YUV_BILINEAR    %1, m5, v0, v1, m6, m15, %%t0, %%t1 ; Cr
    YUV_MOVE        %1, m0, [lumaq + xq * 4 + %2]
    cvtdq2ps        m0, m0
    subps           m0, m0, m11
    mulps           m0, m0, m12             ; yn = (y - y_off) * y_scale
    subps           m4, m4, m13
    mulps           m4, m4, m14             ; cb = (u - c_off) * c_scale
    subps           m5, m5, m13
    mulps           m5, m5, m14             ; cr
    pxor            m6, m6, m6
    vbroadcastss    m1, [colourq + COLOUR_CR_R]
    mulps           m1, m1, m5
    addps           m1, m0, m1              ; yn + cr_r * cr
    YUV_CLIP01          m1
    vbroadcastss    m2, [colourq + COLOUR_CB_G]
    mulps           m2, m2, m4
    subps           m2, m0, m2              ; yn - cb_g * cb
    vbroadcastss    m3, [colourq + COLOUR_CR_G]
    mulps           m3, m3, m5
    subps           m2, m2, m3              ; (yn - cb_g * cb) - cr_g * cr
    YUV_CLIP01          m2
    vbroadcastss    m3, [colourq + COLOUR_CB_B]
    mulps           m3, m3, m4
    addps           m3, m0, m3              ; yn + cb_b * cb
    YUV_CLIP01          m3
    YUV_MOVE        %1, [outrq + xq * 4 + %2], m1
    YUV_MOVE        %1, [outgq + xq * 4 + %2], m2
    YUV_MOVE        %1, [outbq + xq * 4 + %2], m3
%endmacro

; void yuv_row(const int *luma, const int *const c[2][2], const int *x0, const int *x1,
;              const float *wx, float wy, const SSIMU2Colour *p, int w,
;              float *r, float *g, float *b)
; as ssimu2_bilinear() and ssimu2_yuv_to_rgb(). The taps of 8 columns: when
; x0 - (x0[7] - 7) and x1 - (x1[7] - 7) are all in 0 .. 7 (taps of
; subsampled or full-resolution chroma: indices that grow by at most 1 per
; column), permutations of the 8 samples of each row that end at x0[7] (x1[7]),
; else (and in the last w % 8 columns) gathers; the samples are the same
%if WIN64
cglobal ssimulacra2_yuv_row, 11, 15, 16, luma, chroma, x0, x1, wx, wy, colour, x, outr, outg, outb, \
                                         u0, u1, v0, v1
    vbroadcastss    m9, wym
    %define base1q r5q
    %define base1d r5d
%else
cglobal ssimulacra2_yuv_row, 10, 15, 16, luma, chroma, x0, x1, wx, colour, x, outr, outg, outb, \
                                         u0, u1, v0, v1, base1
    vbroadcastss    m9, xm0
%endif
    mov            u0q, [chromaq]
    mov            u1q, [chromaq + gprsize]
    mov            v0q, [chromaq + 2 * gprsize]
    mov            v1q, [chromaq + 3 * gprsize]
    %define base0q chromaq
    %define base0d chromad
    %define maskq  chromaq
    mova            m8, [ps_one]
    subps          m10, m8, m9              ; wy0 = 1 - wy
    vbroadcastss   m11, [colourq + COLOUR_Y_OFF]
    vbroadcastss   m12, [colourq + COLOUR_Y_SCALE]
    vbroadcastss   m13, [colourq + COLOUR_C_OFF]
    vbroadcastss   m14, [colourq + COLOUR_C_SCALE]
    movsxd          xq, xd
    lea          lumaq, [lumaq + xq * 4]
    lea            x0q, [x0q + xq * 4]
    lea            x1q, [x1q + xq * 4]
    lea            wxq, [wxq + xq * 4]
    lea          outrq, [outrq + xq * 4]
    lea          outgq, [outgq + xq * 4]
    lea          outbq, [outbq + xq * 4]
    neg             xq
    add             xq, 8                   ; x + 8: the end of the block
    jg .tail
.loop:
    mov         base0d, [x0q + xq * 4 - 4]  ; x0[x + 7]
    mov         base1d, [x1q + xq * 4 - 4]
    sub         base0d, 7
    jl .gather
    sub         base1d, 7
    jl .gather
    movd           xm0, base0d
    movd           xm1, base1d
    vpbroadcastd    m0, xm0
    vpbroadcastd    m1, xm1
    movu            m2, [x0q + xq * 4 - 32]
    movu            m3, [x1q + xq * 4 - 32]
    psubd           m0, m2, m0
    psubd           m1, m3, m1
    por             m2, m0, m1
    ptest           m2, [pix_pd_not7]
    jnz .gather
    YUV_BLOCK 0, -32, window
.next:
    add             xq, 8
    jle .loop
.tail:
    sub             xq, 8                   ; -x columns left
    jge .end
    lea         base1q, [tail_mask + 32]
    lea          maskq, [base1q + xq * 4]
    YUV_BLOCK 1, 0, gather
.end:
    RET
.gather:
    YUV_BLOCK 0, -32, gather
    jmp .next
%undef base0q
%undef base0d
%undef maskq
%if WIN64
%undef base1q
%undef base1d
%endif

; NaN inputs: where two operands of an operation can be NaN, the one that
; comes out depends on the operand order (both vendors: the first factor of
; the form's product, then the second, then the addend; the first source of
; the others). The order here is that of the C as GCC builds it with glibc's
; FMA fmaf() (vfmadd213ss a, b, c): in the opsin sums g or r before the sum so
; far (dest of vfmadd132ps), |v| + v (so a NaN v comes out positive), x before
; r * r in the last step of the cube root. -t and -x can take their sign from
; a NaN x only, whose NaN wins that last step: x * -k13 and vfnmadd give the
; same bits. No score depends on which NaN comes out.
; Constants: m13 k43, m14 -k13, m15 k13

; %1 <- ssimu2_opsin() of R %5, G %6, B %7 with the matrix row %2, %3, %4
; clobbered; %8: the last row, which consumes R and G
%macro XYB_OPSIN 8
    mova            %3, [pix_ps_opsin%2_b]
    vfmadd213ps     %3, %7, [pix_ps_opsin_bias] ; fmaf(b, m2, bias)
%if %8
    vfmadd132ps     %6, %3, [pix_ps_opsin%2_g]  ; fmaf(g, m1, .)
    vfmadd132ps     %5, %6, [pix_ps_opsin%2_r]  ; v = fmaf(r, m0, .)
    andps           %1, %5, [ps_abs]
    vaddps          %1, %1, %5              ; |v| + v (vaddps: x86inc's addps may swap the operands)
%else
    mova            %4, %6
    vfmadd132ps     %4, %3, [pix_ps_opsin%2_g]  ; fmaf(g, m1, .)
    mova            %3, %5
    vfmadd132ps     %3, %4, [pix_ps_opsin%2_r]  ; v = fmaf(r, m0, .)
    andps           %1, %3, [ps_abs]
    vaddps          %1, %1, %3              ; |v| + v
%endif
    mulps           %1, %1, [pix_ps_half]
%endmacro

; ssimu2_cbrt_add(x, -0.155954197) in steps, x %1, r %2, -t %3, scratch %4,
; so that three run side by side
%macro XYB_CBRT_START 4
    psrld           %2, %1, 23
    pmulld          %2, %2, [pix_pd_cbrt_mul]
    mova            %4, [pix_pd_cbrt_magic]
    psubd           %2, %4, %2
    pxor            %4, %4, %4
    pcmpeqd         %4, %4, %1              ; bits == 0
    pandn           %2, %4, %2              ; r: the estimate, 0 for bits 0
    mulps           %3, %1, m14             ; -t = x * -k13
%endmacro

%macro XYB_CBRT_NEWTON 4
    mulps           %4, %2, %2              ; r2
    mulps           %2, %2, m13             ; r * k43
    mulps           %4, %4, %4              ; r2 * r2
    vfmadd231ps     %2, %3, %4              ; r = fma(-t, r2 * r2, r * k43)
%endmacro

; the result in %4
%macro XYB_CBRT_END 4
    mulps           %4, %2, %2
    mulps           %4, %4, %4
    vfnmadd213ps    %4, %1, %2              ; fma(-x, r2 * r2, r)
    vfmadd213ps     %4, m15, %2             ; r = fma(k13, ., r)
    mulps           %4, %4, %4
    vfmadd213ps     %4, %1, [pix_ps_cbrt_bias]  ; fma(r * r, x, add)
%endmacro

%macro XYB_CBRT3 1
    XYB_CBRT_%1     m0, m1, m2, m3
    XYB_CBRT_%1     m4, m5, m6, m7
    XYB_CBRT_%1     m8, m9, m10, m11
%endmacro

; 8 pixels at x; %1: the last w - x < 8, masked (the mask at tmpq)
%macro XYB_BLOCK 1
%if %1
    movu            m1, [tmpq]
    vmaskmovps     m12, m1, [inrq + xq * 4]
    vmaskmovps      m3, m1, [ingq + xq * 4]
    vmaskmovps      m7, m1, [inbq + xq * 4]
%else
    movu           m12, [inrq + xq * 4]
    movu            m3, [ingq + xq * 4]
    movu            m7, [inbq + xq * 4]
%endif
    XYB_OPSIN           m0, 0, m1, m2, m12, m3, m7, 0
    XYB_OPSIN           m4, 1, m5, m6, m12, m3, m7, 0
    XYB_OPSIN           m8, 2, m9, m10, m12, m3, m7, 1
    XYB_CBRT3 START
    XYB_CBRT3 NEWTON
    XYB_CBRT3 NEWTON
    XYB_CBRT3 NEWTON
    XYB_CBRT3 END                               ; c0 m3, c1 m7, c2 m11
    vsubps          m0, m3, m7
    mulps           m0, m0, [pix_ps_half]       ; x = 0.5 * (c0 - c1)
    vaddps          m2, m7, m3
    mulps           m2, m2, [pix_ps_half]       ; y = 0.5 * (c1 + c0)
    vsubps          m1, m11, m2
    addps           m1, m1, [pix_ps_0_55]       ; (c2 - y) + 0.55
    mulps           m0, m0, [pix_ps_14]
    addps           m0, m0, [pix_ps_0_42]       ; x * 14 + 0.42
    addps           m2, m2, [pix_ps_0_01]       ; y + 0.01
%if %1
    movu            m3, [tmpq]
    vmaskmovps [outxq + xq * 4], m3, m0
    vmaskmovps [outyq + xq * 4], m3, m2
    vmaskmovps [outbq + xq * 4], m3, m1
%else
    movu [outxq + xq * 4], m0
    movu [outyq + xq * 4], m2
    movu [outbq + xq * 4], m1
%endif
%endmacro

; void xyb_row(const float *r, const float *g, const float *b, int w,
;              float *x, float *y, float *bb): ssimu2_linear_to_xyb()
cglobal ssimulacra2_xyb_row, 7, 9, 16, inr, ing, inb, w, outx, outy, outb, x, tmp
    mova           m13, [pix_ps_k43]
    mova           m14, [pix_ps_neg_k13]
    mova           m15, [pix_ps_k13]
    xor             xd, xd
    sub             wd, 8
    jl .tail
.loop:
    XYB_BLOCK 0
    add             xd, 8
    cmp             xd, wd
    jle .loop
.tail:
    XYB_TAIL_MASK_ADDR  tmp, tmp
    XYB_BLOCK 1
.end:
    RET
%endif ; ARCH_X86_64
; void blur_cols(const float *const blur[5], const float *x1p, const float *x2p,
;                ptrdiff_t xyb_stride, int h, int ring_mask, int n0, int n1, int bw,
;                float *state, float *out, double *const colsum[6])
; The vertical recursive Gaussian of the five quantities over a block of
; columns, fused with the per-pixel terms: blur_cols_c() of ssimulacra2_dsp.c,
; operation by operation, 8 columns per register (4 for the double part). The
; arithmetic is written with v-prefixed mnemonics: x86inc may swap the sources
; of a commutative instruction, and the order of the operands decides which
; NaN an operation on two NaNs returns (a zero SSIM denominator gives NaN
; terms); no score depends on that, but the order is kept fixed.
;
; Each row takes two passes over the block: the first runs the recursions and
; the float part of the terms up to the two divisions of each pixel, the
; second (4 columns at a time) the double part and the column sums. One pass would leave the out-of-order window waiting on the long
; chain of each pixel (recursion, float quotient, double quotient, powers, sum).
; The state of the last bw % 8 columns and the sums of the last bw % 4 are
; kept on the stack during the call: masked stores are slow on some CPUs.

%if ARCH_X86_64
; stack frame of blur_cols
%define COLS_PTRS   0       ; row pointers of the current row: pl[0..4], pr[0..4]
%define COLS_BLUR   80
%define COLS_X1P    88
%define COLS_X2P    96
%define COLS_STRIDE 104
%define COLS_OUT    112
%define COLS_STATE  120
%define COLS_BW8    128     ; qword: bw & ~7
%define COLS_BW4    136     ; qword: bw & ~3
%define COLS_COLSUM 144
%define COLS_H      152     ; dwords from here
%define COLS_MASK   156
%define COLS_N1     160
%define COLS_LAST   164     ; n1 - 1
%define COLS_REM    168     ; bw & 7
%define COLS_REM4   172     ; bw & 3
%define COLS_MASKF  192     ; vmaskmovps mask of the last bw & 7 columns
%define COLS_MASKD  224     ; vmaskmovpd mask of the last bw & 3 columns
%define COLS_RATIO  256     ; the SSIM ratios of the row, as doubles (64)
%define COLS_QUOT   768     ; the edge quotients (1 + e2) / (1 + e1) (64 doubles)
%define COLS_TSUM   1280    ; the sums of the last bw & 3 columns, [6][4] doubles
%define COLS_TSTATE 1472    ; the state of the last bw & 7 columns, [2][15][8] floats
%define COLS_STACK  2432

; resonator k of one quantity: y (m4 + k) = fma(n2, s, -fma(d1, prev, prev2));
; prev at paq + %2, prev2 at pbq + %2, overwritten by y
%macro COLS_STEP 2 ; k, offset
%assign %%y %1 + 4
%assign %%d %1 + 8
%assign %%n %1 + 11
    movu       m %+ %%y, [pbq + %2]
    vfmadd231ps m %+ %%y, m %+ %%d, [paq + %2]
    vxorps     m %+ %%y, m %+ %%y, m14
    vfmadd231ps m %+ %%y, m %+ %%n, m7
    movu            [pbq + %2], m %+ %%y
%endmacro

; the five blurred quantities of 8 columns: m0..m3 = q0..q3, m6 = q4, from the
; state at paq / pbq (prev / prev2 of quantity 0; the new values overwrite
; prev2, the two halves of the state swap roles every row)
; m8-m10: d1, m11-m13: n2, m14: sign mask; m15: mask of the input (tail)
%macro COLS_RECUR 1 ; tail (state rows of 8 floats on the stack, masked input)
%assign %%q 0
%rep 5
    mov             tq, [rsp + COLS_PTRS + (5 + %%q) * 8]
%if %1
    vmaskmovps      m5, m15, [tq + xq * 4]
    mov             tq, [rsp + COLS_PTRS + %%q * 8]
    vmaskmovps      m7, m15, [tq + xq * 4]
    vaddps          m7, m5, m7                  ; s = pr + pl
    COLS_STEP       0, 0
    COLS_STEP       1, 32
    COLS_STEP       2, 64
%else
    movu            m5, [tq + xq * 4]
    mov             tq, [rsp + COLS_PTRS + %%q * 8]
    vaddps          m7, m5, [tq + xq * 4]
    COLS_STEP       0, 0
    COLS_STEP       1, bw4q
    COLS_STEP       2, bw4q * 2
%endif
    vaddps          m6, m6, m5                  ; (y2 + y1) + y0
%if %%q < 4
    vaddps     m %+ %%q, m6, m4
%if %1
    add            paq, 96
    add            pbq, 96
%else
    add            paq, bw12q
    add            pbq, bw12q
%endif
%else
    vaddps          m6, m6, m4
%endif
%assign %%q %%q + 1
%endrep
%endmacro

; the blurred values of the last row into out
%macro COLS_STORE_OUT 1 ; masked
    mov             tq, [rsp + COLS_OUT]
    lea             tq, [tq + xq * 4]
%if %1
    vmaskmovps      [tq], m15, m0
    vmaskmovps      [tq + bw4q], m15, m1
    vmaskmovps      [tq + bw4q * 2], m15, m2
    vmaskmovps      [tq + bw12q], m15, m3
    vmaskmovps      [tq + bw4q * 4], m15, m6
%else
    movu          [tq], m0
    movu          [tq + bw4q], m1
    movu          [tq + bw4q * 2], m2
    movu          [tq + bw12q], m3
    movu          [tq + bw4q * 4], m6
%endif
%endmacro

; ssimu2_ssim_ratio() and the quotient of ssimu2_edge_quotient() of 8 columns
; (mu1 m0, mu2 m1, s11 m2, s22 m3, s12 m6), as doubles into the row's buffers
%macro COLS_RATIOS 1 ; masked
    vmulps          m4, m0, m1                  ; mu12
    vsubps          m5, m0, m1                  ; dm
    vmulps          m5, m5, m5
    vsubps          m4, m6, m4                  ; s12 - mu12
    vmulps          m7, m0, m0                  ; mu11
    mova            m6, [ps_one]
    vsubps          m5, m6, m5                  ; num_m = 1 - dm * dm
    vaddps          m4, m4, m4                  ; 2 * (s12 - mu12)
    vaddps          m4, m4, [cols_c2]           ; num_s
    vmulps          m4, m4, m5                  ; num_s * num_m
    vmulps          m5, m1, m1                  ; mu22
    vsubps          m3, m3, m5
    vsubps          m2, m2, m7
    vaddps          m3, m3, m2                  ; (s22 - mu22) + (s11 - mu11)
    vaddps          m3, m3, [cols_c2]           ; den_s
    vdivps          m4, m4, m3                  ; ratio
%if %1
    vmaskmovps      m5, m15, [x2rq + xq * 4]
    vmaskmovps      m7, m15, [x1rq + xq * 4]
%else
    movu            m5, [x2rq + xq * 4]
    movu            m7, [x1rq + xq * 4]
%endif
    vsubps          m5, m5, m1
    vandps          m5, m5, [ps_abs]        ; |x2 - mu2|
    vsubps          m7, m7, m0
    vandps          m7, m7, [ps_abs]        ; |x1 - mu1|
    mova            m6, [cols_one_d]
    vcvtps2pd       m0, xm5
    vcvtps2pd       m1, xm7
    vextractf128   xm5, m5, 1
    vextractf128   xm7, m7, 1
    vcvtps2pd       m5, xm5
    vcvtps2pd       m7, xm7
    vaddpd          m0, m0, m6                  ; e2 + 1
    vaddpd          m1, m1, m6                  ; e1 + 1
    vaddpd          m5, m5, m6
    vaddpd          m7, m7, m6
    vdivpd          m0, m0, m1
    vdivpd          m5, m5, m7
    vcvtps2pd       m1, xm4
    vextractf128   xm4, m4, 1
    vcvtps2pd       m4, xm4
    mova [rsp + COLS_QUOT + xq * 8], m0
    mova [rsp + COLS_QUOT + xq * 8 + 32], m5
    mova [rsp + COLS_RATIO + xq * 8], m1
    mova [rsp + COLS_RATIO + xq * 8 + 32], m4
%endmacro

; colsum[k][x..x+3] += v (v + c: the operand order decides only which NaN a
; sum returns, which the C does not fix either)
%macro COLS_ACC 3 ; tail (the last bw % 4 columns' sums on the stack), k, v
%if %1
    vaddpd          %3, %3, [rsp + COLS_TSUM + %2 * 32]
    mova            [rsp + COLS_TSUM + %2 * 32], %3
%else
    vaddpd          %3, %3, [c %+ %2 %+ q + xq * 8]
    movu            [c %+ %2 %+ q + xq * 8], %3
%endif
%endmacro

; the rest of ssimu2_pixel_terms() for 4 columns from the row's buffers, into
; the column sums (pointers c0q..c5q); m12 = 1.0, m13 = -1.0, m14 = 0.5,
; m15 = the mask of |x|
%macro COLS_TERMS 1 ; tail
    mova            m0, [rsp + COLS_RATIO + xq * 8]
    mova            m1, [rsp + COLS_QUOT + xq * 8]
    vsubpd          m0, m12, m0                 ; d = 1 - ratio
    vaddpd          m2, m1, m13                 ; q = quotient - 1
    vsubpd          m1, m12, m1                 ; -q, as 1 - quotient (compiled)
    vandpd          m3, m2, m15                 ; |q|
    vaddpd          m2, m2, m3
    vaddpd          m1, m1, m3
    vmulpd          m2, m2, m14                 ; artifact: (q + |q|) * 0.5
    vmulpd          m1, m1, m14                 ; detail lost: (|q| - q) * 0.5
    vandpd          m3, m0, m15
    vaddpd          m0, m3, m0                  ; |d| + d
    vmulpd          m0, m0, m14                 ; d = (d + |d|) * 0.5
    vmulpd          m3, m0, m0
    vmulpd          m3, m3, m3
    vmulpd          m4, m2, m2
    vmulpd          m4, m4, m4
    vmulpd          m5, m1, m1
    vmulpd          m5, m5, m5
    COLS_ACC        %1, 0, m0
    COLS_ACC        %1, 1, m3
    COLS_ACC        %1, 2, m2
    COLS_ACC        %1, 3, m4
    COLS_ACC        %1, 4, m1
    COLS_ACC        %1, 5, m5
%endmacro

%macro COLS_CONSTS 0
    vbroadcastss    m8, [cols_d1]
    vbroadcastss    m9, [cols_d1 + 4]
    vbroadcastss   m10, [cols_d1 + 8]
    vbroadcastss   m11, [cols_n2]
    vbroadcastss   m12, [cols_n2 + 4]
    vbroadcastss   m13, [cols_n2 + 8]
    vbroadcastss   m14, [sign_mask]
%endmacro

cglobal ssimulacra2_blur_cols, 12, 15, 16, -COLS_STACK, blur, x1p, x2p, stride, h, mask, n0, n1, bw, state, out, colsum, t0, t1, t2
    cmp            n0d, n1d
    jge .end
    mov [rsp + COLS_BLUR], blurq
    mov [rsp + COLS_X1P], x1pq
    mov [rsp + COLS_X2P], x2pq
    mov [rsp + COLS_STRIDE], strideq
    mov [rsp + COLS_OUT], outq
    mov [rsp + COLS_STATE], stateq
    mov [rsp + COLS_COLSUM], colsumq
    mov [rsp + COLS_H], hd
    mov [rsp + COLS_MASK], maskd
    mov [rsp + COLS_N1], n1d
    lea            t0d, [n1q - 1]
    mov [rsp + COLS_LAST], t0d
    DEFINE_ARGS blur, x1p, x2p, stride, h, mask, n, n1, bw, state, out, colsum, t0, t1, t2
    movsxd         bwq, bwd
    mov            t0d, bwd
    and            t0d, ~7
    mov [rsp + COLS_BW8], t0q
    mov            t0d, bwd
    and            t0d, ~3
    mov [rsp + COLS_BW4], t0q
    lea            t0q, [tail_mask + 32]
    mov            t1d, bwd
    and            t1d, 7
    mov [rsp + COLS_REM], t1d
    neg            t1q
    movu            m0, [t0q + t1q * 4]
    mova [rsp + COLS_MASKF], m0
    mov            t1d, bwd
    and            t1d, 3
    mov [rsp + COLS_REM4], t1d
    neg            t1q
    vpmovsxdq       m1, [t0q + t1q * 4]
    mova [rsp + COLS_MASKD], m1
    ; the last bw & 7 columns of the state and bw & 3 of the sums live on the
    ; stack during the call (masked stores are slow on some CPUs)
    cmp dword [rsp + COLS_REM], 0
    je .tsum_in
    mov            t1q, [rsp + COLS_BW8]
    lea            t1q, [stateq + t1q * 4]
    xor            t2d, t2d
.tstate_in:
    vmaskmovps      m2, m0, [t1q]
    mova [rsp + COLS_TSTATE + t2q], m2
    lea            t1q, [t1q + bwq * 4]
    add            t2d, 32
    cmp            t2d, 30 * 32
    jl .tstate_in
.tsum_in:
    cmp dword [rsp + COLS_REM4], 0
    je .sums_in
    mov            t1q, [rsp + COLS_BW4]
%assign cols_i 0
%rep 6
    mov            t2q, [colsumq + cols_i * 8]
    vmaskmovpd      m2, m1, [t2q + t1q * 8]
    mova [rsp + COLS_TSUM + cols_i * 32], m2
%assign cols_i cols_i + 1
%endrep
%undef cols_i
.sums_in:
    DEFINE_ARGS pa, pb, x1r, x2r, x, t, n, bw12, bw4, basea, baseb, toff, t0, t1, t2
    shl           bw4q, 2
    lea          bw12q, [bw4q * 3]
    mov            t0q, bw4q
    shl            t0q, 4
    sub            t0q, bw4q                   ; 15 * bw floats
    lea         basebq, [baseaq + t0q]         ; prev2
    xor          toffd, toffd                  ; prev of the stack state: + 0 or + 480
.row:
    ; row pointers: l = n - 6 (zero row above the image), r = n + 4 (below)
    lea            t0d, [nq - 6]
    mov            t1d, t0d
    and            t1d, [rsp + COLS_MASK]
    shl            t1d, 6
    movsxd         t1q, t1d
    mov            t2q, [rsp + COLS_BLUR]
    lea             tq, [cols_zero]
    test           t0d, t0d
%assign cols_i 0
%rep 5
    mov             xq, [t2q + cols_i * 8]
    lea             xq, [xq + t1q * 4]
    cmovs           xq, tq
    mov [rsp + COLS_PTRS + cols_i * 8], xq
%assign cols_i cols_i + 1
%endrep
    lea            t0d, [nq + 4]
    mov            t1d, t0d
    and            t1d, [rsp + COLS_MASK]
    shl            t1d, 6
    movsxd         t1q, t1d
    cmp            t0d, [rsp + COLS_H]
%assign cols_i 0
%rep 5
    mov             xq, [t2q + cols_i * 8]
    lea             xq, [xq + t1q * 4]
    cmovge          xq, tq
    mov [rsp + COLS_PTRS + (5 + cols_i) * 8], xq
%assign cols_i cols_i + 1
%endrep
%undef cols_i
    test            nd, nd
    js .rows_set
    mov            t0d, nd
    and            t0d, [rsp + COLS_MASK]
    movsxd         t0q, t0d
    imul           t0q, [rsp + COLS_STRIDE]
    mov           x1rq, [rsp + COLS_X1P]
    lea           x1rq, [x1rq + t0q * 4]
    mov           x2rq, [rsp + COLS_X2P]
    lea           x2rq, [x2rq + t0q * 4]
.rows_set:
    ; first pass: 8 columns at a time
    COLS_CONSTS
    xor             xd, xd
    cmp             xq, [rsp + COLS_BW8]
    jge .tail
.group:
    lea            paq, [baseaq + xq * 4]
    lea            pbq, [basebq + xq * 4]
    COLS_RECUR      0
    cmp             nd, [rsp + COLS_LAST]
    jne .group_ratios
    COLS_STORE_OUT  0
.group_ratios:
    test            nd, nd
    js .group_next
    COLS_RATIOS     0
.group_next:
    add             xq, 8
    cmp             xq, [rsp + COLS_BW8]
    jl .group
.tail:
    ; the last bw % 8 columns: input through masked loads, state on the stack
    cmp dword [rsp + COLS_REM], 0
    je .terms
    lea            paq, [rsp + COLS_TSTATE + toffq]
    lea            pbq, [rsp + COLS_TSTATE + 480]
    sub            pbq, toffq
    mova           m15, [rsp + COLS_MASKF]
    COLS_RECUR      1
    cmp             nd, [rsp + COLS_LAST]
    jne .tail_ratios
    COLS_STORE_OUT  1
.tail_ratios:
    test            nd, nd
    js .row_next
    COLS_RATIOS     1
.terms:
    test            nd, nd
    js .row_next
    ; second pass: 4 columns at a time, then the last bw % 4 (their sums on
    ; the stack)
    DEFINE_ARGS c0, c1, c2, c3, x, c4, n, bw12, bw4, basea, baseb, toff, c5, t1, t2
    mov            t2q, [rsp + COLS_COLSUM]
    mov            c0q, [t2q]
    mov            c1q, [t2q + 8]
    mov            c2q, [t2q + 16]
    mov            c3q, [t2q + 24]
    mov            c4q, [t2q + 32]
    mov            c5q, [t2q + 40]
    mova           m12, [cols_one_d]
    mova           m13, [cols_mone_d]
    mova           m14, [cols_half_d]
    mova           m15, [cols_abs_d]
    xor             xd, xd
    cmp             xq, [rsp + COLS_BW4]
    jge .terms_tail
.terms_loop:
    COLS_TERMS      0
    add             xq, 4
    cmp             xq, [rsp + COLS_BW4]
    jl .terms_loop
.terms_tail:
    cmp dword [rsp + COLS_REM4], 0
    je .row_next
    COLS_TERMS      1
    DEFINE_ARGS pa, pb, x1r, x2r, x, t, n, bw12, bw4, basea, baseb, toff, t0, t1, t2
.row_next:
    xchg         baseaq, basebq
    xor          toffd, 480
    inc             nd
    cmp             nd, [rsp + COLS_N1]
    jl .row
    ; an odd number of rows leaves prev in the second half of the state: swap
    cmp          baseaq, [rsp + COLS_STATE]
    je .state_out
    mov            t0q, bw4q
    shl            t0q, 4
    sub            t0q, bw4q
    xor            t1q, t1q
.swap:
    lea            t2q, [t1q + 32]
    cmp            t2q, t0q
    jg .swap_tail
    movu            m0, [baseaq + t1q]
    movu            m1, [basebq + t1q]
    movu [baseaq + t1q], m1
    movu [basebq + t1q], m0
    mov            t1q, t2q
    jmp .swap
.swap_tail:
    cmp            t1q, t0q
    jge .state_out
    mov            t2d, [baseaq + t1q]
    mov             xd, [basebq + t1q]
    mov [baseaq + t1q], xd
    mov [basebq + t1q], t2d
    add            t1q, 4
    jmp .swap_tail
.state_out:
    ; the stack parts back, element by element
    mov           x1rd, [rsp + COLS_REM]
    test          x1rd, x1rd
    jz .tsum_out
    mov            t0q, [rsp + COLS_STATE]
    mov            t1q, [rsp + COLS_BW8]
    lea            t0q, [t0q + t1q * 4]        ; state column bw & ~7, prev
    lea            paq, [rsp + COLS_TSTATE + toffq]
    lea            pbq, [rsp + COLS_TSTATE + 480]
    sub            pbq, toffq
    lea            t2q, [t0q + bw4q * 8]
    lea            t2q, [t2q + bw4q * 4]
    lea            t2q, [t2q + bw12q]          ; prev2: + 15 * bw floats
    xor             td, td                     ; row
.tstate_out:
    xor             xd, xd
.tstate_out_col:
    mov            t1d, [paq + xq * 4]
    mov [t0q + xq * 4], t1d
    mov            t1d, [pbq + xq * 4]
    mov [t2q + xq * 4], t1d
    inc             xd
    cmp             xd, x1rd
    jl .tstate_out_col
    add            paq, 32
    add            pbq, 32
    add            t0q, bw4q
    add            t2q, bw4q
    inc             td
    cmp             td, 15
    jl .tstate_out
.tsum_out:
    mov           x1rd, [rsp + COLS_REM4]
    test          x1rd, x1rd
    jz .end
    mov            t0q, [rsp + COLS_COLSUM]
    mov            t1q, [rsp + COLS_BW4]
%assign cols_i 0
%rep 6
    mov            t2q, [t0q + cols_i * 8]
    lea            t2q, [t2q + t1q * 8]
    xor             xd, xd
.tsum_out %+ cols_i:
    mov             tq, [rsp + COLS_TSUM + cols_i * 32 + xq * 8]
    mov  [t2q + xq * 8], tq
    inc             xd
    cmp             xd, x1rd
    jl .tsum_out %+ cols_i
%assign cols_i cols_i + 1
%endrep
%undef cols_i
.end:
    RET
%endif ; ARCH_X86_64

%if ARCH_X86_64
; blur_rows needs 16 vector registers

%define ROWS_MUL_IN(k, j)    row_mul_in    + (4 * (k) + (j)) * 32
%define ROWS_MUL_PREV(k, j)  row_mul_prev  + (4 * (k) + (j)) * 32
%define ROWS_MUL_PREV2(k, j) row_mul_prev2 + (4 * (k) + (j)) * 32

; The lane buffer (another layout than the C version's, same operations):
; from lanesq rounded up to 64 bytes, rows of 16 floats, the quantities of
; sample i (lane c * 5 + q, lane 15 zero) in row i + 6 for i = -6 .. w + 3
; (zero outside the row): w + 10 rows and at most 60 bytes of alignment,
; inside the SSIMU2_ROW_SCRATCH(w) floats (w + 14 rows). Step n reads rows n
; (sample n - 6) and n + 10 (sample n + 4) and writes its output over row n,
; which no later step reads; steps -4 .. -1, whose samples n - 6 are left of
; the buffer, add zero instead. Each pass (lanes 0-7, then 8-15) runs the
; recursions of 8 lanes, one ymm each; the transpositions of the samples into
; rows and of the outputs into the tiles are done 4 lanes x 8 samples at a
; time, mostly between the blocks of the passes (ROWS_SIDE*).

; 4x4 transposes within the 128-bit halves of m%1-m%4 (m%1-m%6 clobbered):
; the rows (or lanes) come out in m%7, m%1, m%3, m%5
%macro ROWS_TRANS4 7
    unpckhps       m%5, m%1, m%2            ; A2 B2 A3 B3
    unpcklps       m%1, m%1, m%2            ; A0 B0 A1 B1
    unpckhps       m%6, m%3, m%4            ; C2 D2 C3 D3
    unpcklps       m%3, m%3, m%4            ; C0 D0 C1 D1
    shufps         m%7, m%1, m%3, q1010     ; A0 B0 C0 D0
    shufps         m%1, m%1, m%3, q3232     ; A1 B1 C1 D1
    shufps         m%3, m%5, m%6, q1010     ; A2 B2 C2 D2
    shufps         m%5, m%5, m%6, q3232     ; A3 B3 C3 D3
%endmacro

; m%1 = 8 samples of x%2[%3] from index %4
%macro ROWS_LOAD_X 4
    mov             tq, [x%2q + %3 * gprsize]
    movu          m%1, [tq + %4q * 4]
%endmacro

; low halves of m%3-m%6 to rows 0-3 of %1q at byte %2, high halves to rows 4-7
%macro ROWS_STORE_ROWS4 6
    movu  [%1q + 0 * 64 + %2], xm%3
    movu  [%1q + 1 * 64 + %2], xm%4
    movu  [%1q + 2 * 64 + %2], xm%5
    movu  [%1q + 3 * 64 + %2], xm%6
    vextractf128 [%1q + 4 * 64 + %2], m%3, 1
    vextractf128 [%1q + 5 * 64 + %2], m%4, 1
    vextractf128 [%1q + 6 * 64 + %2], m%5, 1
    vextractf128 [%1q + 7 * 64 + %2], m%6, 1
%endmacro

; The quantities of samples %1q .. %1q + 7 into rows %2q (of sample %1q) ..
; %2q + 7 * 64, lane groups 0-1 (ROWS_FILL_G01), 2 and 3; m6-m9, m11-m15 clobbered.
; a * a etc. as ssimu2_quantity_of().
%macro ROWS_FILL_G01 2
    ROWS_LOAD_X           6, 1, 0, %1            ; a0
    ROWS_LOAD_X           7, 2, 0, %1            ; b0
    mulps          m11, m6, m7
    mulps           m8, m6, m6
    mulps           m9, m7, m7
    ROWS_TRANS4           6, 7, 8, 9, 13, 14, 15 ; a0 b0 a0a0 b0b0
    ROWS_STORE_ROWS4     %2, 0, 15, 6, 8, 13
    ROWS_LOAD_X           6, 1, 1, %1            ; a1
    ROWS_LOAD_X           7, 2, 1, %1            ; b1
    mulps           m8, m6, m6
    ROWS_TRANS4          11, 6, 7, 8, 13, 14, 15 ; a0b0 a1 b1 a1a1
    ROWS_STORE_ROWS4     %2, 16, 15, 11, 7, 13
%endmacro

%macro ROWS_FILL_G2 2
    ROWS_LOAD_X           6, 1, 1, %1            ; a1
    ROWS_LOAD_X           7, 2, 1, %1            ; b1
    ROWS_LOAD_X           8, 1, 2, %1            ; a2
    ROWS_LOAD_X           9, 2, 2, %1            ; b2
    mulps          m11, m7, m7
    mulps          m12, m6, m7
    ROWS_TRANS4          11, 12, 8, 9, 13, 14, 15 ; b1b1 a1b1 a2 b2
    ROWS_STORE_ROWS4     %2, 32, 15, 11, 8, 13
%endmacro

%macro ROWS_FILL_G3 2
    ROWS_LOAD_X           6, 1, 2, %1            ; a2
    ROWS_LOAD_X           7, 2, 2, %1            ; b2
    mulps           m8, m6, m6
    mulps           m9, m7, m7
    mulps          m11, m6, m7
    xorps          m12, m12, m12
    ROWS_TRANS4           8, 9, 11, 12, 13, 14, 15 ; a2a2 b2b2 a2b2 0
    ROWS_STORE_ROWS4     %2, 48, 15, 8, 11, 13
%endmacro

; the five quantities of the channel c = %1 sample pair at index ixq into
; lanes 5c .. 5c + 4 of row rowq; xm0-xm4 clobbered
%macro ROWS_FILL_SCALAR 1
    mov             tq, [x1q + %1 * gprsize]
    movss          xm0, [tq + ixq * 4]
    mov             tq, [x2q + %1 * gprsize]
    movss          xm1, [tq + ixq * 4]
    mulss          xm2, xm0, xm0
    mulss          xm3, xm1, xm1
    mulss          xm4, xm0, xm1
    movss [rowq + 20 * %1 +  0], xm0
    movss [rowq + 20 * %1 +  4], xm1
    movss [rowq + 20 * %1 +  8], xm2
    movss [rowq + 20 * %1 + 12], xm3
    movss [rowq + 20 * %1 + 16], xm4
%endmacro

; One scalar step of 8 lanes (lanes_scalar(), ssimu2_row_step()) at row pq:
; s = row + row 10 further (%1 = 0: zero + row 10 further), output over the
; row unless %2 = 0. State m0-m2 (prev of resonators 0-2), m3-m5 (prev2);
; m6-m9 clobbered.
%macro ROWS_ROW_STEP 2
%if %1
    movu            m6, [pq]
%else
    xorps           m6, m6, m6
%endif
    addps           m6, m6, [pq + 10 * 64]  ; s = sl + sr
    mulps           m7, m6, [ROWS_MUL_IN(0, 0)]  ; o = s * mul_in
    mulps           m8, m6, [ROWS_MUL_IN(1, 0)]
    mulps           m9, m6, [ROWS_MUL_IN(2, 0)]
    vfmadd231ps     m7, m3, [ROWS_MUL_PREV2(0, 0)] ; o = fma(mul_prev2, prev2, o)
    vfmadd231ps     m8, m4, [ROWS_MUL_PREV2(1, 0)]
    vfmadd231ps     m9, m5, [ROWS_MUL_PREV2(2, 0)]
    movaps          m3, m0
    movaps          m4, m1
    movaps          m5, m2
    vfmadd132ps     m0, m7, [ROWS_MUL_PREV(0, 0)] ; y = fma(mul_prev, prev, o)
    vfmadd132ps     m1, m8, [ROWS_MUL_PREV(1, 0)]
    vfmadd132ps     m2, m9, [ROWS_MUL_PREV(2, 0)]
%if %2
    addps           m7, m1, m2
    addps           m7, m0, m7              ; y0 + (y1 + y2)
    movu         [pq], m7
%endif
%endmacro

; output j = %1 of a block: the three resonators' values so far (m13-m15)
; take fma(mp2[j], prev2, .) and fma(mp[j], prev, .), then y0 + (y1 + y2) is
; stored to row j of the block
%macro ROWS_BLOCK_OUT 1
    vfmadd231ps    m13, m3, [ROWS_MUL_PREV2(0, %1)]
    vfmadd231ps    m14, m4, [ROWS_MUL_PREV2(1, %1)]
    vfmadd231ps    m15, m5, [ROWS_MUL_PREV2(2, %1)]
    vfmadd231ps    m13, m0, [ROWS_MUL_PREV(0, %1)]
    vfmadd231ps    m14, m1, [ROWS_MUL_PREV(1, %1)]
    vfmadd231ps    m15, m2, [ROWS_MUL_PREV(2, %1)]
    addps          m14, m14, m15
    addps          m13, m13, m14
    movu [pq + %1 * 64], m13
%endmacro

; y[2] (m%2) and y[3] (m%3) of resonator %1 in ssimu2_resonator_block4()'s
; order, from the block's inputs s0-s3 (m6-m9), mi[0] of the resonator in m%4
; and its state prev2 (m%5), prev (m%6)
%macro ROWS_BLOCK_Y23 6
    mulps          m%2, m6, [ROWS_MUL_IN(%1, 2)]
    mulps          m%3, m6, [ROWS_MUL_IN(%1, 3)]
    vfmadd231ps    m%2, m7, [ROWS_MUL_IN(%1, 1)]
    vfmadd231ps    m%3, m7, [ROWS_MUL_IN(%1, 2)]
    vfmadd231ps    m%2, m8, m%4
    vfmadd231ps    m%3, m8, [ROWS_MUL_IN(%1, 1)]
    vfmadd231ps    m%3, m9, m%4
    vfmadd231ps    m%2, m%5, [ROWS_MUL_PREV2(%1, 2)]
    vfmadd231ps    m%3, m%5, [ROWS_MUL_PREV2(%1, 3)]
    vfmadd231ps    m%2, m%6, [ROWS_MUL_PREV(%1, 2)]
    vfmadd231ps    m%3, m%6, [ROWS_MUL_PREV(%1, 3)]
%endmacro

; One block of four steps of 8 lanes at row pq (lanes_block4(),
; ssimu2_resonator_block4()): outputs y[j] over rows j, all from the state
; before the block. m6-m9: inputs s0-s3; m10-m12: mul_in[k][0] (m10 set by
; the caller, kept); m13-m15 and the registers freed as the state is
; replaced: temporaries.
%macro ROWS_ROW_BLOCK 0
    movu            m6, [pq + 0 * 64]
    addps           m6, m6, [pq + 10 * 64]
    movu            m7, [pq + 1 * 64]
    addps           m7, m7, [pq + 11 * 64]
    movu            m8, [pq + 2 * 64]
    addps           m8, m8, [pq + 12 * 64]
    movu            m9, [pq + 3 * 64]
    addps           m9, m9, [pq + 13 * 64]
    mova           m11, [ROWS_MUL_IN(1, 0)]
    mova           m12, [ROWS_MUL_IN(2, 0)]
    ; y[0] = fma(mp[0], prev, fma(mp2[0], prev2, mi[0] * s0))
    mulps          m13, m6, m10
    mulps          m14, m6, m11
    mulps          m15, m6, m12
    ROWS_BLOCK_OUT  0
    ; y[1]: v = mi[1] * s0; v = fma(mi[0], s1, v); then prev2, prev
    mulps          m13, m6, [ROWS_MUL_IN(0, 1)]
    mulps          m14, m6, [ROWS_MUL_IN(1, 1)]
    mulps          m15, m6, [ROWS_MUL_IN(2, 1)]
    vfmadd231ps    m13, m7, m10
    vfmadd231ps    m14, m7, m11
    vfmadd231ps    m15, m7, m12
    ROWS_BLOCK_OUT  1
    ; y[2], y[3] of resonator 2 (m13, m14: its next prev2 and prev)
    ROWS_BLOCK_Y23  2, 13, 14, 12, 5, 2
    ; of resonator 1 (m15, m12)
    ROWS_BLOCK_Y23  1, 15, 12, 11, 4, 1
    addps           m2, m15, m13            ; y1 + y2 of y[2]
    addps           m5, m12, m14            ; of y[3]
    ; of resonator 0 (m1, m4)
    ROWS_BLOCK_Y23  0, 1, 4, 10, 3, 0
    addps           m2, m1, m2
    addps           m5, m4, m5
    movu [pq + 2 * 64], m2
    movu [pq + 3 * 64], m5
    ; the state: prev (m0-m2) = y[3], prev2 (m3-m5) = y[2]
    movaps          m0, m4
    movaps          m3, m1
    movaps          m1, m12
    movaps          m4, m15
    movaps          m2, m14
    movaps          m5, m13
%endmacro

; offq = os / 64 * tile_stride + os % 64, tq clobbered
%macro ROWS_OUT_OFFSET 0
    mov           offq, osq
    shr           offq, 6
    imul          offq, tsq
    mov             tq, osq
    and             tq, 63
    add           offq, tq
%endmacro

%macro ROWS_OUT_STORE 3
    mov             tq, [outq + (%1) * gprsize]
%if %3
    vmaskmovps [tq + offq * 4], m11, m%2
%else
    movu [tq + offq * 4], m%2
%endif
%endmacro

; Lanes 4 * %1 .. 4 * %1 + 3 of rows orowq .. orowq + 7 * 64 (samples os ..
; os + 7) to out[q] + offq, 8 samples of each lane, by masked stores (mask
; m11) if %2; m6-m9, m13-m15 clobbered
%macro ROWS_OUT_GROUP 2
    movu           xm6, [orowq + 0 * 64 + 16 * %1]
    movu           xm7, [orowq + 1 * 64 + 16 * %1]
    movu           xm8, [orowq + 2 * 64 + 16 * %1]
    movu           xm9, [orowq + 3 * 64 + 16 * %1]
    vinsertf128     m6, m6, [orowq + 4 * 64 + 16 * %1], 1
    vinsertf128     m7, m7, [orowq + 5 * 64 + 16 * %1], 1
    vinsertf128     m8, m8, [orowq + 6 * 64 + 16 * %1], 1
    vinsertf128     m9, m9, [orowq + 7 * 64 + 16 * %1], 1
    ROWS_TRANS4           6, 7, 8, 9, 13, 14, 15
    ROWS_OUT_STORE 4 * %1 + 0, 15, %2
    ROWS_OUT_STORE 4 * %1 + 1, 6, %2
    ROWS_OUT_STORE 4 * %1 + 2, 8, %2
%if %1 < 3
    ROWS_OUT_STORE 4 * %1 + 3, 13, %2
%endif
%endmacro

; work done between the blocks of the recursions (registers m6-m9, m11-m15
; free; m10 kept), after the first (A) and second (B) block of each pair, n
; a multiple of 8 at the first: during lanes 0-7, lane groups 2-3 of the
; samples fs .. fs + 7 (lanes 8-15, not read by this pass) and the output of
; lane groups 0-1 of samples os .. os + 7 = n - 8 .. n - 1 (done); during
; lanes 8-15, lane groups 2-3 of that output
%macro ROWS_SIDE0_A 0
    lea             tq, [fsq + 8]
    cmp             tq, wq
    jg %%done
    ROWS_FILL_G2         fs, frow
%%done:
    ROWS_OUT_OFFSET
    ROWS_OUT_GROUP        0, 0
%endmacro

%macro ROWS_SIDE0_B 0
    lea             tq, [fsq + 8]
    cmp             tq, wq
    jg %%done
    ROWS_FILL_G3         fs, frow
    add            fsq, 8
    add          frowq, 8 * 64
%%done:
    ROWS_OUT_GROUP        1, 0
    add            osq, 8
    add          orowq, 8 * 64
%endmacro

%macro ROWS_SIDE1_A 0
    ROWS_OUT_OFFSET
    ROWS_OUT_GROUP        2, 0
%endmacro

%macro ROWS_SIDE1_B 0
    ROWS_OUT_GROUP        3, 0
    add            osq, 8
    add          orowq, 8 * 64
%endmacro

; The recursions of 8 lanes (%1: byte offset of the lanes in a row) over
; the row, as the C version: scalar steps -4 .. min(w, 8) - 1, blocks of four
; while n < w - 7, scalar steps up to w - 1; %2, %3: side work
%macro ROWS_ROW_PASS 3
    xorps           m0, m0, m0
    xorps           m1, m1, m1
    xorps           m2, m2, m2
    xorps           m3, m3, m3
    xorps           m4, m4, m4
    xorps           m5, m5, m5
    lea             pq, [lanesq + %1 - 4 * 64]
%rep 4
    ROWS_ROW_STEP         0, 0                   ; steps -4 .. -1: sample n - 6 is zero, no output
    add             pq, 64
%endrep
    xor             nq, nq
    xor            osq, osq
    mov          orowq, lanesq
%%head:
    ROWS_ROW_STEP         1, 1
    add             pq, 64
    inc             nq
    cmp             nq, 8
    je %%head_done
    cmp             nq, wq
    jl %%head
%%head_done:
    lea             tq, [nq + 7]
    cmp             tq, wq
    jge %%tail
    mova           m10, [ROWS_MUL_IN(0, 0)]
%%block:
    ROWS_ROW_BLOCK
    %2
    add             pq, 4 * 64
    add             nq, 4
    lea             tq, [nq + 7]
    cmp             tq, wq
    jge %%tail
    ROWS_ROW_BLOCK
    %3
    add             pq, 4 * 64
    add             nq, 4
    lea             tq, [nq + 7]
    cmp             tq, wq
    jl %%block
%%tail:
    cmp             nq, wq
    jge %%done
    ROWS_ROW_STEP         1, 1
    add             pq, 64
    inc             nq
    jmp %%tail
%%done:
%endmacro

; void blur_rows(const float *const x1[3], const float *const x2[3], int w,
;                float *lanes, float *const out[15], ptrdiff_t tile_stride)
; No alignment is required of any pointer (the filter's lanes are not
; aligned for every w).
cglobal ssimulacra2_blur_rows, 6, 14, 16, x1, x2, w, lanes, out, ts, p, n, fs, frow, os, orow, off, t
    movsxdifnidn    wq, wd
    test            wq, wq
    jle .end
    add         lanesq, 63
    and         lanesq, ~63

    ; zero samples -6 .. -1 and w .. w + 3
    xorps           m0, m0, m0
%assign rows_zr 0
%rep 12
    movu [lanesq + rows_zr * 32], m0
%assign rows_zr rows_zr + 1
%endrep
    mov             tq, wq
    shl             tq, 6
%assign rows_zr 0
%rep 8
    movu [lanesq + tq + 6 * 64 + rows_zr * 32], m0
%assign rows_zr rows_zr + 1
%endrep
%undef rows_zr

    ; the last w % 8 samples, all lanes
    DEFINE_ARGS x1, x2, w, lanes, out, ts, p, n, ix, row, os, orow, off, t
    mov             ixq, wq
    and             ixq, ~7
    lea           rowq, [ixq + 6]
    shl           rowq, 6
    add           rowq, lanesq
.fill_tail:
    cmp             ixq, wq
    jge .fill_tail_done
    ROWS_FILL_SCALAR      0
    ROWS_FILL_SCALAR      1
    ROWS_FILL_SCALAR      2
    mov dword [rowq + 60], 0
    inc             ixq
    add           rowq, 64
    jmp .fill_tail
.fill_tail_done:

    ; lane groups 0-1 (lanes 0-7) of the others
    DEFINE_ARGS x1, x2, w, lanes, out, ts, p, n, fs, frow, os, orow, off, t
    xor            fsq, fsq
    lea          frowq, [lanesq + 6 * 64]
.fill01:
    lea             tq, [fsq + 8]
    cmp             tq, wq
    jg .fill01_done
    ROWS_FILL_G01        fs, frow
    add            fsq, 8
    add          frowq, 8 * 64
    jmp .fill01
.fill01_done:

    ; lanes 0-7, filling lane groups 2-3 on the way (without blocks, w < 16,
    ; before: the first steps of lanes 8-15 would wait for the stores)
    xor            fsq, fsq
    lea          frowq, [lanesq + 6 * 64]
    cmp             wq, 16
    jge .pass0
    cmp             wq, 8
    jl .pass0
    ROWS_FILL_G2         fs, frow
    ROWS_FILL_G3         fs, frow
    add            fsq, 8
    add          frowq, 8 * 64
.pass0:
    ROWS_ROW_PASS         0, ROWS_SIDE0_A, ROWS_SIDE0_B
.fill23:
    lea             tq, [fsq + 8]
    cmp             tq, wq
    jg .fill23_done
    ROWS_FILL_G2         fs, frow
    ROWS_FILL_G3         fs, frow
    add            fsq, 8
    add          frowq, 8 * 64
    jmp .fill23
.fill23_done:

    ; lanes 8-15 (same blocks, so that osq ends where it ended for 0-7)
    ROWS_ROW_PASS        32, ROWS_SIDE1_A, ROWS_SIDE1_B

    ; the outputs not written on the way: 8 samples at a time, then the
    ; last w % 8 by masked stores (of rows up to w + 6: inside the buffer)
.out:
    lea             tq, [osq + 8]
    cmp             tq, wq
    jg .out_tail
    ROWS_OUT_OFFSET
    ROWS_OUT_GROUP        0, 0
    ROWS_OUT_GROUP        1, 0
    ROWS_OUT_GROUP        2, 0
    ROWS_OUT_GROUP        3, 0
    add            osq, 8
    add          orowq, 8 * 64
    jmp .out
.out_tail:
    mov             tq, osq
    sub             tq, wq
    jz .end
    lea           offq, [tail_mask + 32]
    movu           m11, [offq + tq * 4]
    ROWS_OUT_OFFSET
    ROWS_OUT_GROUP        0, 1
    ROWS_OUT_GROUP        1, 1
    ROWS_OUT_GROUP        2, 1
    ROWS_OUT_GROUP        3, 1
.end:
    RET
%endif ; ARCH_X86_64

%endif
