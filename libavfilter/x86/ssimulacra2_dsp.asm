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
