# The build tree: $B/src = the FFmpeg tree + links to our files + registration edits.
# POSIX sh, sourced by ../configure (after register.sh).
#
#   build_tree   lays out $B/src from $FFSRC; files FFmpeg's make would rebuild keep their
#                mtimes when their content is unchanged (a reconfigure rebuilds only what changed)

BUILD_TREE_PATCHED="libavfilter/allfilters.c libavfilter/Makefile configure tests/Makefile libavutil/hwcontext_cuda.c libavcodec/webp.c libavcodec/tiff.c libavcodec/pnmdec.c libavcodec/pngdec.c libavfilter/vf_scale.c doc/filters.texi tests/fate-run.sh tests/checkasm/Makefile tests/checkasm/checkasm.c tests/checkasm/checkasm.h tests/fate/checkasm.mak libavfilter/x86/Makefile libavformat/mov.c fftools/ffmpeg_filter.c libavcodec/hevc/hevcdec.c"

build_tree() {
    mkdir -p "$B/src" "$B/obj" || die "cannot create $B"
    if [ "$(cat "$B/.s2-origin" 2>/dev/null)" != "$FFSRC" ]; then
        rm -rf "$B/src" "$B/obj" "$B/.s2-copied" "$B/.s2-links" && mkdir -p "$B/src" "$B/obj"
        echo "$FFSRC" > "$B/.s2-origin"
    fi
    # drop our old links; keep the previously patched files to keep their mtimes if unchanged
    if [ -f "$B/.s2-links" ]; then
        while read -r l; do [ -L "$B/src/$l" ] && rm -f "$B/src/$l"; done < "$B/.s2-links"
    fi
    rm -rf "$B/.s2-prev"
    for f in $BUILD_TREE_PATCHED; do
        [ -f "$B/src/$f" ] && mkdir -p "$B/.s2-prev/$(dirname "$f")" && cp -p "$B/src/$f" "$B/.s2-prev/$f"
    done
    if [ "$(cat "$B/.s2-copied" 2>/dev/null)" = "$FFSRC" ] && [ -f "$FFSRC.ok" ]; then
        # a cached release tree never changes: only the files we patch need a refresh
        for f in $BUILD_TREE_PATCHED; do cp -p "$FFSRC/$f" "$B/src/$f" || die "cannot refresh $B/src/$f"; done
        note "refreshed (release tree unchanged)"
    else
        rm -f "$B/.s2-copied"
        (cd "$FFSRC" && tar -cf - --exclude=.git --exclude=./config.h --exclude=./config_components.h \
            --exclude='./ffbuild/config.*' --exclude='*.o' --exclude='*.d' --exclude='*.a' .) |
            (cd "$B/src" && tar --no-same-owner -xf -) || die "copying $FFSRC to $B/src failed"
        echo "$FFSRC" > "$B/.s2-copied"
        note "copied $FFSRC"
    fi
    : > "$B/.s2-links"
    nlinks=0
    for part in cpu cuda; do
        for f in $(s2_our_files "$PROJ" $part); do
            # relative links (any clone, same ccache hits) when $B is a folder of the project
            up=../..; rest=$f
            [ "${B%/*}" = "$PROJ" ] || { up=$PROJ; rest=; }
            while [ "$rest" != "${rest#*/}" ]; do up=$up/..; rest=${rest#*/}; done
            mkdir -p "$B/src/$(dirname "$f")"
            ln -sfn "$up/$f" "$B/src/$f" || die "cannot link $f"
            echo "$f" >> "$B/.s2-links"; nlinks=$((nlinks + 1))
        done
    done
    note "linked $nlinks files of ours (libavfilter/, tests/fate/ssimulacra2.mak, tests/ref/fate/)"
    s2_register "$B/src" cpu "$PROJ"
    [ "$CUDA" = yes ] && s2_register "$B/src" cuda "$PROJ"
    s2_fix_cuda_odd_height "$B/src"
    s2_fix_webp_chroma_siting "$B/src"
    s2_fix_scale_chroma_siting "$B/src"
    s2_fix_tiff_associated_alpha "$B/src"
    s2_fix_avif_chroma_siting "$B/src"
    s2_fix_hevc_container_colour "$B/src"
    s2_fix_pnm_maxval "$B/src"
    s2_fix_png_gray_trns "$B/src"
    s2_fix_image_label "$B/src"
    s2_fix_graph_eof "$B/src"
    for f in $BUILD_TREE_PATCHED; do
        cmp -s "$B/.s2-prev/$f" "$B/src/$f" 2>/dev/null && touch -r "$B/.s2-prev/$f" "$B/src/$f"
    done
    rm -rf "$B/.s2-prev"
    note "registered: ssimulacra2$([ "$CUDA" = yes ] && echo ' ssimulacra2_cuda') (allfilters.c, libavfilter/Makefile$([ "$CUDA" = yes ] && echo ', configure'))"
}
