# Registration of the ssimulacra2 filters in an FFmpeg source tree.
# POSIX sh, sourced by ../configure and by make-patches.sh; defines functions only.
#
#   s2_ffmpeg_major SRC           -> prints the FFmpeg major version of SRC (7, 8, 9, ...)
#   s2_register SRC PART PROJECT  -> edits SRC in place; PART is "cpu" or "cuda";
#                                    PROJECT is the overlay project root (used to see which
#                                    of our sources exist)
#
# What it adds (PART=cpu):
#   libavfilter/allfilters.c  extern const FFFilter ff_vf_ssimulacra2;   (AVFilter for 7.x)
#   libavfilter/Makefile      OBJS-$(CONFIG_SSIMULACRA2_FILTER) += ...   after CONFIG_SSIM*_FILTER
#                             -ffp-contract=off for our host objects
#   tests/Makefile            include $(SRC_PATH)/tests/fate/ssimulacra2.mak (if we have it)
#   doc/filters.texi          doc/filters/ssimulacra2.texi after the ssim entry
#   libavfilter/x86/Makefile  X86ASM-OBJS-$(CONFIG_SSIMULACRA2_FILTER) after CONFIG_SSIM_FILTER
#   tests/checkasm/, tests/fate/checkasm.mak   the vf_ssimulacra2 checkasm test
# (PART=cuda):
#   libavfilter/allfilters.c  extern const FFFilter ff_vf_ssimulacra2_cuda;
#   libavfilter/Makefile      OBJS-$(CONFIG_SSIMULACRA2_CUDA_FILTER) += ..., .ptx header deps,
#                             SKIPHEADERS
#   configure                 ssimulacra2_cuda_filter_deps(_any)
#   doc/filters.texi          doc/filters/ssimulacra2_cuda.texi after scale_cuda
#   tests/fate-run.sh         refcmp_metadata_cuda() (if we have tests/fate/ssimulacra2_cuda.mak)
#   tests/Makefile            include $(SRC_PATH)/tests/fate/ssimulacra2_cuda.mak
# Each edit is idempotent (a second call changes nothing).

s2_die() { echo "register: error: $*" >&2; exit 1; }

s2_ffmpeg_major() {
    _v=$(sed -n 's/^#define LIBAVFILTER_VERSION_MAJOR *\([0-9]*\).*/\1/p' \
             "$1/libavfilter/version_major.h" "$1/libavfilter/version.h" 2>/dev/null | head -n 1)
    # lavfi 10 = FFmpeg 7.x, 11 = 8.x, 12 = 9.x (FFFilter from lavfi 11 on)
    case $_v in
        '') s2_die "cannot find LIBAVFILTER_VERSION_MAJOR in $1" ;;
        *)  echo $((_v - 3)) ;;
    esac
}

# The struct type allfilters.c and configure's sed expect in this tree.
s2_filter_type() {
    if grep -q '^extern const FFFilter ff_' "$1/libavfilter/allfilters.c"; then
        echo FFFilter
    else
        echo AVFilter
    fi
}

# s2_insert_after FILE ANCHOR_ERE TEXT_FILE: insert TEXT_FILE after the last line matching
# ANCHOR_ERE (awk ERE); fails if no line matches.
s2_insert_after() {
    awk -v re="$2" -v tf="$3" '
        { line[NR] = $0; if ($0 ~ re) last = NR }
        END {
            if (!last) exit 3
            for (i = 1; i <= NR; i++) {
                print line[i]
                if (i == last) while ((getline l < tf) > 0) print l
            }
        }' "$1" > "$1.s2tmp" || { rm -f "$1.s2tmp"; s2_die "no line matching '$2' in $1"; }
    cat "$1.s2tmp" > "$1" && rm -f "$1.s2tmp"   # in place: keeps the file's mode
}

# s2_insert_before FILE ANCHOR_ERE TEXT_FILE: insert TEXT_FILE before the first line
# matching ANCHOR_ERE; returns 3 (file unchanged) if no line matches.
s2_insert_before() {
    awk -v re="$2" -v tf="$3" '
        !done && $0 ~ re { while ((getline l < tf) > 0) print l; done = 1 }
        { print }
        END { if (!done) exit 3 }' "$1" > "$1.s2tmp" || { rm -f "$1.s2tmp"; return 3; }
    cat "$1.s2tmp" > "$1" && rm -f "$1.s2tmp"
}

# s2_register_doc SRC PART PROJECT: our entry (doc/filters/NAME.texi) in doc/filters.texi,
# in alphabetical place: after ssim, or after scale_cuda among the CUDA filters.
s2_register_doc() {
    _ft=$1/doc/filters.texi
    _up=cat
    case $2 in
        cpu)  _n=ssimulacra2;      _next='^(@section stereo3d|@chapter Video Sources)$' ;;
        cuda) _n=ssimulacra2_cuda; _next='^(@subsection thumbnail_cuda|@section CUDA NPP)$'
              # FFmpeg 9 made each CUDA filter a @section of its own: one level up there
              if grep -q '^@section scale_cuda$' "$_ft" 2>/dev/null; then
                  _next='^@section (thumbnail_cuda|yadif_cuda)$'
                  _up="sed -e s/^@subsection/@section/ -e s/^@subsubsection/@subsection/"
              fi ;;
    esac
    [ -f "$_ft" ] && [ -f "$3/doc/filters/$_n.texi" ] || return 0
    grep -q "^@[a-z]*section $_n\$" "$_ft" && return 0
    $_up "$3/doc/filters/$_n.texi" > "$_ft.s2doc"
    s2_insert_before "$_ft" "$_next" "$_ft.s2doc" ||
        { rm -f "$_ft.s2doc"; s2_die "no place for the $_n entry in $_ft (no line matching '$_next')"; }
    rm -f "$_ft.s2doc"
}

