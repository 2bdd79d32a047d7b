# Common helpers for the ssimulacra2 test scripts. Sourced (bash), not run.
#
# Environment (all optional):
#   FFMPEG, FFPROBE        binaries under test      [<repo>/build/ffmpeg, <repo>/build/ffprobe]
#   SSIMU2_SAMPLES         reference data folder    [<repo>/../shared/testdata, if present]
#   SSIMU2_ORACLE_SRC      ssimu2-oracle.c          [<repo>/../shared/tools/ssimu2-oracle.c, if present]
#   SSIMU2_SPEC_VECTORS    spec test vectors        [$SSIMU2_SAMPLES/../spec/testvectors, if present]
#   SSIMU2_TEST_OUT        scratch/output folder    [<repo>/tests/out]
#   CC                     C compiler for the oracle and the generator [gcc]
#
# Exit status convention of every run-*.sh: 0 pass, 1 fail, 77 skip.

S2_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
S2_TESTS=$S2_ROOT/tests

: "${FFMPEG:=$S2_ROOT/build/ffmpeg}"
: "${FFPROBE:=$(dirname "$FFMPEG")/ffprobe}"
if [ -z "${SSIMU2_SAMPLES:-}" ] && [ -d "$S2_ROOT/../shared/testdata" ]; then
    SSIMU2_SAMPLES=$(cd "$S2_ROOT/../shared/testdata" && pwd)
fi
if [ -z "${SSIMU2_ORACLE_SRC:-}" ] && [ -f "$S2_ROOT/../shared/tools/ssimu2-oracle.c" ]; then
    SSIMU2_ORACLE_SRC=$(cd "$S2_ROOT/../shared/tools" && pwd)/ssimu2-oracle.c
fi
if [ -z "${SSIMU2_SPEC_VECTORS:-}" ]; then
    if [ -n "${SSIMU2_SAMPLES:-}" ] && [ -d "$SSIMU2_SAMPLES/../spec/testvectors" ]; then
        SSIMU2_SPEC_VECTORS=$(cd "$SSIMU2_SAMPLES/../spec/testvectors" && pwd)
    elif [ -d "$S2_ROOT/../shared/spec/testvectors" ]; then
        SSIMU2_SPEC_VECTORS=$(cd "$S2_ROOT/../shared/spec/testvectors" && pwd)
    fi
fi
: "${SSIMU2_TEST_OUT:=$S2_TESTS/out}"
: "${CC:=gcc}"
export FFMPEG FFPROBE SSIMU2_SAMPLES SSIMU2_ORACLE_SRC SSIMU2_SPEC_VECTORS SSIMU2_TEST_OUT
mkdir -p "$SSIMU2_TEST_OUT" || exit 1
S2_BIN=$SSIMU2_TEST_OUT/bin
S2_AWK=$S2_TESTS/lib

s2_name=$(basename "$0" .sh)

say()  { printf '%s\n' "$*"; }
skip() { printf 'SKIP: %s (%s)\n' "$s2_name" "$*"; exit 77; }
die()  { printf 'FAIL: %s: %s\n' "$s2_name" "$*"; exit 1; }

# need_ffmpeg [filter]: skip unless $FFMPEG runs and has the filter (default ssimulacra2)
need_ffmpeg() {
    [ -x "$FFMPEG" ] || die "ffmpeg not found at $FFMPEG (build first, or set FFMPEG)"
    have_filter "${1:-ssimulacra2}" || die "$FFMPEG has no ${1:-ssimulacra2} filter"
}
have_filter() {
    "$FFMPEG" -hide_banner -loglevel quiet -h "filter=$1" 2>/dev/null | grep -q "^Filter $1\$"
}
need_samples() { # need_samples SUBDIR
    if [ -z "${SSIMU2_SAMPLES:-}" ]; then skip "SSIMU2_SAMPLES not set"; fi
    [ -d "$SSIMU2_SAMPLES/$1" ] || skip "SSIMU2_SAMPLES not found: $SSIMU2_SAMPLES/$1"
}

# build_c NAME SRC [extra flags]: compile SRC into $S2_BIN/NAME if missing or older; prints path
build_c() {
    local name=$1 src=$2; shift 2
    local out=$S2_BIN/$name
    mkdir -p "$S2_BIN"
    if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
        "$CC" -O2 -mfma -ffp-contract=off "$@" -o "$out.tmp" "$src" -lm >&2 || return 1
        mv "$out.tmp" "$out"
    fi
    printf '%s\n' "$out"
}
# build_oracle: prints the oracle's path; returns 1 (with a message) if it cannot be built
build_oracle() {
    if [ -z "${SSIMU2_ORACLE_SRC:-}" ] || [ ! -f "$SSIMU2_ORACLE_SRC" ]; then
        echo "oracle source not found (set SSIMU2_ORACLE_SRC)" >&2; return 1
    fi
    build_c ssimu2-oracle "$SSIMU2_ORACLE_SRC"
}
build_randpair() { build_c randpair "$S2_TESTS/tools/randpair.c" -Wall; }

