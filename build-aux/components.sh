# What FFmpeg is built with: the arguments of FFmpeg's configure. POSIX sh, sourced by
# ../configure.
#
#   components_args   sets "$@"-style ARGS (quoted, for eval) from COMPONENTS (full|minimal),
#                     DAV1D, CUDA, NVCC_MODE, NVCC, CCACHE, SANITIZE, EXTRA_FLAGS;
#                     sets KERNELS (how the CUDA kernels are compiled)
#
# full:    every native component (demuxers, decoders, parsers, protocols, filters, native
#          encoders), the codec libraries of encode ladders, JPEG XL (the reference tool's
#          own format: no native decoder) and WebP encoding, NVDEC/NVENC/CUVID. GPL, not
#          nonfree: redistributable unless --enable-cuda-nvcc.
# minimal: the compact set the tests need, for quick development builds.
# Nothing is autodetected: the same options give the same ffmpeg on every machine.

components_join() { sep=$1; shift; r=; for x do r="$r${r:+$sep}$x"; done; echo "$r"; }

components_minimal() {
    filters="ssimulacra2 metadata showinfo format scale testsrc testsrc2 color nullsrc null split
        crop pad noise gblur avgblur setpts settb trim select fps setparams copy hflip
        transpose aresample anull anullsrc ssim psnr loop lutyuv xstack"
    decoders="h264 hevc av1 vp9 mpeg2video png rawvideo pam ppm pgm pgmyuv pbm wrapped_avframe"
    encoders="png pam ppm pgm wrapped_avframe rawvideo"
    demuxers="mov matroska image2 image2pipe yuv4mpegpipe rawvideo h264 hevc ivf obu"
    muxers="null image2 yuv4mpegpipe rawvideo matroska mp4 framecrc framemd5 md5"
    parsers="h264 hevc av1 vp9 mpegvideo png pnm"
    [ "$DAV1D" = yes ] && decoders="$decoders libdav1d"
    [ "$CUDA" = yes ] && filters="$filters ssimulacra2_cuda hwupload_cuda hwupload hwdownload scale_cuda"
    components_add --disable-everything \
        --enable-filter="$(components_join , $filters)" \
        --enable-decoder="$(components_join , $decoders)" --enable-encoder="$(components_join , $encoders)" \
        --enable-demuxer="$(components_join , $demuxers)" --enable-muxer="$(components_join , $muxers)" \
        --enable-parser="$(components_join , $parsers)" --enable-protocol=file,pipe --enable-indev=lavfi
    [ "$CUDA" = yes ] &&
        components_add --enable-hwaccel=h264_nvdec,hevc_nvdec,av1_nvdec,vp9_nvdec,mpeg2_nvdec
}

components_full() {
    components_add --enable-gpl --enable-bzlib --enable-lzma --enable-iconv \
        --enable-libx264 --enable-libx265 --enable-libsvtav1 --enable-libvpx --enable-libopus \
        --enable-libjxl --enable-libwebp
    [ "$CUDA" = yes ] && components_add --enable-cuvid --enable-nvenc
}

# CUDA kernels: clang (the default, no nonfree part) or nvcc; both without FMA contraction,
# which the spec's rounding forbids
components_kernels() {
    if [ "$NVCC_MODE" = yes ]; then
        flags="-gencode arch=compute_75,code=sm_75 -O2 --fmad=false"
        KERNELS="nvcc ($flags)"
        warn "--enable-cuda-nvcc implies --enable-nonfree: the resulting binaries are NOT redistributable"
        components_add --enable-cuda-nvcc --enable-nonfree --nvcc="$NVCC" --nvccflags="$flags"
        return
    fi
    arch=sm_30
    probe=$B/obj/s2probe
    printf 'extern "C" __attribute__((global)) void k(float *p) { p[0] = p[0] * 2.0f + 1.0f; }\n' > "$probe.cu"
    if ! clang -x cuda --cuda-gpu-arch=sm_30 -nocudalib -nocudainc --cuda-device-only -S \
            -o "$probe.ptx" "$probe.cu" >/dev/null 2>&1; then
        arch=sm_60
        note "clang rejects sm_30, using sm_60"
    fi
    rm -f "$probe.cu" "$probe.ptx"
    flags="--cuda-gpu-arch=$arch -O2 -ffp-contract=off"
    KERNELS="clang $(clang -dumpversion 2>/dev/null) ($flags)"
    components_add --enable-cuda-llvm --nvccflags="$flags"
}

components_add() { for a do ARGS="$ARGS '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"; done; }

components_args() {
    ARGS= KERNELS=none
    [ "$CCACHE" = yes ] && components_add --cc="ccache gcc"
    components_add --disable-autodetect --disable-doc --disable-debug --enable-zlib
    if [ "$COMPONENTS" = full ]; then components_full; else components_minimal; fi
    [ "$DAV1D" = yes ] && components_add --enable-libdav1d
    if [ "$CUDA" = yes ]; then
        components_add --enable-ffnvcodec --enable-cuda --enable-nvdec
        components_kernels
    fi
    # gcc-asan-ubsan: -fsanitize=address -fsanitize=undefined -fno-omit-frame-pointer (FFmpeg's
    # own toolchain); -g and no stripping for file:line in the reports. Both runtimes static:
    # then they are one, and UBSan honours log_path too (with gcc's two shared ones it writes
    # to stderr only). UBSan stays recoverable (suppressions only apply to recoverable
    # checks); make check-asan makes it fatal with halt_on_error=1.
    [ "$SANITIZE" = yes ] && components_add --toolchain=gcc-asan-ubsan --enable-debug --disable-stripping \
        --extra-ldflags="-static-libasan -static-libubsan"
    [ "$SANITIZE" = thread ] && components_add --toolchain=gcc-tsan --enable-debug --disable-stripping
    [ -n "$EXTRA_FLAGS" ] && ARGS="$ARGS $EXTRA_FLAGS"
    return 0
}