# s2_fate_run_cuda: refcmp_metadata on the GPU (tests/fate-run.sh): the frames of
# refcmp_metadata, repacked into UPLOAD-FORMAT and uploaded, scored by the CUDA filter
s2_fate_run_cuda() {
    cat <<'EOT'
refcmp_metadata_cuda(){
    refcmp=$1
    pixfmt=$2
    upfmt=$3
    fuzz=${4:-0.001}
    ffmpeg -auto_conversion_filters -init_hw_device cuda=cuda -filter_hw_device cuda $FLAGS $ENC_OPTS \
        -lavfi "testsrc2=size=300x200:rate=1:duration=5,format=${pixfmt},split[ref][tmp];[tmp]avgblur=4,format=${upfmt},hwupload[enc];[ref]format=${upfmt},hwupload[r];[enc][r]${refcmp},hwdownload,format=${upfmt},metadata=print:file=-" \
        -f null /dev/null | awk -v ref=${ref} -v fuzz=${fuzz} -f ${base}/refcmp-metadata.awk -
}

EOT
}

# s2_objs PROJECT CANDIDATES...: keep the objects whose source exists (ours or FFmpeg's),
# warn about the others.
s2_objs() {
    _p=$1; shift; _out=
    for _o in "$@"; do
        _b=${_o%.o}; _b=${_b%.ptx}
        if [ -e "$_p/libavfilter/$_b.c" ] || [ -e "$_p/libavfilter/$_b.cu" ] ||
           [ -e "$S2_SRC/libavfilter/$_b.c" ]; then
            _out="$_out $_o"
        else
            echo "register: note: libavfilter/$_b.c not found, $_o left out" >&2
        fi
    done
    echo "$_out"
}

# s2_register_checkasm SRC: tests/checkasm/vf_ssimulacra2.c in FFmpeg's checkasm (its
# object, the test table, the prototype, the FATE test), before vf_threshold as the
# alphabet places it
s2_register_checkasm() {
    _ck=$1/tests/checkasm _t=${TMPDIR:-/tmp}/s2ck.$$
    if ! grep -q 'vf_ssimulacra2' "$_ck/Makefile"; then
        printf '%-40s += vf_ssimulacra2.o\n' 'AVFILTEROBJS-$(CONFIG_SSIMULACRA2_FILTER)' > "$_t"
        s2_insert_before "$_ck/Makefile" '^AVFILTEROBJS-[$][(]CONFIG_THRESHOLD_FILTER[)]' "$_t" ||
            s2_die "no CONFIG_THRESHOLD_FILTER line in $_ck/Makefile"
        printf '    #if CONFIG_SSIMULACRA2_FILTER\n        { "vf_ssimulacra2", checkasm_check_vf_ssimulacra2 },\n    #endif\n' > "$_t"
        s2_insert_before "$_ck/checkasm.c" '^ *#if CONFIG_THRESHOLD_FILTER' "$_t" ||
            s2_die "no CONFIG_THRESHOLD_FILTER entry in $_ck/checkasm.c"
        echo 'void checkasm_check_vf_ssimulacra2(void);' > "$_t"
        s2_insert_before "$_ck/checkasm.h" '^void checkasm_check_vf_threshold[(]' "$_t" ||
            s2_die "no checkasm_check_vf_threshold in $_ck/checkasm.h"
        printf '                %-56s\\\n' fate-checkasm-vf_ssimulacra2 > "$_t"
        s2_insert_before "$1/tests/fate/checkasm.mak" '^ *fate-checkasm-vf_threshold ' "$_t" ||
            s2_die "no fate-checkasm-vf_threshold in $1/tests/fate/checkasm.mak"
    fi
    rm -f "$_t"
}

