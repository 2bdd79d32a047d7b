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

SECTION .text

%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2

; void box_row(const float *r0, const float *r1, int w, float *dst)
; dst[x] = ((((+0 + r0[2x]) + r0[2x + 1]) + r1[2x]) + r1[2x + 1]) * 0.25, as
; ssimu2_box4() (the +0 turns a -0 sample into +0); an odd last column is
; averaged with itself
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
%endif
