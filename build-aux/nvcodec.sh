# nv-codec-headers (ffnvcodec: the CUDA, NVDEC and NVENC API headers FFmpeg loads at run
# time). POSIX sh, sourced by ../configure (after apt-source.sh).
#
#   nvcodec_headers   uses the system's ffnvcodec >= $NVCODEC_PIN, or installs the pinned
#                     release into $CACHE_DIR/nv-codec-headers; sets NVCODEC_PC (its
#                     pkg-config folder, empty for the system's).

nvcodec_headers() {
    NVCODEC_PC=
    if pkg-config --atleast-version="$NVCODEC_PIN" ffnvcodec 2>/dev/null; then
        note "system ffnvcodec $(pkg-config --modversion ffnvcodec)"
        return
    fi
    prefix=$CACHE_DIR/nv-codec-headers
    NVCODEC_PC=$prefix/lib/pkgconfig
    if [ -f "$NVCODEC_PC/ffnvcodec.pc" ] && [ -f "$prefix.ok" ]; then
        note "cached $prefix"
        return
    fi
    t=$CACHE_DIR/downloads/nv-codec-headers_$NVCODEC_PIN.orig.tar.xz
    if [ ! -s "$t" ]; then
        apt_setup || die "need nv-codec-headers >= $NVCODEC_PIN: apt unavailable; install them and set PKG_CONFIG_PATH, or use --disable-cuda"
        full=$(apt_versions nv-codec-headers | awk -v p="$NVCODEC_PIN" '$1 == p { print $2 }' | tail -n 1)
        [ -n "$full" ] || die "the distribution has no nv-codec-headers $NVCODEC_PIN (use --disable-cuda or install ffnvcodec >= $NVCODEC_PIN)"
        note "apt-get source --download-only nv-codec-headers=$full"
        t=$(apt_fetch nv-codec-headers "$full" "$NVCODEC_PIN") ||
            die "could not download nv-codec-headers, see $CACHE_DIR/downloads/nv-codec-headers.log"
    fi
    verify_sha "$t" "nv-codec-headers-$NVCODEC_PIN"
    extract "$t" "nv-codec-headers-$NVCODEC_PIN"
    rm -rf "$prefix" "$prefix.ok"
    make -s -C "$CACHE_DIR/src/nv-codec-headers-$NVCODEC_PIN" install PREFIX="$prefix" >/dev/null ||
        die "nv-codec-headers install failed"
    touch "$prefix.ok"
    note "installed nv-codec-headers $NVCODEC_PIN into $prefix"
}