# need_build_tree: skip unless the FFmpeg build tree ($BUILD_OBJ, default build/obj) has its
# static libraries; sets OBJ and SRC (the source tree beside it) for programs linked to them
need_build_tree() {
    OBJ=${BUILD_OBJ:-$S2_ROOT/build/obj}
    SRC=$(dirname "$OBJ")/src
    [ -f "$OBJ/libavfilter/libavfilter.a" ] && [ -f "$OBJ/ffbuild/config.mak" ] ||
        skip "no FFmpeg build tree at $OBJ (run ./configure && make)"
}
# build_tree_libs: the system libraries FFmpeg's static libraries in $OBJ need, each once
build_tree_libs() {
    sed -n 's/^EXTRALIBS-[a-z_]*=//p' "$OBJ/ffbuild/config.mak" | tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' '
}
# build_tree_san_flags: the -fsanitize=* and -static-lib*san flags of $OBJ's LDFLAGS (a
# sanitized build's libraries need the same runtime in what links them)
build_tree_san_flags() {
    sed -n 's/^LDFLAGS=//p' "$OBJ/ffbuild/config.mak" | tr ' ' '\n' |
        grep -E '^-(fsanitize=|static-lib[a-z]*san$)' | tr '\n' ' '
}

# s2_score DIST REF LOG [extra ffmpeg args before -lavfi] : one pair through the filter,
# json log at LOG (plain file name, no ':' or quotes). Prints the frame-0 score (%.17g).
s2_score() {
    local dist=$1 ref=$2 log=$3; shift 3
    rm -f "$log"
    "$FFMPEG" -nostdin -hide_banner -loglevel error -i "$dist" -i "$ref" "$@" \
        -lavfi "[0:v][1:v]ssimulacra2=log_path=$log:log_fmt=json" -f null - 2> "$log.err" ||
        { sed "s/^/    ffmpeg: /" "$log.err" | head -n 2 >&2; return 1; }
    awk -f "$S2_AWK/parselog.awk" "$log" | awk '$1 == "frame" { print $3; exit }'
}

# s2_frame_scores LOG: "frameNum score" lines of a log, scores as written (%.17g text)
s2_frame_scores() { awk -f "$S2_AWK/parselog.awk" "$1" | awk '$1 == "frame" { print $2, $3 }'; }

# s2_gen_pair SOURCE SIZE FMT SECONDS DIST REF: a generated reference (lavfi SOURCE) and its
# distortion (noise + blur) as raw FMT frames at 10 fps; formats with alpha get a
# varying alpha (noised and blurred too), so that the blending is checked. Written once, so
# that every filter compared reads the same bytes: noise and gblur are not bit-reproducible
# from run to run on every CPU (seen with AVX-512 and 16 threads).
s2_gen_pair() {
    local base=format=yuv444p
    case $3 in
        yuva*|rgba*|bgra*|argb|abgr|gbrap*|ya*)
            base="format=yuva444p,geq=lum='lum(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':a='mod(X*37+Y*11,256)'" ;;
    esac
    "$FFMPEG" -hide_banner -nostdin -loglevel error -y -filter_complex \
        "$1=s=$2:r=10:d=$4,$base,split[a][b];[a]noise=alls=18:allf=t,gblur=sigma=0.6,format=$3[d];[b]format=$3[r]" \
        -map "[d]" -f rawvideo "$5" -map "[r]" -f rawvideo "$6"
}

# absdiff A B: |A-B| in %.3g
absdiff() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; printf "%.3g\n", d }'; }

# s2_code_formats FILE ARRAY: lower-case names of the formats of an AV_PIX_FMT_ array in the
# source (big-endian ones end in "be")
s2_code_formats() {
    sed -n "/$2\[\] = {/,/};/p" "$1" | grep -o 'AV_PIX_FMT_[A-Z0-9]*' |
        grep -v 'AV_PIX_FMT_NONE' | sed 's/AV_PIX_FMT_//; s/^GRAY8$/GRAY/' | tr 'A-Z' 'a-z' | sort -u
}