s2_register() {
    S2_SRC=$1; _part=$2; _proj=$3
    _type=$(s2_filter_type "$S2_SRC")
    _tmp=${TMPDIR:-/tmp}/s2reg.$$
    case $_part in
    cpu)
        _name=ssimulacra2; _cfg=SSIMULACRA2
        _objs=$(s2_objs "$_proj" vf_ssimulacra2.o ssimulacra2.o ssimulacra2_colour.o ssimulacra2_formats.o ssimulacra2_report.o ssimulacra2_dsp.o ssimulacra2_tasks.o framesync.o)
        _host=vf_ssimulacra2.o; _extra_anchor='^OBJS-[$][(]CONFIG_SSIM(360)?_FILTER[)]' ;;
    cuda)
        _name=ssimulacra2_cuda; _cfg=SSIMULACRA2_CUDA
        _objs=$(s2_objs "$_proj" vf_ssimulacra2_cuda.o vf_ssimulacra2_cuda_plan.o vf_ssimulacra2_cuda.ptx.o ssimulacra2.o ssimulacra2_colour.o \
                                 ssimulacra2_formats.o ssimulacra2_report.o \
                                 framesync.o cuda/load_helper.o)
        _extra_anchor='^OBJS-[$][(]CONFIG_SSIM(360|ULACRA2)?_FILTER[)]' ;;
    *) s2_die "unknown part $_part" ;;
    esac

    # allfilters.c: alphabetical place is right after ff_vf_ssim / ssim360 (or our CPU line)
    _af=$S2_SRC/libavfilter/allfilters.c
    if ! grep -q "^extern const $_type ff_vf_$_name;" "$_af"; then
        echo "extern const $_type ff_vf_$_name;" > "$_tmp"
        s2_insert_after "$_af" "^extern const $_type ff_vf_(ssim|ssim360|ssimulacra2);" "$_tmp"
    fi

    # libavfilter/Makefile: OBJS line and our rules
    _mk=$S2_SRC/libavfilter/Makefile
    if ! grep -q "CONFIG_${_cfg}_FILTER)" "$_mk"; then
        printf '%-45s+=%s\n' "OBJS-\$(CONFIG_${_cfg}_FILTER)" "$_objs" > "$_tmp"
        s2_insert_after "$_mk" "$_extra_anchor" "$_tmp"
        {
            echo
            if [ "$_part" = cpu ]; then
                _t=
                for _o in $_objs; do
                    case $_o in framesync.o) ;; *) _t="$_t \$(SUBDIR)$_o" ;; esac
                done
                echo "# ssimulacra2: the arithmetic is specified without contraction (explicit fmaf only)"
                echo "${_t# }: CFLAGS += -ffp-contract=off"
            else
                _h=
                for _f in ssimulacra2_math.h vf_ssimulacra2_cuda.h; do
                    [ -e "$_proj/libavfilter/$_f" ] && _h="$_h \$(SRC_PATH)/libavfilter/$_f"
                done
                echo "# ssimulacra2_cuda: host code without contraction; kernel header dependencies"
                echo "\$(SUBDIR)vf_ssimulacra2_cuda.o: CFLAGS += -ffp-contract=off"
                [ -n "$_h" ] && echo "\$(SUBDIR)vf_ssimulacra2_cuda.ptx:$_h"
                [ -e "$_proj/libavfilter/vf_ssimulacra2_cuda.h" ] &&
                    printf '%-44s += vf_ssimulacra2_cuda.h\n' 'SKIPHEADERS-$(CONFIG_SSIMULACRA2_CUDA_FILTER)'
            fi
        } > "$_tmp"
        s2_insert_after "$_mk" '^SKIPHEADERS-' "$_tmp"
    fi

    s2_register_doc "$S2_SRC" "$_part" "$_proj"

    # tests/Makefile: this part's FATE tests (tests/fate/NAME.mak), after FFmpeg's
    _tm=$S2_SRC/tests/Makefile
    if [ -e "$_proj/tests/fate/$_name.mak" ] && ! grep -qF "tests/fate/$_name.mak" "$_tm"; then
        echo "include \$(SRC_PATH)/tests/fate/$_name.mak" > "$_tmp"
        s2_insert_after "$_tm" '^include [$][(]SRC_PATH[)]/tests/fate/.*[.]mak' "$_tmp"
    fi

    # libavfilter/x86/: the hand-written x86 dsp functions, beside vf_ssim's
    _xm=$S2_SRC/libavfilter/x86/Makefile
    if [ "$_part" = cpu ] && [ -e "$_proj/libavfilter/x86/ssimulacra2_dsp.asm" ] &&
       ! grep -q 'CONFIG_SSIMULACRA2_FILTER' "$_xm"; then
        printf '%-45s+= x86/ssimulacra2_dsp.o x86/ssimulacra2_dsp_init.o\n' \
            'X86ASM-OBJS-$(CONFIG_SSIMULACRA2_FILTER)' > "$_tmp"
        s2_insert_after "$_xm" '^X86ASM-OBJS-[$][(]CONFIG_SSIM_FILTER[)]' "$_tmp"
    fi

    # checkasm: the dsp functions of each CPU level against the C ones (tests/checkasm/)
    if [ "$_part" = cpu ] && [ -e "$_proj/tests/checkasm/vf_ssimulacra2.c" ]; then
        s2_register_checkasm "$S2_SRC"
    fi

    if [ "$_part" = cuda ]; then
        _fr=$S2_SRC/tests/fate-run.sh
        if [ -e "$_proj/tests/fate/ssimulacra2_cuda.mak" ] && ! grep -q '^refcmp_metadata_cuda()' "$_fr"; then
            s2_fate_run_cuda > "$_tmp"
            s2_insert_before "$_fr" '^refcmp_metadata_transcode[(][)]' "$_tmp" ||
                s2_die "no refcmp_metadata_transcode() in $_fr"
        fi
        _cf=$S2_SRC/configure
        if ! grep -q '^ssimulacra2_cuda_filter_deps=' "$_cf"; then
            printf '%s\n' 'ssimulacra2_cuda_filter_deps="ffnvcodec"' \
                          'ssimulacra2_cuda_filter_deps_any="cuda_nvcc cuda_llvm"' > "$_tmp"
            s2_insert_after "$_cf" '^overlay_cuda_filter_deps_any=' "$_tmp"
        fi
    fi
    rm -f "$_tmp"
}

