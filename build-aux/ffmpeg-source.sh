# Obtain the FFmpeg source tree. POSIX sh, sourced by ../configure (after apt-source.sh).
#
#   ffmpeg_source   sets FFSRC (an unpacked tree) and FFMPEG_VERSION, from, in order:
#                   --ffmpeg-source=DIR ($FFSOURCE), the cache, the distribution's source
#                   package of exactly $FFVERSION, or ffmpeg.org when its sha256 is pinned.
#   ffmpeg_require_supported   refuses trees older than the FFFilter API (FFmpeg 8.0).

ffmpeg_version_of() {
    v=$(cat "$1/RELEASE" 2>/dev/null || cat "$1/VERSION" 2>/dev/null)
    [ -d "$1/.git" ] && command -v git >/dev/null 2>&1 &&
        v="$v ($(git -C "$1" describe --tags --always 2>/dev/null))"
    echo "${v:-unknown}"
}

ffmpeg_download() { # ffmpeg_download VERSION -> prints the tarball path
    url=https://ffmpeg.org/releases/ffmpeg-$1.tar.xz
    t=$CACHE_DIR/downloads/ffmpeg-$1.tar.xz
    note "downloading $url" >&2
    mkdir -p "$CACHE_DIR/downloads"
    if command -v curl >/dev/null 2>&1; then
        curl -fsSL -o "$t.part" "$url"
    else
        wget -q -O "$t.part" "$url"
    fi || { rm -f "$t.part"; return 1; }
    mv "$t.part" "$t" && echo "$t"
}

ffmpeg_source() {
    if [ -n "$FFSOURCE" ]; then
        FFSRC=$FFSOURCE
        FFMPEG_VERSION=$(ffmpeg_version_of "$FFSRC")
        note "using existing tree $FFSRC: FFmpeg $FFMPEG_VERSION"
        return
    fi
    FFSRC=$CACHE_DIR/src/ffmpeg-$FFVERSION
    FFMPEG_VERSION=$FFVERSION
    if [ -f "$FFSRC.ok" ]; then
        note "cached tree $FFSRC"
        return
    fi
    tarball=
    for f in "$CACHE_DIR/downloads/ffmpeg_$FFVERSION.orig.tar.xz" "$CACHE_DIR/downloads/ffmpeg-$FFVERSION.tar.xz"; do
        [ -s "$f" ] && tarball=$f && note "cached tarball $f" && break
    done
    if [ -z "$tarball" ] && apt_setup; then
        full=$(apt_versions ffmpeg | awk -v v="$FFVERSION" '$1 == v { print $2 }' | tail -n 1)
        if [ -n "$full" ]; then
            note "apt-get source --download-only ffmpeg=$full"
            tarball=$(apt_fetch ffmpeg "$full" "$FFVERSION") ||
                { note "download failed, see $CACHE_DIR/downloads/ffmpeg.log"; tarball=; }
        else
            note "the distribution has no source package of FFmpeg $FFVERSION"
        fi
    fi
    if [ -z "$tarball" ]; then
        [ -n "$(sha256_known "ffmpeg-$FFVERSION")" ] ||
            die "cannot obtain FFmpeg $FFVERSION: the distribution lacks it and its checksum is not pinned here; download it yourself and use --ffmpeg-source=DIR"
        tarball=$(ffmpeg_download "$FFVERSION") ||
            die "download of FFmpeg $FFVERSION failed (and apt could not provide it); use --ffmpeg-source=DIR"
    fi
    verify_sha "$tarball" "ffmpeg-$FFVERSION"
    extract "$tarball" "ffmpeg-$FFVERSION"
    note "unpacked $FFSRC"
}

ffmpeg_require_supported() {
    FFMAJOR=$(s2_ffmpeg_major "$FFSRC")
    [ "$FFMAJOR" -ge 8 ] ||
        die "FFmpeg $FFMPEG_VERSION is not supported: the filters are written for the FFFilter API of FFmpeg 8.0 and later (FFmpeg $FFMAJOR.x has AVFilter); use FFmpeg 8.0 to 9.0 (default: $FFMPEG_PIN)"
}