# s2_our_files PROJECT PART: our files (relative paths) that belong to PART.
# cuda: anything with "cuda" in its name or under libavfilter/cuda/; cpu: the rest of
# libavfilter/ plus the FATE pieces.
s2_our_files() {
    (cd "$1" && {
        find libavfilter -type f 2>/dev/null
        find tests/fate -name 'ssimulacra2*.mak' 2>/dev/null
        find tests/checkasm -name '*ssimulacra2*' 2>/dev/null
        find tests/ref/fate -type f 2>/dev/null
    } | LC_ALL=C sort | while read -r _f; do
        case $_f in
            libavfilter/cuda/*|*cuda*) _p=cuda ;;
            *) _p=cpu ;;
        esac
        if [ "$_p" = "$2" ]; then echo "$_f"; fi
    done)
}

# s2_fix_cuda_odd_height SRC: two bugs of FFmpeg's CUDA hwcontext with odd-height
# 4:2:0 frames, which make the GPU read stale chroma in the last row:
#  - transfers copy src->height >> shift chroma rows, so the last chroma row
#    is never uploaded (nor downloaded);
#  - yuv420p frames place the U plane height / 2 rows after V, so U's first
#    row overlaps V's last one.
# Both use AV_CEIL_RSHIFT(height, shift), as the rest of FFmpeg does.
# Idempotent; a tree without the patterns (already fixed) is left alone.
s2_fix_cuda_odd_height() {
    _f=$1/libavutil/hwcontext_cuda.c
    [ -f "$_f" ] || return 0
    sed -e 's/\.Height\( *\)= src->height >> ((i == 0 || i == 3) ? 0 : priv->shift_height),/.Height\1= AV_CEIL_RSHIFT(src->height, (i == 0 || i == 3) ? 0 : priv->shift_height),/' \
        -e 's/frame->linesize\[2\] \* (ctx->height \/ 2);/frame->linesize[2] * AV_CEIL_RSHIFT(ctx->height, 1);/' \
        "$_f" > "$_f.s2tmp" || return 1
    if cmp -s "$_f" "$_f.s2tmp"; then rm -f "$_f.s2tmp"; else mv "$_f.s2tmp" "$_f"; fi
}

# s2_fix_webp_chroma_siting SRC: FFmpeg's WebP decoder leaves the chroma siting of lossy
# (VP8) images unset, and they are read as left-sited (MPEG-2); libwebp, which makes and
# shows them, upsamples centre-sited chroma (weights 9, 3, 3, 1 of the four nearest
# samples). A lossy WebP then scored 82.4 instead of the 79.7 of libwebp's decode.
# Idempotent; a tree that already sets it is left alone.
s2_fix_webp_chroma_siting() {
    _f=$1/libavcodec/webp.c
    [ -f "$_f" ] && ! grep -q chroma_sample_location "$_f" || return 0
    sed -e 's/^\( *\)avctx->pix_fmt = s->has_alpha ? AV_PIX_FMT_YUVA420P : AV_PIX_FMT_YUV420P;$/&\
\1avctx->chroma_sample_location = AVCHROMA_LOC_CENTER;/' "$_f" > "$_f.s2tmp" || return 1
    if cmp -s "$_f" "$_f.s2tmp"; then rm -f "$_f.s2tmp"; else mv "$_f.s2tmp" "$_f"; fi
}

# s2_fix_tiff_associated_alpha SRC: FFmpeg's TIFF decoder reads no ExtraSamples tag, so
# an image whose alpha is associated (ExtraSamples 1: colour premultiplied by alpha, TIFF
# 6.0 section 18) came out as straight alpha, and was scored as such (-49.1 instead of
# 95.3). Such frames are tagged premultiplied (not palettes, nor CMYK, whose conversion
# to RGB does not keep colours premultiplied); what is decoded does not change.
# Idempotent; a tree that already reads the tag is left alone.
s2_fix_tiff_associated_alpha() {
    _f=$1/libavcodec/tiff.c
    [ -f "$_f" ] && ! grep -q 'case TIFF_EXTRASAMPLES:' "$_f" || return 0
    grep -q '^    int is_thumbnail;$' "$_f" && grep -q '^    s->last_tag    = 0;$' "$_f" &&
        grep -q '^    case TIFF_WIDTH:$' "$_f" &&
        grep -q '^    if ((ret = init_image(s, p)) <= 0)$' "$_f" || return 0
    sed -e '/^    int is_thumbnail;$/a\
    int associated_alpha; ///< the first extra sample is premultiplied alpha' \
        -e '/^    s->last_tag    = 0;$/a\
    s->associated_alpha = 0;' \
        -e '/^    case TIFF_WIDTH:$/i\
    case TIFF_EXTRASAMPLES:\
        if (count > 1 && (type == AV_TIFF_BYTE || type == AV_TIFF_SHORT || type == AV_TIFF_LONG))\
            value = ff_tget(\&s->gb, type, s->le);\
        s->associated_alpha = value == 1;\
        break;' \
        -e '/^    if ((ret = init_image(s, p)) <= 0)$/{
n
a\
    if (s->associated_alpha \&\& s->photometric != TIFF_PHOTOMETRIC_SEPARATED \&\&\
        (av_pix_fmt_desc_get(avctx->pix_fmt)->flags \& (AV_PIX_FMT_FLAG_ALPHA | AV_PIX_FMT_FLAG_PAL)) ==\
        AV_PIX_FMT_FLAG_ALPHA)\
        p->alpha_mode = AVALPHA_MODE_PREMULTIPLIED;
}' "$_f" > "$_f.s2tmp" || return 1
    if cmp -s "$_f" "$_f.s2tmp"; then rm -f "$_f.s2tmp"; else mv "$_f.s2tmp" "$_f"; fi
}

# s2_fix_avif_chroma_siting SRC: an AVIF image whose AV1 sequence header leaves the chroma
# sample position unknown (what encoders write) came out with its siting unset, read as
# left-sited (MPEG-2); libavif, which makes and shows AVIF images, upsamples such 4:2:0 and
# 4:2:2 chroma as centre-sited. A 4:2:0 AVIF scored 0.14 to 0.30 under the score of
# libavif's decode. AV1 image items are tagged centre-sited; a header that gives the
# position (vertical: left, colocated: top-left) still overrides it in the decoder.
# Idempotent; a tree that already sets it is left alone.
s2_fix_avif_chroma_siting() {
    _f=$1/libavformat/mov.c
    [ -f "$_f" ] && ! grep -q 'AVIF: libavif reads' "$_f" || return 0
    grep -q '^    st->codecpar->codec_id = mov_codec_id(st, item->type);$' "$_f" || return 0
    sed -e '/^    st->codecpar->codec_id = mov_codec_id(st, item->type);$/a\
    // AVIF: libavif reads chroma of an unknown sample position as centre-sited\
    if (st->codecpar->codec_id == AV_CODEC_ID_AV1)\
        st->codecpar->chroma_location = AVCHROMA_LOC_CENTER;' "$_f" > "$_f.s2tmp" || return 1
    if cmp -s "$_f" "$_f.s2tmp"; then rm -f "$_f.s2tmp"; else mv "$_f.s2tmp" "$_f"; fi
}

# s2_fix_hevc_container_colour SRC: FFmpeg's HEVC decoder reset the colour tags to
# unspecified (and the range to limited) where the stream's VUI gives none, so tags that
# only the container holds (Matroska's Colour, MP4's colr, a HEIC's nclx) were lost: a
# BT.709 conversion so tagged scored 38.9 read as BT.601, 65.1 as BT.709. The H.264
# decoder keeps them; now the HEVC decoder does too. Idempotent.
s2_fix_hevc_container_colour() {
    _f=$1/libavcodec/hevc/hevcdec.c
    [ -f "$_f" ] && ! grep -q 'the container.s tags stay' "$_f" || return 0
    grep -q '^        avctx->color_primaries = AVCOL_PRI_UNSPECIFIED;$' "$_f" || return 0
    sed -e 's/^        avctx->color_primaries = AVCOL_PRI_UNSPECIFIED;$/        \/\* none in the stream: the container'"'"'s tags stay (as in H.264) \*\//' \
        -e '/^        avctx->color_trc       = AVCOL_TRC_UNSPECIFIED;$/d' \
        -e '/^        avctx->colorspace      = AVCOL_SPC_UNSPECIFIED;$/d' \
        -e 's/^        avctx->color_range = AVCOL_RANGE_MPEG;$/        avctx->color_range = avctx->color_range == AVCOL_RANGE_JPEG ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;/' \
        "$_f" > "$_f.s2tmp" || return 1
    s2_all_applied "$_f" "the container's tags stay" 'avctx->color_range == AVCOL_RANGE_JPEG ?' || return 1
    # (the other two resets gone too: one left would still drop a container's tag)
    if grep -q '^        avctx->\(color_trc \|colorspace \) *= AVCOL_[A-Z]*_UNSPECIFIED;$' "$_f.s2tmp"; then
        rm -f "$_f.s2tmp"
        echo "hevcdec.c: FFmpeg's file changed where an overlay fix applies (a colour reset left); not patched" >&2
        return 1
    fi
    if cmp -s "$_f" "$_f.s2tmp"; then rm -f "$_f.s2tmp"; else mv "$_f.s2tmp" "$_f"; fi
}

# s2_fix_pnm_maxval SRC: FFmpeg's PNM decoder rescales samples of a MAXVAL under 255 to 8
# bits for gray and RGB, but copied them unscaled for PAM with alpha (RGB_ALPHA,
# GRAYSCALE_ALPHA): an opaque image of MAXVAL 3 came out nearly transparent (96.9 instead of
# the reference tool's -63.2). Such samples are rescaled as the others are. A MAXVAL that
# does not divide 255 or 65535 is rescaled with rounding, which the reference tool does not
# do (v / MAXVAL: up to 0.25 points off), so that is said once.
# Idempotent; a tree without the patterns is left alone.
s2_fix_pnm_maxval() {
    _f=$1/libavcodec/pnmdec.c
    [ -f "$_f" ] && ! grep -q 'rescaled with rounding' "$_f" || return 0
    grep -q '^    case AV_PIX_FMT_RGBA:$' "$_f" && grep -q '^    case AV_PIX_FMT_GRAY8A:$' "$_f" &&
        grep -q '^    avctx->bits_per_raw_sample = av_log2(s->maxval) + 1;$' "$_f" || return 0
    sed -e '/^    case AV_PIX_FMT_RGBA:$/,/^        goto do_read;$/s/^        goto do_read;$/        if (s->maxval < 255)\
            upgrade = 1;\
&/' \
        -e '/^    case AV_PIX_FMT_GRAY8A:$/,/^        goto do_read;$/s/^        goto do_read;$/        if (s->maxval < 255)\
            upgrade = 1;\
&/' \
        -e '/^    avctx->bits_per_raw_sample = av_log2(s->maxval) + 1;$/a\
    if (!avctx->frame_num && s->maxval > 1 && avctx->pix_fmt != AV_PIX_FMT_YUV420P &&\
        avctx->pix_fmt != AV_PIX_FMT_YUV420P9 && avctx->pix_fmt != AV_PIX_FMT_YUV420P10 &&\
        avctx->pix_fmt != AV_PIX_FMT_YUV420P16 && (s->maxval < 256 ? 255 : 65535) % s->maxval)\
        av_log(avctx, AV_LOG_WARNING, "maxval %d: samples are rescaled with rounding to %d "\
               "bits, not read as v / %d\\n", s->maxval, s->maxval < 256 ? 8 : 16, s->maxval);' \
        "$_f" > "$_f.s2tmp" || return 1
    [ "$(grep -c '^            upgrade = 1;$' "$_f.s2tmp")" = 4 ] ||
        { rm -f "$_f.s2tmp"; echo "s2_fix_pnm_maxval: $_f changed upstream; not patched" >&2; return 1; }
    s2_all_applied "$_f" 'rescaled with rounding' || return 1
    if cmp -s "$_f" "$_f.s2tmp"; then rm -f "$_f.s2tmp"; else mv "$_f.s2tmp" "$_f"; fi
}

# s2_fix_png_gray_trns SRC: FFmpeg's PNG decoder compared a gray image's tRNS value of 1, 2
# or 4 bits with samples already expanded to 8 bits, so only a transparent value of 0 took
# effect, and refused tRNS at 1 bit: the transparency was dropped, silently (a 1-bit image
# against the same pixels as gray with alpha: 85.7 instead of 100). The value is expanded
# as the samples are, and 1-bit gray with tRNS is decoded as 8-bit gray with alpha (not in
# APNG, whose sub-frames put their bits at a byte offset: still refused there).
# Idempotent; a tree without the patterns is left alone.
s2_fix_png_gray_trns() {
    _f=$1/libavcodec/pngdec.c
    [ -f "$_f" ] && ! grep -q 'tRNS: expanded as the samples' "$_f" || return 0
    grep -q '^            s->bit_depth == 1)$' "$_f" &&
        grep -q '^                s->transparent_color_be\[i\] = v;$' "$_f" &&
        grep -q '^        av_assert0(s->bit_depth > 1);$' "$_f" &&
        grep -q '^    } else if (s->bits_per_pixel == 2) {$' "$_f" || return 0
    sed -e '/^            (s->color_type == PNG_COLOR_TYPE_RGB && length != 6) ||$/{
N
s/ ||\n            s->bit_depth == 1)$/)/
}' \
        -e '/^            else$/{
N
s/^            else\n\(                s->transparent_color_be\[i\] = \)v;$/            else \/\/ tRNS: expanded as the samples of 1, 2 and 4 bits are\
\1s->bit_depth < 8 ? v * (255 \/ ((1 << s->bit_depth) - 1)) : v;/
}' \
        -e '/^        } else if ((s->bit_depth == 2 || s->bit_depth == 4 || s->bit_depth == 8) &&$/{
N
s/^\(        } else if ((s->bit_depth == 2 || s->bit_depth == 4 || s->bit_depth == 8\)) &&\n\(                s->color_type == PNG_COLOR_TYPE_GRAY) {\)$/\1 ||\
                    (s->bit_depth == 1 \&\& s->has_trns \&\& avctx->codec_id != AV_CODEC_ID_APNG)) \&\&\
\2/
}' \
        -e '/^        av_assert0(s->bit_depth > 1);$/{
N
/\n$/d
s/^[^\n]*\n//
}' \
        -e 's/^    } else if (s->bits_per_pixel == 2) {$/    } else if (s->bits_per_pixel == 1 \&\& s->color_type == PNG_COLOR_TYPE_GRAY \&\& s->has_trns) {\
        \/\/ 1-bit gray with tRNS, decoded as 8-bit gray (expanded in place, from the right)\
        uint8_t *pd = p->data[0];\
        for (int j = 0; j < s->height; j++) {\
            for (int i = s->width - 1; i >= 0; i--)\
                pd[i] = (pd[i >> 3] >> (7 - (i \& 7)) \& 1) * 0xff;\
            pd += p->linesize[0];\
        }\
&/' "$_f" > "$_f.s2tmp" || return 1
    s2_all_applied "$_f" 'bit_depth == 1 && s->has_trns && avctx->codec_id' 'tRNS: expanded as the samples' \
        'expanded in place, from the right' || return 1
    grep -q 'av_assert0(s->bit_depth > 1);\|            s->bit_depth == 1)$' "$_f.s2tmp" &&
        { rm -f "$_f.s2tmp"; echo "s2_fix_png_gray_trns: $_f changed upstream; not patched" >&2; return 1; }
    if cmp -s "$_f" "$_f.s2tmp"; then rm -f "$_f.s2tmp"; else mv "$_f.s2tmp" "$_f"; fi
}

# s2_fix_image_label SRC: a filtergraph label such as [0:v] on a tiled image (HEIF, AVIF
# grids) binds the first tile's stream, so a filter compared one tile, silently (two tiled
# AVIFs differing outside their first tile: 100 instead of 70.4); on an animated AVIF it
# binds the still image item, one frame, not the sequence. ffmpeg now says so and names
# what binds the whole: the tile grid's stream group ([0:g:0]), the sequence's stream.
# Unlabeled, a graph input takes a tiled image before any stream (its tiles' graph is an
# unbound output): a tiled reference became the distorted input, silently; said too.
# Idempotent; a tree without the pattern is left alone.
s2_fix_image_label() {
    _f=$1/fftools/ffmpeg_filter.c
    [ -f "$_f" ] && ! grep -q 'the filters get that tile alone' "$_f" || return 0
    [ "$(grep -c '^                   ifilter->linklabel, ist->file->index, ist->index);$' "$_f")" = 1 ] ||
        return 0
    sed -e '/^                   ifilter->linklabel, ist->file->index, ist->index);$/a\
        // a tile of a tiled image (HEIF, AVIF grids): the filters would get that tile (the\
        // graph ffmpeg makes of the tiles, is_internal, joins them)\
        for (unsigned g = 0; commit \&\& !fg->is_internal \&\& g < s->nb_stream_groups; g++)\
            for (unsigned t = 0; s->stream_groups[g]->type == AV_STREAM_GROUP_PARAMS_TILE_GRID \&\&\
                                 t < s->stream_groups[g]->nb_streams; t++)\
                if (s->stream_groups[g]->streams[t] == st)\
                    av_log(fg, AV_LOG_WARNING, "Input label \x27%s\x27 is stream %d:%d, one of "\
                           "the %u tiles of a tiled image: the filters get that tile alone. The "\
                           "whole image is stream group %d:g:%u ([%d:g:%u]).\\n",\
                           ifilter->linklabel, file_idx, st->index,\
                           s->stream_groups[g]->nb_streams, file_idx, g, file_idx, g);\
        // the still image of an animated one (an AVIF item beside its sequence track)\
        for (unsigned j = 0; commit \&\& !fg->is_internal \&\& st->nb_frames == 1 \&\&\
                             !(st->disposition \& AV_DISPOSITION_ATTACHED_PIC) \&\&\
                             j < s->nb_streams; j++)\
            if (s->streams[j]->codecpar->codec_type == AVMEDIA_TYPE_VIDEO \&\&\
                s->streams[j]->nb_frames > 1 \&\&\
                !(s->streams[j]->disposition \& AV_DISPOSITION_ATTACHED_PIC)) {\
                av_log(fg, AV_LOG_WARNING, "Input label \x27%s\x27 is stream %d:%d, a still image "\
                       "of one frame; stream %d:%u of that file has %"PRId64" frames (an "\
                       "animated image\x27s sequence): [%d:%u] binds it.\\n", ifilter->linklabel,\
                       file_idx, st->index, file_idx, j, s->streams[j]->nb_frames, file_idx, j);\
                break;\
            }' \
        -e '/^                               "Binding unlabeled filtergraph input to filtergraph output %d:%d\\n", i, j);$/a\
                        // a tiled image (the graph made of its tiles) goes before the streams\
                        if (fg_src->is_internal)\
                            av_log(fg, AV_LOG_WARNING, "Unlabeled input %d of the filter graph "\
                                   "takes a tiled image, before the files\x27 streams: label the "\
                                   "inputs to choose each (e.g. [0:v][1:g:0]).\\n", ifilter->index);' \
        "$_f" > "$_f.s2tmp" || return 1
    s2_all_applied "$_f" 'the filters get that tile alone' 'a still image "' 'takes a tiled image, before' ||
        return 1
    if cmp -s "$_f" "$_f.s2tmp"; then rm -f "$_f.s2tmp"; else mv "$_f.s2tmp" "$_f"; fi
}

# s2_fix_graph_eof SRC: a filtergraph fed by another (the graph ffmpeg makes of a tiled
# image's tiles, chained -filter_complex graphs) was never told that input had ended: the
# sending graph only closed its queue, and sch_filter_receive() disregards a close that no
# EOF frame precedes (decoders send one). The receiving graph kept choosing the ended input,
# and the scheduler kept the other input's demuxer choked: a tiled HEIF/AVIF beside a PNG
# hung 1 run in 5 to 10 (psnr too; with a 5-frame second input every run). The sending
# graph now sends an EOF frame at the end of its last frame first, as decoders do (0 hangs
# in 320 runs), and no longer the dummy frame meant for encoders (to the receiving graph a
# frame without data and without the EOF mark). A graph fed by one that made no frame has
# no fallback parameters: its EOF was a NULL dereference (select=0 chained into another
# -filter_complex: a crash in stock 8.1), now FFmpeg's error for an input of no format.
# Idempotent; a tree without the patterns is left alone.
s2_fix_graph_eof() {
    _f=$1/fftools/ffmpeg_filter.c
    [ -f "$_f" ] && ! grep -q 'this output feeds another filtergraph' "$_f" || return 0
    for _p in '^    int                     needed;$' '^    int64_t                 next_pts;$' \
              '^    ifp->ofilter_src = ofilter;$' '^    fgt->eof_out\[ofp->ofilter.index\] = 1;$' \
              '^        // send the frame to consumers$' 'at least initialize the encoder with a dummy frame$' \
              '^            // the filtergraph was never configured, use the fallback parameters$'; do
        [ "$(grep -c "$_p" "$_f")" = 1 ] || return 0
    done
    sed -e '/^    int                     needed;$/a\
    // this output feeds another filtergraph rather than an encoder\
    int                     bound_fg;' \
        -e '/^    int64_t                 next_pts;$/a\
    // end of the last frame sent (its pts + duration), for the EOF frame\
    int64_t                 end_pts;' \
        -e '/^    ifp->ofilter_src = ofilter;$/a\
    ofp->bound_fg = 1;' \
        -e '/at least initialize the encoder with a dummy frame$/{
n
s/^    if (!fgt->got_frame) {$/    if (!fgt->got_frame \&\& !ofp->bound_fg) {/
}' \
        -e '/^        if (ifp->format < 0) {$/{
N
s/^        if (ifp->format < 0) {\n\(            \/\/ the filtergraph was never configured, use the fallback parameters\)$/        if (ifp->format < 0 \&\& ifp->opts.fallback) {\
\1\
            \/\/ (an input fed by another filtergraph has none)/
}' \
        -e '/"Cannot determine format of input %s after EOF\\n",$/{
n
s/^                   ifp->opts.name);$/                   ifp->opts.name ? ifp->opts.name : (const char *)ifilter->name);/
}' \
        -e '/^        \/\/ send the frame to consumers$/i\
        // (a video frame keeps its duration in the sink'"'"'s time base)\
        ofp->end_pts = frame_out->pts + FFMAX(type != AVMEDIA_TYPE_VIDEO ? frame_out->duration :\
                                              av_rescale_q(frame_out->duration,\
                                                           av_buffersink_get_time_base(ofp->ofilter.filter),\
                                                           ofp->tb_out), 1);\
' \
        -e '/^    fgt->eof_out\[ofp->ofilter.index\] = 1;$/a\
\
    // a downstream filtergraph only notices the end of its input through an\
    // EOF frame, the per-stream EOF is disregarded by sch_filter_receive();\
    // send one at the end of the last frame, like decoders do\
    if (ofp->bound_fg) {\
        AVFrame *frame = fgt->frame;\
\
        av_frame_unref(frame);\
\
        frame->opaque    = (void*)(intptr_t)FRAME_OPAQUE_EOF;\
        frame->pts       = ofp->tb_out_locked ? ofp->end_pts : AV_NOPTS_VALUE;\
        frame->time_base = ofp->tb_out;\
\
        ret = sch_filter_send(fgp->sch, fgp->sch_idx, ofp->ofilter.index, frame);\
        if (ret < 0) {\
            av_frame_unref(frame);\
            return (ret == AVERROR_EOF) ? 0 : ret;\
        }\
    }' "$_f" > "$_f.s2tmp" || return 1
    s2_all_applied "$_f" 'int                     bound_fg;' '    ofp->bound_fg = 1;' \
        'like decoders do' 'int64_t                 end_pts;' 'ofp->end_pts = frame_out->pts' \
        "sink's time base" \
        '!fgt->got_frame && !ofp->bound_fg' 'ifp->format < 0 && ifp->opts.fallback' \
        'ifp->opts.name : (const char *)ifilter->name' || return 1
    if cmp -s "$_f" "$_f.s2tmp"; then rm -f "$_f.s2tmp"; else mv "$_f.s2tmp" "$_f"; fi
}

# s2_all_applied FILE TEXT...: each TEXT is in FILE.s2tmp (a fix's edits all made), else
# FILE.s2tmp is removed with an error: a tree that changed under a fix's patterns is not
# left half patched
s2_all_applied() {
    _a=$1; shift
    for _t in "$@"; do
        grep -qF -- "$_t" "$_a.s2tmp" && continue
        rm -f "$_a.s2tmp"
        echo "${_a##*/}: FFmpeg's file changed where an overlay fix applies ('$_t' not made); not patched" >&2
        return 1
    done
}

# s2_fix_scale_chroma_siting SRC: FFmpeg's scale filter (every format conversion lavfi
# inserts, format=, scale=) sets each input frame's chroma siting to its in_chroma_loc
# option, unspecified unless given, before copying the frame's properties to its output: a
# conversion that keeps the chroma samples where they are (the same subsampling and size)
# loses their siting tag, and a centre-sited 4:2:0 source converted with format=yuv420p10le
# (ab-av1's graph) was read as left-sited, 0.4 points off. Such an output gets the input's
# tag back, after swscale has run: swscale resamples chroma between the tags of its input
# and output, so what it computes stays as in stock FFmpeg (its pixels, and FATE's
# references, do not change; a first version tagged the output before swscale, which then
# moved the chroma of every left-sited nv12, p010 or packed 4:2:2 frame it converted).
# Idempotent; a tree without the patterns is left alone.
s2_fix_scale_chroma_siting() {
    _f=$1/libavfilter/vf_scale.c
    [ -f "$_f" ] && ! grep -q 'in_loc = in->chroma_location;' "$_f" || return 0
    grep -q '^    int ret, flags_orig, frame_changed;$' "$_f" &&
        grep -q '^    int in_h_chr_pos;$' "$_f" &&
        grep -q '^    in->chroma_location = scale->in_chroma_loc;$' "$_f" &&
        grep -q '^        out->chroma_location = scale->out_chroma_loc;$' "$_f" &&
        [ "$(grep -c '^        in->flags = flags_orig;$' "$_f")" = 1 ] &&
        grep -q '^    out->format = outlink->format; /\* undo PAL8 handling \*/$' "$_f" || return 0
    sed -e 's/^    int ret, flags_orig, frame_changed;$/    int ret, flags_orig, frame_changed;\
    enum AVChromaLocation in_loc;/' \
        -e 's/^    in->chroma_location = scale->in_chroma_loc;$/    in_loc = in->chroma_location;\
&/' \
        -e '/^        out->chroma_location = scale->out_chroma_loc;$/a\
    /* the siting is kept only by a conversion of the same subsampling and size\
     * that no siting option moves */\
    if (scale->out_chroma_loc != AVCHROMA_LOC_UNSPECIFIED ||\
        scale->in_chroma_loc != AVCHROMA_LOC_UNSPECIFIED ||\
        scale->in_h_chr_pos != -513 || scale->in_v_chr_pos != -513 ||\
        scale->out_h_chr_pos != -513 || scale->out_v_chr_pos != -513 ||\
        out->width != in->width || out->height != in->height ||\
        av_pix_fmt_desc_get(outlink->format)->log2_chroma_w !=\
            av_pix_fmt_desc_get(in->format)->log2_chroma_w ||\
        av_pix_fmt_desc_get(outlink->format)->log2_chroma_h !=\
            av_pix_fmt_desc_get(in->format)->log2_chroma_h)\
        in_loc = AVCHROMA_LOC_UNSPECIFIED;' \
        -e '/^        in->flags = flags_orig;$/a\
        if (in_loc != AVCHROMA_LOC_UNSPECIFIED)\
            in->chroma_location = in_loc;' \
        -e '/^    out->format = outlink->format; \/\* undo PAL8 handling \*\/$/a\
    /* tagged after swscale, which resamples between tags */\
    if (in_loc != AVCHROMA_LOC_UNSPECIFIED)\
        out->chroma_location = in_loc;' "$_f" > "$_f.s2tmp" || return 1
    if cmp -s "$_f" "$_f.s2tmp"; then rm -f "$_f.s2tmp"; else mv "$_f.s2tmp" "$_f"; fi
}
