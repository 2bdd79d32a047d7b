#!/usr/bin/env bash
# One reading of both inputs: tags one input lacks are taken from the other (an x264 encode
# tagged BT.709 against its untagged Y4M source scores as the explicitly tagged pair), except
# the range (an untagged Y'CbCr input stays limited beside a full-range one),
# disagreeing tags warn, options override both; and inputs of different formats (bit depth,
# layout, subsampling) are each read with their own descriptor.
. "$(dirname "$0")/lib/common.sh"
need_ffmpeg
W=$SSIMU2_TEST_OUT/colour
rm -rf "$W"; mkdir -p "$W"
F=ssimulacra2
n=0 bad=0
ok()   { n=$((n + 1)); say "  ok   $*"; }
fail() { n=$((n + 1)); bad=$((bad + 1)); say "  FAIL $*"; }

# mean NAME INPUTS... -- GRAPH: the pooled mean of a run (%.17g from the json log); the
# stderr is kept in $W/NAME.log
mean() {
    local name=$1; shift
    local in=()
    while [ "$1" != -- ]; do in+=("$1"); shift; done
    local sep=:
    case $2 in *"$F") sep== ;; esac
    "$FFMPEG" -nostdin -hide_banner -loglevel info "${in[@]}" \
        -lavfi "$2${sep}log_path=$W/$name.json" -f null - 2> "$W/$name.log" ||
        { sed 's/^/    /' "$W/$name.log" | grep -v '^    \(frame=\| \)' | tail -n 3 >&2; return 1; }
    awk -f "$S2_AWK/parselog.awk" "$W/$name.json" | awk '$1 == "stat" && $2 == "mean" { print $3 }'
}
# within A B TOL
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= t) }'; }
warned() { grep -qF -- "$2" "$W/$1.log"; }
# refused NAME WHAT ADVICE GRAPH WANT INPUTS...: the pair of INPUTS is refused naming ADVICE
# ("format=..."), and GRAPH, the advice applied, scores WANT (the same samples read directly)
refused() {
    local name=$1 what=$2 advice=$3 graph=$4 want=$5 advised
    shift 5
    if mean "$name" "$@" -- "[0:v][1:v]$F" > /dev/null 2>&1; then
        fail "$what: scored through lavfi's conversion"
    elif ! warned "$name" "e.g. with $advice on that input"; then
        fail "$what: not refused naming $advice"
    else
        advised=$(mean "$name-advised" "$@" -- "$graph")
        [ -n "$advised" ] && [ "$advised" = "$want" ] &&
            ok "$what: refused; $advice scores as the samples read directly ($advised)" ||
            fail "$what: $advice scores $advised, the samples read directly $want"
    fi
}

say "$F: tags"
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "testsrc2=s=640x360:r=25:d=0.4,setparams=chroma_location=left" \
    -pix_fmt yuv420p "$W/src.y4m" || die "cannot make the Y4M source"
head -n 1 "$W/src.y4m" | grep -q C420mpeg2 || die "the Y4M source is not C420mpeg2"
if command -v x264 > /dev/null; then
    x264 --quiet --crf 34 --colormatrix bt709 --range tv --chromaloc 0 --colorprim bt709 --transfer bt709 \
        -o "$W/enc.mkv" "$W/src.y4m" 2> /dev/null || die "x264 failed"
    untagged=$(mean untagged -i "$W/enc.mkv" -i "$W/src.y4m" -- "[0:v][1:v]$F")
    tagged=$(mean tagged -i "$W/enc.mkv" -colorspace bt709 -color_range tv -i "$W/src.y4m" -- "[0:v][1:v]$F")
    bt601=$(mean bt601 -i "$W/enc.mkv" -i "$W/src.y4m" -- "[0:v][1:v]$F=matrix=bt601")
    if within "$untagged" "$tagged" 1e-9; then ok "x264 BT.709 encode vs untagged Y4M: $untagged, as with the Y4M tagged BT.709 ($tagged)"
    else fail "x264 BT.709 encode vs untagged Y4M: $untagged, tagged pair $tagged"; fi
    warned untagged "The reference input has no matrix tag; it is read as the distorted input's: bt709" &&
        ok "the inherited matrix is named at info level" || fail "no message naming the inherited matrix"
    [ -n "$bt601" ] && ! within "$bt601" "$tagged" 0.1 && ok "matrix=bt601 overrides both inputs: $bt601" ||
        fail "matrix=bt601 override: '$bt601'"
else
    fail "x264 not found (apt-get install x264): the x264 reproducer cannot run"
fi

# siting: the same pixels, tagged differently
SRC=(-f lavfi -i "testsrc2=s=320x240:r=10:d=0.3,format=yuv420p" -f lavfi -i "testsrc2=s=320x240:r=10:d=0.3,format=yuv420p")
D="[0:v]noise=alls=10,gblur=sigma=0.7"
both_tl=$(mean both-topleft "${SRC[@]}" -- "$D,setparams=chroma_location=topleft[a];[1:v]setparams=chroma_location=topleft[b];[a][b]$F")
one_tl=$(mean one-topleft "${SRC[@]}" -- "$D,setparams=chroma_location=unknown[a];[1:v]setparams=chroma_location=topleft[b];[a][b]$F")
differ=$(mean siting-differs "${SRC[@]}" -- "$D,setparams=chroma_location=left[a];[1:v]setparams=chroma_location=topleft[b];[a][b]$F")
override=$(mean siting-override "${SRC[@]}" -- "$D,setparams=chroma_location=left[a];[1:v]setparams=chroma_location=center[b];[a][b]$F=chroma_loc=topleft")
within "$one_tl" "$both_tl" 1e-9 && ok "an untagged siting takes the other input's: $one_tl" ||
    fail "untagged siting: $one_tl, both tagged topleft: $both_tl"
warned siting-differs "The inputs' chroma siting tags differ: distorted left, reference topleft" &&
    warned siting-differs "chroma_loc=" && ok "different sitings warn, naming both and chroma_loc=" ||
    fail "no warning naming both sitings and chroma_loc="
# an encoder keeps its source's chroma samples: both are read with the reference's siting (each
# read with its own, a Y4M-piped source against its x264 encode scored 49.8 instead of 54.6)
within "$differ" "$both_tl" 1e-9 && ok "different sitings: both read as the reference's ($differ)" ||
    fail "different sitings: $differ, both read as the reference's (topleft) $both_tl"
# ... of the same subsampling only: chroma of another subsampling was resampled, its tag is its own
mean siting-422 "${SRC[@]}" -- "$D,format=yuv422p,setparams=chroma_location=left[a];[1:v]setparams=chroma_location=topleft[b];[a][b]$F" > /dev/null &&
    warned siting-422 "each input is read with its own" && ok "different sitings of 4:2:2 and 4:2:0: each its own" ||
    fail "different sitings of 4:2:2 and 4:2:0: not each read with its own"
# ... but where only the rows were resampled (a 4:2:2 MJPEG source encoded as untagged, so
# left, 4:2:0 H.264) the columns are the source's: read as the reference's (each its own,
# 90.3 on a lossless encode against 93.0 read both centre, the independent oracle's 93.0)
COLS="$D,format=yuv422p,setparams=chroma_location=center,format=yuv420p,setparams=chroma_location=left[a];[1:v]format=yuv422p,setparams=chroma_location=center[b];[a][b]$F"
cols=$(mean siting-columns "${SRC[@]}" -- "$COLS")
cols_centre=$(mean siting-columns-centre "${SRC[@]}" -- "$COLS=chroma_loc=center")
within "$cols" "$cols_centre" 1e-9 && warned siting-columns "chroma columns are read as the reference's (center" &&
    ok "4:2:0 tagged left beside its 4:2:2 centre source: the columns read centre ($cols)" ||
    fail "4:2:0 left beside 4:2:2 centre: $cols, read centre $cols_centre"
within "$override" "$both_tl" 1e-9 && ! warned siting-override "differ" && ok "chroma_loc=topleft reads both as topleft, silently" ||
    fail "chroma_loc=topleft: $override, expected $both_tl"
# a format conversion keeps the siting tag (FFmpeg's scale filter, which lavfi's conversions
# use, reset it: ab-av1's format=yuv420p10le on both inputs read a centre-sited source as
# left-sited, 0.4 points off; an overlay fix of vf_scale.c)
TEN="$D,setparams=chroma_location=center,format=yuv420p10le[a];[1:v]setparams=chroma_location=center,format=yuv420p10le[b];[a][b]$F"
converted=$(mean siting-converted "${SRC[@]}" -- "$TEN")
converted_c=$(mean siting-converted-center "${SRC[@]}" -- "$TEN=chroma_loc=center")
[ -n "$converted" ] && [ "$converted" = "$converted_c" ] && ok "format=yuv420p10le keeps the centre siting tag: $converted" ||
    fail "format=yuv420p10le: $converted, read as centre-sited $converted_c"
# ... and a conversion that keeps the siting does not move the chroma: the tag goes on after
# swscale (tagged before, swscale resampled left- and topleft-sited nv12, p010 and packed 4:2:2
# frames between a centre input and the tagged output: a real H.264 clip through
# format=nv12,format=yuv420p10le scored 28.98 instead of 29.65). The same frames untagged,
# converted, then read with chroma_loc= must score the same.
# a no-op scale keeps the tag too (it handed on its input with the tag reset): a centre-sited
# distorted input then gives an untagged reference its siting
noop=$(mean siting-noop "${SRC[@]}" -- "$D,setparams=chroma_location=center,scale=iw:ih[a];[1:v]setparams=chroma_location=unknown[b];[a][b]$F")
noop_c=$(mean siting-noop-center "${SRC[@]}" -- "$D,scale=iw:ih[a];[a][1:v]$F=chroma_loc=center")
[ -n "$noop" ] && [ "$noop" = "$noop_c" ] && ok "a no-op scale keeps the centre siting tag: $noop" ||
    fail "a no-op scale: $noop, read as centre-sited $noop_c"
for route in "left nv12,format=yuv420p10le yuv420p" "topleft p010le,format=yuv420p yuv420p" \
             "left uyvy422,format=yuv422p10le yuv422p"; do
    set -- $route
    name=moved-$1-$3
    tagged=$(mean "$name" "${SRC[@]}" -- "$D,format=$3,setparams=chroma_location=$1,format=$2[a];[1:v]format=$3,setparams=chroma_location=$1[b];[a][b]$F")
    untagged=$(mean "$name-untagged" "${SRC[@]}" -- "$D,format=$3,setparams=chroma_location=unknown,format=$2[a];[1:v]format=$3,setparams=chroma_location=unknown[b];[a][b]$F=chroma_loc=$1")
    [ -n "$tagged" ] && [ "$tagged" = "$untagged" ] && ok "$1-sited $3 -> $2: chroma not moved ($tagged)" ||
        fail "$1-sited $3 -> $2: $tagged, untagged then chroma_loc=$1: $untagged"
done
mean matrix-differs "${SRC[@]}" -- "$D,setparams=colorspace=bt709[a];[1:v]setparams=colorspace=bt470bg[b];[a][b]$F" > /dev/null &&
    warned matrix-differs "matrix tags differ: distorted bt709, reference bt470bg" && warned matrix-differs "matrix=" &&
    ok "different matrices warn, naming both and matrix=" || fail "no warning for different matrices"
# an SD source encoded as BT.709 is read right as tagged: no VP8 / JPEG hint there (it would
# advise matrix=bt709); a distorted input tagged bt470bg beside a BT.709 reference gets it
! grep -q "VP8 and JPEG decoders" "$W/matrix-differs.log" && ok "an SD source's BT.709 encode: no VP8 hint" ||
    fail "an SD source's BT.709 encode: the VP8 / JPEG hint given"
mean matrix-vp8 "${SRC[@]}" -- "$D,setparams=colorspace=bt470bg[a];[1:v]setparams=colorspace=bt709[b];[a][b]$F" > /dev/null &&
    warned matrix-vp8 "FFmpeg's VP8 and JPEG decoders tag every frame bt470bg" &&
    ok "a bt470bg distorted input beside BT.709: the VP8 / JPEG decoders named" ||
    fail "a bt470bg distorted input beside BT.709: no VP8 / JPEG hint"
mean range-differs "${SRC[@]}" -- "$D,setparams=range=pc[a];[1:v]setparams=range=tv[b];[a][b]$F" > /dev/null &&
    warned range-differs "different ranges: distorted pc, reference tv" && ok "different ranges warn" ||
    fail "no warning for different ranges"
# tags that read the same are no difference: smpte170m and bt470bg are one matrix
mean matrix-same "${SRC[@]}" -- "$D,setparams=colorspace=smpte170m[a];[1:v]setparams=colorspace=bt470bg[b];[a][b]$F" > /dev/null &&
    ! warned matrix-same "differ" && ok "smpte170m beside bt470bg (one matrix): no warning" ||
    fail "smpte170m beside bt470bg warned as different matrices"
# beside a reference of full chroma (RGB, 4:4:4), a distorted input left-sited by its stream's
# default (H.264, HEVC) or unspecified was subsampled from it, and FFmpeg subsamples
# centre-sited: it is read so. That premise, byte for byte: ffmpeg's default conversion of
# 4:4:4 to 4:2:0 is the centre-sited one, not the left-sited one
CONV=(-f lavfi -i "testsrc2=s=64x48:d=0.1,format=yuv444p" -frames:v 1 -f framemd5 -)
def=$("$FFMPEG" -nostdin -loglevel error "${CONV[@]:0:4}" -vf format=yuv420p "${CONV[@]:4}" | tail -n 1 | awk '{ print $NF }')
cen=$("$FFMPEG" -nostdin -loglevel error "${CONV[@]:0:4}" -vf scale=out_chroma_loc=center,format=yuv420p "${CONV[@]:4}" | tail -n 1 | awk '{ print $NF }')
lft=$("$FFMPEG" -nostdin -loglevel error "${CONV[@]:0:4}" -vf scale=out_chroma_loc=left,format=yuv420p "${CONV[@]:4}" | tail -n 1 | awk '{ print $NF }')
[ -n "$def" ] && [ "$def" = "$cen" ] && [ "$def" != "$lft" ] &&
    ok "ffmpeg subsamples 4:4:4 to 4:2:0 centre-sited (framemd5)" ||
    fail "ffmpeg's default 4:2:0: $def, centre-sited $cen, left-sited $lft"
"$FFMPEG" -nostdin -loglevel error -i "$S2_ROOT/tests/data/coffee_431x287.png" -vf crop=430:286:0:0 "$W/full.png" &&
"$FFMPEG" -nostdin -loglevel error -i "$W/full.png" -pix_fmt yuv420p -c:v ffv1 "$W/sub-untagged.mkv" &&
"$FFMPEG" -nostdin -loglevel error -i "$W/full.png" -pix_fmt yuv420p -c:v libx264 -crf 16 "$W/sub-h264.mp4" &&
"$FFMPEG" -nostdin -loglevel error -i "$W/full.png" -pix_fmt yuv444p -c:v ffv1 "$W/full444.mkv" ||
    die "cannot make the siting inputs"
for d in sub-untagged.mkv sub-h264.mp4; do
    for r in full.png full444.mkv; do
        name=siting-beside-${r%%.*}-${d%%.*}
        def=$(mean "$name" -i "$W/$d" -i "$W/$r" -- "[0:v][1:v]$F")
        cen=$(mean "$name-center" -i "$W/$d" -i "$W/$r" -- "[0:v][1:v]$F=chroma_loc=center")
        lft=$(mean "$name-left" -i "$W/$d" -i "$W/$r" -- "[0:v][1:v]$F=chroma_loc=left")
        [ -n "$def" ] && [ "$def" = "$cen" ] && [ "$def" != "$lft" ] && warned "$name" "chroma_loc=left" &&
            ok "$d beside $r: read centre-sited ($def; left $lft), chroma_loc=left named" ||
            fail "$d beside $r: $def, centre-sited $cen, left-sited $lft"
    done
done
# a siting the stream states (topleft) stays, and a 4:2:0 reference gives its own
tl=$(mean siting-beside-rgb-topleft -i "$W/sub-untagged.mkv" -i "$W/full.png" -- "[0:v]setparams=chroma_location=topleft[a];[a][1:v]$F")
tl_o=$(mean siting-beside-rgb-topleft-o -i "$W/sub-untagged.mkv" -i "$W/full.png" -- "[0:v][1:v]$F=chroma_loc=topleft")
[ -n "$tl" ] && [ "$tl" = "$tl_o" ] && ok "a topleft tag beside RGB stays topleft ($tl)" ||
    fail "a topleft tag beside RGB: $tl, read topleft $tl_o"
sub=$(mean siting-beside-420 -i "$W/sub-h264.mp4" -i "$W/sub-untagged.mkv" -- "[0:v][1:v]$F")
sub_l=$(mean siting-beside-420-left -i "$W/sub-h264.mp4" -i "$W/sub-untagged.mkv" -- "[0:v][1:v]$F=chroma_loc=left")
[ -n "$sub" ] && [ "$sub" = "$sub_l" ] && ok "beside a 4:2:0 reference the siting is unchanged ($sub)" ||
    fail "beside a 4:2:0 reference: $sub, read left $sub_l"

# a full-range distorted input (a tag, or a yuvj format) beside an untagged Y'CbCr reference:
# the reference stays limited range, as when it is tagged so, and the difference is warned
for d in "setparams=range=pc" "format=yuvj420p"; do
    tv=$(mean "full-vs-tv-${d%%=*}" "${SRC[@]}" -- "$D,$d[a];[1:v]setparams=range=tv[b];[a][b]$F")
    un=$(mean "full-vs-untagged-${d%%=*}" "${SRC[@]}" -- "$D,$d[a];[1:v]setparams=range=unknown[b];[a][b]$F")
    within "$un" "$tv" 1e-9 && warned "full-vs-untagged-${d%%=*}" "reference tv (untagged)" &&
        ok "$d distorted vs untagged reference: read limited ($un), as tagged tv ($tv), with a warning" ||
        fail "$d distorted vs untagged reference: $un, with the reference tagged tv: $tv"
done

# a Y'CbCr format the filter does not read (nv24, packed 4:2:2) is converted by lavfi to the
# reference's tags: the distorted input's lists are the output's, which lavfi narrows to the
# reference's, so swscale made full range limited (86.19 instead of 86.30) or converted the
# matrix through RGB (an untagged one as BT.601: 65.9 instead of 86), silently. Refused,
# naming format= and setparams=, which score as the same frames read directly.
N24="testsrc2=s=160x120:r=10:d=0.3,noise=alls=12:allf=t,format=yuv444p"
R24=(-f lavfi -i "testsrc2=s=160x120:r=10:d=0.3,format=yuv444p,setparams=range=tv:colorspace=bt709")
direct=$(mean nv24-direct -f lavfi -i "$N24,setparams=range=pc:colorspace=bt709" "${R24[@]}" -- "[0:v][1:v]$F")
for tags in "range=pc:colorspace=bt709 range=pc colorspace=bt709:range=pc" \
            "range=tv:colorspace=unknown colorspace=unknown colorspace=bt709:range=tv"; do
    set -- $tags
    if [ "$2" = range=pc ]; then want=$direct
    else want=$(mean nv24-direct-tv -f lavfi -i "$N24,setparams=range=tv:colorspace=bt709" "${R24[@]}" -- "[0:v][1:v]$F"); fi
    refused "nv24-$2" "nv24 ($1) against yuv444p (tv, bt709)" "format=yuv444p,setparams=$3" \
        "[0:v]format=yuv444p,setparams=$3[d];[d][1:v]$F" "$want" \
        -f lavfi -i "$N24,setparams=$1,format=nv24,setparams=$1" "${R24[@]}"
done
# ... not where swscale's matrix stays (untagged, bt470bg and smpte170m are one BT.601 to it)
s601=$(mean nv24-601 -f lavfi -i "$N24,format=nv24" \
        -f lavfi -i "testsrc2=s=160x120:r=10:d=0.3,format=yuv444p,setparams=colorspace=smpte170m" -- "[0:v][1:v]$F")
[ -n "$s601" ] && ok "untagged nv24 against a smpte170m reference: scored ($s601), its matrix unchanged" ||
    fail "untagged nv24 against a smpte170m reference: refused, though swscale keeps its matrix"
# ... and where a format= of the user's is in between (the conversion before it is narrowed too)
DT="$N24,setparams=range=pc:colorspace=bt709"
RT=(-f lavfi -i "testsrc2=s=160x120:r=10:d=0.3,format=yuv444p,setparams=range=tv:colorspace=bt470bg")
want=$(mean user-format-want -f lavfi -i "$DT,format=yuv420p10le,setparams=range=pc:colorspace=bt709" "${RT[@]}" -- "[0:v][1:v]$F")
if mean user-format -f lavfi -i "$DT" "${RT[@]}" -- "[0:v]format=yuv420p10le[d];[d][1:v]$F" > /dev/null; then
    fail "format=yuv420p10le on a bt709 pc input against a bt470bg tv reference: scored, its tags converted"
elif warned user-format "Add setparams=colorspace=bt709:range=pc after that format="; then
    got=$(mean user-format-advised -f lavfi -i "$DT" "${RT[@]}" -- "[0:v]format=yuv420p10le,setparams=colorspace=bt709:range=pc[d];[d][1:v]$F")
    [ -n "$got" ] && [ "$got" = "$want" ] && ok "a format= of the user's converting the tags: refused; the advice scores $got" ||
        fail "a format= of the user's: the advice scores $got, the samples converted in the source $want"
else
    fail "format=yuv420p10le on a bt709 pc input against a bt470bg tv reference: not refused naming setparams"
fi

say "$F: untagged Y'CbCr made from an RGB or gray input (an encode of a PNG)"
# (nineteenth probe) FFmpeg makes untagged Y'CbCr from RGB with BT.601, whatever the height:
# an encode of a 1280x720 PNG by libx264 was read as BT.709 by its height (9.3 instead of 87.5)
HD="testsrc2=s=1280x720:r=10:d=0.1"
if a=$(mean rgb-encode-untagged -f lavfi -i "$HD,noise=alls=10:allf=t,format=rgb24,format=yuv444p" \
        -f lavfi -i "$HD,format=rgb24" -- "[0:v][1:v]$F") &&
   b=$(mean rgb-encode-bt601 -f lavfi -i "$HD,noise=alls=10:allf=t,format=rgb24,format=yuv444p" \
        -f lavfi -i "$HD,format=rgb24" -- "[0:v][1:v]$F=matrix=bt601") &&
   c=$(mean rgb-encode-bt709 -f lavfi -i "$HD,noise=alls=10:allf=t,format=rgb24,format=yuv444p" \
        -f lavfi -i "$HD,format=rgb24" -- "[0:v][1:v]$F=matrix=bt709") &&
   [ "$a" = "$b" ] && awk -v b="$b" -v c="$c" 'BEGIN { exit !(b > c + 5) }'; then
    ok "untagged 720-line Y'CbCr made from RGB: read as BT.601 ($a; as BT.709 $c)"
else
    fail "untagged 720-line Y'CbCr made from RGB: $a, as BT.601 $b, as BT.709 $c"
fi
# a gray PNG encoded by libx264: yuvj420p tagged gbr (the PNG's tag passed on), refused as an
# unreadable matrix; subsampled chroma cannot hold GBR planes: read as untagged
if a=$(mean gray-encode-gbr -f lavfi -i "testsrc2=s=96x64:r=10:d=0.1,format=gray,noise=alls=10:allf=t,setparams=colorspace=gbr,format=yuvj420p" \
        -f lavfi -i "testsrc2=s=96x64:r=10:d=0.1,format=gray" -- "[0:v][1:v]$F") &&
   b=$(mean gray-encode-bt601 -f lavfi -i "testsrc2=s=96x64:r=10:d=0.1,format=gray,noise=alls=10:allf=t,setparams=colorspace=gbr,format=yuvj420p" \
        -f lavfi -i "testsrc2=s=96x64:r=10:d=0.1,format=gray" -- "[0:v][1:v]$F=matrix=bt601") && [ "$a" = "$b" ]; then
    ok "yuvj420p tagged gbr beside gray: read as untagged ($a)"
else
    fail "yuvj420p tagged gbr beside gray: '$a', with matrix=bt601 '$b'"
fi

# (probe of stop 36) an SD source converted by ffmpeg with -colorspace bt709 (ffmpeg converts,
# reading the untagged source as BT.601): the untagged reference takes the encode's bt709, -2.0
# instead of about 80; the frames cannot tell it from a tag set alone (100: same samples), so
# the reading stays and a warning names setparams=colorspace=smpte170m
SD="testsrc2=s=320x180:r=10:d=0.3,format=yuv420p"
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$SD" -c:v ffv1 "$W/sd.mkv" &&
"$FFMPEG" -nostdin -loglevel error -i "$W/sd.mkv" -c:v ffv1 -colorspace bt709 "$W/sd-709.mkv"
a=$(mean sd-converted-709 -i "$W/sd-709.mkv" -i "$W/sd.mkv" -- "[0:v][1:v]$F")
b=$(mean sd-converted-709-advised -i "$W/sd-709.mkv" -i "$W/sd.mkv" -- "[1:v]setparams=colorspace=smpte170m[r];[0:v][r]$F")
t=$(mean sd-tagged-709 -i "$W/sd.mkv" -i "$W/sd.mkv" -- "[0:v]setparams=colorspace=bt709[d];[d][1:v]$F")
# (not for an untagged distorted input beside a tagged reference: an encode is not converted
# from, as an Av1an chunk of an HD source scaled to 480 lines)
u=$(mean sd-untagged-encode -i "$W/sd.mkv" -i "$W/sd.mkv" -- "[1:v]setparams=colorspace=bt709[r];[0:v][r]$F")
[ -n "$u" ] && ! warned sd-untagged-encode "smpte170m before the filter" &&
    ok "an untagged SD encode beside a bt709 reference: not warned ($u)" ||
    fail "an untagged SD encode beside a bt709 reference: '$u', warned"
warned sd-converted-709 "give this one setparams=colorspace=smpte170m" &&
    awk -v a="$a" -v b="$b" -v t="$t" 'BEGIN { exit !(a < 20 && b > 70 && t == 100) }' &&
    ok "an SD source beside its -colorspace bt709 conversion: warned ($a; advised $b; tag only $t)" ||
    fail "an SD source beside its -colorspace bt709 conversion: '$a', advised '$b', tag only '$t', warning: $(grep -c 'smpte170m before' "$W/sd-converted-709.log")"

# (a probe of stop 40) 4:2:0 that ffmpeg made from an RGB picture of odd size: swscale spreads
# the 216 chroma columns of 431 over the whole width, the filter reads them a sample every
# second pixel as codecs do: several points low, unwarned (81.4 against 89.2 for its even crop)
PHOTO=$S2_TESTS/data/coffee_431x287.png
"$FFMPEG" -nostdin -loglevel error -i "$PHOTO" -pix_fmt yuv420p -c:v ffv1 "$W/odd.mkv" &&
"$FFMPEG" -nostdin -loglevel error -i "$PHOTO" -vf crop=430:286:0:0 "$W/even.png" &&
"$FFMPEG" -nostdin -loglevel error -i "$W/even.png" -pix_fmt yuv420p -c:v ffv1 "$W/even.mkv"
d=$(mean odd-chroma -i "$W/odd.mkv" -i "$PHOTO" -- "[0:v][1:v]$F")
a=$(mean odd-chroma-advised -i "$W/odd.mkv" -i "$PHOTO" -- \
    "[0:v]scale=flags=bilinear+full_chroma_inp,format=gbrp16le[d];[d][1:v]$F")
e=$(mean even-chroma -i "$W/even.mkv" -i "$W/even.png" -- "[0:v][1:v]$F")
mean odd-chroma-both -i "$W/odd.mkv" -i "$W/odd.mkv" -- "[0:v][1:v]$F" > /dev/null
# (full range is a JPEG's or an avifenc AVIF's, placed as codecs place it: not warned)
"$FFMPEG" -nostdin -loglevel error -i "$PHOTO" -pix_fmt yuvj420p -q:v 2 "$W/odd-420.jpg"
mean odd-chroma-full -i "$W/odd-420.jpg" -i "$PHOTO" -- "[0:v][1:v]$F" > /dev/null
warned odd-chroma "subsampled chroma at an odd width and height (431x287)" &&
    ! warned even-chroma "chroma at an odd" && ! warned odd-chroma-both "an odd" &&
    ! warned odd-chroma-full "an odd" &&
    awk -v d="$d" -v a="$a" -v e="$e" 'BEGIN { exit !(d < e - 5 && a > e - 0.3 && a < e + 0.3) }' &&
    ok "4:2:0 made by ffmpeg at an odd size: warned ($d; advised $a; even crop $e)" ||
    fail "4:2:0 made by ffmpeg at an odd size: '$d', advised '$a', even crop '$e', warned:" \
        "$(cd "$W" && grep -c 'an odd' ./*-chroma*.log | tr '\n' ' ')"

say "$F: inputs of different formats"
# an 8-bit encode against a 10-bit reference: within 0.05 of the same encode made 10-bit
G10="testsrc2=s=320x240:r=10:d=0.5,format=yuv420p10"
D8="testsrc2=s=320x240:r=10:d=0.5,format=yuv420p,noise=alls=8:allf=t,gblur=sigma=0.6"
s1010=$(mean p10-p10 -f lavfi -i "$D8,format=yuv420p10" -f lavfi -i "$G10" -- "[0:v][1:v]$F")
s0810=$(mean p8-p10 -f lavfi -i "$D8" -f lavfi -i "$G10" -- "[0:v][1:v]$F")
within "$s0810" "$s1010" 0.05 && ok "8-bit vs 10-bit reference: $s0810, 10-bit vs 10-bit: $s1010" ||
    fail "8-bit vs 10-bit reference: $s0810, 10-bit vs 10-bit: $s1010 (more than 0.05 apart)"
# a matrix of formats: every pair runs, and scores like the pair converted to one format
FMTS=${S2_FORMATS:-"yuv420p yuv444p10 nv12 p010 yuv422p12 rgb24 gbrp16 rgba gray"}
C="testsrc2=s=96x64:r=10:d=0.2"
for a in $FMTS; do
    for b in $FMTS; do
        s=$(mean "m-$a-$b" -f lavfi -i "$C,noise=alls=10:allf=t,format=$a" -f lavfi -i "$C,format=$b" -- \
                 "[0:v]format=$a[d];[1:v]format=$b[r];[d][r]$F") || { fail "$a vs $b: ffmpeg failed"; continue; }
        grep -q "auto_scale\|Auto-inserting" "$W/m-$a-$b.log" && { fail "$a vs $b: a conversion was inserted"; continue; }
        n=$((n + 1))
        printf '%s %s %s\n' "$a" "$b" "$s" >> "$W/matrix.txt"
    done
done
nm=$(wc -l < "$W/matrix.txt")
[ "$nm" = $(( $(echo $FMTS | wc -w) ** 2 )) ] && ok "format matrix: $nm pairs of $(echo $FMTS | wc -w) formats ran, each input read in its own format" ||
    fail "format matrix: $nm pairs ran"

say "$F: gray of 10 to 14 bits (HEVC and AV1 monochrome), read as itself"
# tagged tv, limited range: as gray16 with the same values shifted up (FFmpeg's conversion
# to gray16 had read them as full range: 76.22 / 68.07 / 85.13 below)
for b in 10 12 14; do
    m=$((1 << b))
    gray() { echo "color=s=67x45:r=5:d=0.6,format=$1,geq=lum='$2*mod($3,$m)',setparams=range=tv"; }
    R="X*37+Y*91+N*5" D="X*37+Y*91+N*5+floor(mod(X*Y,23)*$m/200)"
    y=$(mean gray$b -f lavfi -i "$(gray gray${b}le 1 "$D")" -f lavfi -i "$(gray gray${b}le 1 "$R")" -- "[0:v][1:v]$F")
    w=$(mean gray$b-as-gray16 -f lavfi -i "$(gray gray16le $((1 << (16 - b))) "$D")" \
            -f lavfi -i "$(gray gray16le $((1 << (16 - b))) "$R")" -- "[0:v][1:v]$F")
    within "$y" "$w" 1e-9 && ok "gray${b}le, limited range, scores as gray16le: $y" ||
        fail "gray${b}le: $y, as gray16le $w"
done

say "$F: float gray (PFM Pf, gray EXR), converted as the error advises"
# the advised conversion keeps the values: the floats made from 16-bit gray images score as
# those (the old advice, format=gray16le, read them as limited range: 83.2 instead of 86.1)
S16=testsrc2=s=64x48:d=0.04
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$S16" -frames:v 1 -pix_fmt gray16be "$W/fg-ref.pgm"
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$S16,noise=alls=20:allf=t" -frames:v 1 -pix_fmt gray16be "$W/fg-dist.pgm"
for f in ref dist; do
    "$FFMPEG" -nostdin -loglevel error -i "$W/fg-$f.pgm" -pix_fmt grayf32le "$W/fg-$f.pfm" || die "cannot make fg-$f.pfm"
done
if "$FFMPEG" -nostdin -hide_banner -i "$W/fg-dist.pfm" -i "$W/fg-ref.pfm" -lavfi "[0:v][1:v]$F" -f null - \
        > "$W/float-gray.log" 2>&1; then
    fail "float gray: not refused"
else
    conv=$(sed -n 's/.* e\.g\. with \([^ ]*\) on that input.*/\1/p' "$W/float-gray.log" | head -n 1)
    a=$(mean float-gray-advised -i "$W/fg-dist.pfm" -i "$W/fg-ref.pfm" -- "[0:v]$conv[a];[1:v]$conv[b];[a][b]$F=transfer=linear")
    b=$(mean float-gray-as-gray16 -i "$W/fg-dist.pgm" -i "$W/fg-ref.pgm" -- "[0:v][1:v]$F=transfer=linear")
    within "$a" "$b" 1e-9 && ok "float gray through the advised $conv scores as its 16-bit source: $a" ||
        fail "float gray through '$conv': $a, its 16-bit source $b"
fi

# a format= of the user's is converted the same way (seventeenth probe: gray16le 30.4 instead
# of 36.3, silently); 8-bit gray is read at full scale
if mean float-gray-user -i "$W/fg-dist.pfm" -i "$W/fg-ref.pfm" \
        -- "[0:v]format=gray16le[a];[1:v]format=gray16le[b];[a][b]$F" > /dev/null 2>&1; then
    fail "float gray with the user's format=gray16le: scored through swscale's limited range"
else
    warned float-gray-user "Use format=yuv444p16le,setparams=range=pc instead" &&
        ok "float gray with the user's format=gray16le: refused, naming the conversion that keeps the values" ||
        fail "float gray with the user's format=gray16le: not refused naming the advised conversion"
fi
# ... also with a setparams after it, which does not mend the values (review: 17.4, silently)
if mean float-gray-user-setparams -i "$W/fg-dist.pfm" -i "$W/fg-ref.pfm" \
        -- "[0:v]format=gray16le,setparams=range=pc[a];[1:v]format=gray16le,setparams=range=pc[b];[a][b]$F" > /dev/null 2>&1; then
    fail "float gray with the user's format=gray16le,setparams=range=pc: scored"
else
    warned float-gray-user-setparams "reads its float gray as limited range" &&
        ok "float gray with the user's format=gray16le,setparams=range=pc: refused" ||
        fail "float gray with the user's format=gray16le,setparams=range=pc: not refused naming the cause"
fi

say "$F: XYZ (JPEG 2000 digital cinema)"
# refused, naming an RGB format (lavfi made it untagged Y'CbCr, read with a guessed matrix:
# 59.1 instead of 44.1 at 1280x720); the advised conversion scores as rgb48le does
XA="testsrc2=s=1280x720:d=0.04,noise=alls=10:allf=t,format=xyz12le" XB="testsrc2=s=1280x720:d=0.04,format=xyz12le"
if "$FFMPEG" -nostdin -hide_banner -f lavfi -i "$XA" -f lavfi -i "$XB" -lavfi "[0:v][1:v]$F" -f null - \
        > "$W/xyz.log" 2>&1; then
    fail "xyz12le: not refused"
else
    conv=$(sed -n 's/.* e\.g\. with \([^ ]*\) on that input.*/\1/p' "$W/xyz.log" | head -n 1)
    a=$(mean xyz-advised -f lavfi -i "$XA" -f lavfi -i "$XB" -- "[0:v]$conv[a];[1:v]$conv[b];[a][b]$F")
    b=$(mean xyz-rgb48 -f lavfi -i "$XA" -f lavfi -i "$XB" -- "[0:v]format=rgb48le[a];[1:v]format=rgb48le[b];[a][b]$F")
    case $conv in format=gbrp*|format=rgb*) within "$a" "$b" 0.1 ;; *) false ;; esac &&
        ok "xyz12le refused; the advised $conv scores $a, rgb48le $b" ||
        fail "xyz12le: advised '$conv' scores $a, rgb48le $b"
fi

say "$F: Y'CbCr with alpha (WebP, ProRes 4444, VP9 alpha), blended as RGBA is"
# gray Y'CbCr, full range (Y' the code value, Cb = Cr = 128), scores as the same values in RGBA:
# the alpha blended over both backgrounds alike; opaque yuva420p as yuv420p
R="'mod(X*7+Y*13+N*5,256)'" D="'mod(X*7+Y*11+N*5,256)'" RA="'mod(X*3+Y*5,256)'" DA="'mod(X*2+Y*5,256)'"
S=color=s=67x45:r=5:d=0.6
graya() { echo "$S,format=$1,geq=lum=$2:cb=128:cr=128:a=$3,setparams=range=pc"; }
rgba() { echo "$S,format=rgba,geq=r=$1:g=$1:b=$1:a=$2"; }
r=$(mean graya-rgba -f lavfi -i "$(rgba "$D" "$DA")" -f lavfi -i "$(rgba "$R" "$RA")" -- "[0:v][1:v]$F")
for f in yuva444p yuva422p yuva420p yuva444p10; do
    y=$(mean "graya-$f" -f lavfi -i "$(graya $f "$D" "$DA")" -f lavfi -i "$(graya $f "$R" "$RA")" -- \
        "[0:v][1:v]$F") || { fail "$f: not scored"; continue; }
    case $f in
        *10) ok "$f scored ($y)" ;; # 10-bit samples of 8-bit values: another image
        *) [ -n "$y" ] && [ "$y" = "$r" ] && ok "$f (gray, full range) scores as RGBA: $y" ||
               fail "$f: $y, as RGBA $r" ;;
    esac
done
OPAQUE="lum=$R:cb='mod(X*5+N,256)':cr='mod(Y*3+N,256)'" GREY=lum=128:cb=128:cr=128
a=$(mean opaque-yuva420p -f lavfi -i "$S,format=yuva420p,geq=$OPAQUE:a=255" \
        -f lavfi -i "$S,format=yuva420p,geq=$GREY:a=255" -- "[0:v][1:v]$F")
b=$(mean opaque-yuv420p -f lavfi -i "$S,format=yuv420p,geq=$OPAQUE" -f lavfi -i "$S,format=yuv420p,geq=$GREY" -- \
        "[0:v][1:v]$F")
[ -n "$a" ] && [ "$a" = "$b" ] && ok "opaque yuva420p scores as yuv420p: $a" ||
    fail "opaque yuva420p: $a, as yuv420p $b"

say "$F: image codecs the reference tool reads (JPEG XL, its own format) and WebP"
# (lossy WebP is Y'CbCr, read by the filter's own conversion: no PNG of it has the same pixels)
# codec FILE EXPECT ENCODER-ARGS...: the coffee image encoded to FILE and scored against the PNG
# read straight from FILE: EXPECT 100 (lossless: the PNG's pixels), or png (lossy: as the same
# pixels decoded to a PNG first)
P=$S2_TESTS/data/coffee_431x287.png
codec() {
    local f=$W/$1 expect=$2 direct via; shift 2
    if ! "$FFMPEG" -nostdin -loglevel error -y -i "$P" "$@" "$f" 2> "$f.log"; then
        grep -q "Unknown encoder" "$f.log" && { say "  skip $(basename "$f"): no encoder in this build"; return; }
        fail "$(basename "$f"): encode failed: $(head -n 1 "$f.log")"; return
    fi
    direct=$(mean "$(basename "$f")" -i "$f" -i "$P" -- "[0:v][1:v]$F") || { fail "$(basename "$f"): not scored"; return; }
    if [ "$expect" = 100 ]; then
        [ "$direct" = 100 ] && ok "$(basename "$f") (lossless) scores 100" || fail "$(basename "$f"): $direct, expected 100"
        return
    fi
    "$FFMPEG" -nostdin -loglevel error -y -i "$f" -pix_fmt rgb24 "$f.png"
    via=$(mean "$(basename "$f")-png" -i "$f.png" -i "$P" -- "[0:v][1:v]$F")
    [ -n "$direct" ] && [ "$direct" = "$via" ] && ok "$(basename "$f"): $direct, as its pixels in a PNG" ||
        fail "$(basename "$f"): $direct, its pixels in a PNG $via"
}
codec lossless.jxl 100 -c:v libjxl -distance 0
codec lossy.jxl png -c:v libjxl -distance 3
codec lossless.webp 100 -c:v libwebp -lossless 1
# lossy WebP: centre-sited chroma, as libwebp upsamples it (FFmpeg's decoder left it untagged,
# read as left-sited: 82.4 instead of 79.7 for libwebp's decode of one image)
if [ -f "$W/lossless.webp" ] && "$FFMPEG" -nostdin -loglevel error -y -i "$P" -c:v libwebp -quality 40 "$W/lossy.webp"; then
    d=$(mean lossy-webp -i "$W/lossy.webp" -i "$P" -- "[0:v][1:v]$F")
    c=$(mean lossy-webp-center -i "$W/lossy.webp" -i "$P" -- "[0:v][1:v]$F=chroma_loc=center")
    [ -n "$d" ] && [ "$d" = "$c" ] && ok "lossy WebP read with centre-sited chroma: $d" ||
        fail "lossy WebP: $d, with chroma_loc=center $c"
fi

# AVIF (AV1 image items): centre-sited chroma, as libavif upsamples chroma of an unknown
# sample position (the siting had been left unset and read as left: 0.14 to 0.30 under the
# score of libavif's decode)
"$FFMPEG" -nostdin -loglevel error -y -i "$P" -vf crop=430:286:0:0 "$W/avif-ref.png"
if "$FFMPEG" -nostdin -loglevel error -y -i "$W/avif-ref.png" -c:v libsvtav1 -pix_fmt yuv420p \
        -frames:v 1 "$W/lossy.avif" > /dev/null 2>&1; then
    d=$(mean lossy-avif -i "$W/lossy.avif" -i "$W/avif-ref.png" -- "[0:v][1:v]$F")
    c=$(mean lossy-avif-center -i "$W/lossy.avif" -i "$W/avif-ref.png" -- "[0:v][1:v]$F=chroma_loc=center")
    [ -n "$d" ] && [ "$d" = "$c" ] && ok "AVIF read with centre-sited chroma: $d" ||
        fail "AVIF: $d, with chroma_loc=center $c"
else
    say "  (AVIF skipped: no libsvtav1)"
fi

say "$F: packed RGB that swscale converts wrongly, refused with a conversion that works"
# rgb565be made rgb24 was read in this machine's byte order (-79.5 instead of 42.0); 5-bit
# samples made 16-bit were multiplied by 2048 (white 0.97); x2rgb10 made rgb48 was rounded
PK="testsrc2=s=96x64:r=10:d=0.2,noise=alls=14:allf=t"
R8=(-f lavfi -i "testsrc2=s=96x64:r=10:d=0.2,format=rgb24")
R16=(-f lavfi -i "testsrc2=s=96x64:r=10:d=0.2,format=rgb48")
# (each made from samples of the right depth, by exact steps: a byte swap, a repacking)
for c in "rgb565be R8 rgb565le,format=rgb24 rgb565le,format=rgb24 rgb565le,format=rgb565be" \
         "rgb555le R16 rgb24 rgb555le,format=rgb24 rgb555le" "x2rgb10le R16 gbrp10 gbrp10 gbrp10,format=x2rgb10le"; do
    set -- $c
    ref=R8; [ "$2" = R16 ] && ref=R16
    eval "refin=(\"\${$ref[@]}\")"
    # the advice against the same samples made the target format from the right side
    want=$(mean "packed-$1-want" -f lavfi -i "$PK,format=$4" "${refin[@]}" -- "[0:v][1:v]$F")
    refused "packed-$1" "$1 against ${ref#R}-bit RGB" "format=$3" "[0:v]format=$3[d];[d][1:v]$F" "$want" \
        -f lavfi -i "$PK,format=$5" "${refin[@]}"
done

say "$F: conversions swscale makes its own way, refused with one the filter reads exactly"
# (fifteenth probe) lavfi made the distorted input the reference's 4:4:4, so swscale upsampled
# nv21 / yuyv422 chroma its own way (nv21: -7.3 instead of 9.7), widened full-range 8-bit
# samples by a shift (255 -> 65280), and read float gray as limited range
CS="testsrc2=s=96x64:r=10:d=0.2,noise=alls=14:allf=t"
RS="testsrc2=s=96x64:r=10:d=0.2"
want=$(mean nv21-want -f lavfi -i "$CS,format=nv12" -f lavfi -i "$RS,format=yuv444p" -- "[0:v][1:v]$F")
refused nv21 "nv21 against yuv444p" "format=yuv420p" "[0:v]format=yuv420p[d];[d][1:v]$F" "$want" \
    -f lavfi -i "$CS,format=nv12,format=nv21" -f lavfi -i "$RS,format=yuv444p"
want=$(mean yuyv-want -f lavfi -i "$CS,format=yuv422p" -f lavfi -i "$RS,format=yuv444p" -- "[0:v][1:v]$F")
refused yuyv422 "yuyv422 against yuv444p" "format=yuv422p" "[0:v]format=yuv422p[d];[d][1:v]$F" "$want" \
    -f lavfi -i "$CS,format=yuv422p,format=yuyv422" -f lavfi -i "$RS,format=yuv444p"
PC=setparams=range=pc:colorspace=bt709
want=$(mean widen-want -f lavfi -i "$CS,format=yuv444p,$PC" -f lavfi -i "$RS,format=yuv444p16,$PC" -- "[0:v][1:v]$F")
refused widen "full-range nv24 against yuv444p16" "format=yuv444p" "[0:v]format=yuv444p[d];[d][1:v]$F" "$want" \
    -f lavfi -i "$CS,format=yuv444p,$PC,format=nv24,$PC" -f lavfi -i "$RS,format=yuv444p16,$PC"
# the advice for 4:4:4 of 9 or 14 bits had named gray (seventeenth probe: format=gray14le
# scored -65.4 instead of 47.1); it keeps the chroma now
mean yuv444p14 -f lavfi -i "$CS,format=yuv444p14le" -f lavfi -i "$RS,format=yuv420p" -- "[0:v][1:v]$F" > /dev/null 2>&1
warned yuv444p14 "e.g. with format=yuv444p16le on that input" &&
    ok "yuv444p14le against yuv420p: refused, naming a format with its chroma" ||
    fail "yuv444p14le against yuv420p: advice $(sed -n 's/.* e\.g\. with \([^ ]*\) on that input.*/\1/p' "$W/yuv444p14.log")"
# float gray of 16 bits, which lavfi cannot make: a raw frame of half floats
python3 -c 'import struct, sys; sys.stdout.buffer.write(struct.pack("<6144e", *[(i % 97) / 96 for i in range(6144)]))' \
    > "$W/grayf16le.raw" || die "cannot make the grayf16le frame"
if mean refused-grayf16le -f rawvideo -pix_fmt grayf16le -s 96x64 -i "$W/grayf16le.raw" \
        -f lavfi -i "$RS,format=gray16" -- "[0:v][1:v]$F" > /dev/null 2>&1; then
    fail "grayf16le against gray16: scored through swscale's conversion"
else
    warned refused-grayf16le "swscale reads float gray as limited range" &&
        ok "grayf16le against gray16: refused, naming swscale's limited range" ||
        fail "grayf16le against gray16: not refused naming swscale's limited range"
fi
# where no format of the filter's reads the samples (4:1:1 DV, 16-bit BMP, 9-bit Y'CbCr with
# alpha), lavfi's conversion is the nearest there is: scored, and said (a refusal had advised
# that same conversion)
for c in "yuv411p yuv444p upsampled by swscale" "rgb444le rgb24 samples are widened by swscale, inexactly" \
        "yuva420p9le yuva420p9le samples are widened by swscale by a shift"; do
    set -- $c; f=$1 r=$2; shift 2
    mean "warned-$f" -f lavfi -i "$CS,format=$f" -f lavfi -i "$RS,format=$r" -- "[0:v][1:v]$F" > /dev/null &&
        warned "warned-$f" "$*" && ok "$f against $r: scored, saying $*" || fail "$f against $r: not scored with '$*'"
done
# lavfi's conversion before a format= of the user's and filters that keep pixels (ab-av1's
# setpts and settb): an RGB reference made untagged Y'CbCr with swscale's BT.601 was read with
# the distorted input's BT.709 (5.0 instead of 56.9)
AB="format=yuv420p10le,setpts=PTS-STARTPTS,settb=AVTB"
if mean abav1-rgb -f lavfi -i "$CS,format=yuv420p,setparams=colorspace=bt709" -f lavfi -i "$RS,format=rgb24" \
        -- "[0:v]$AB[d];[1:v]$AB[r];[d][r]$F" > /dev/null 2>&1; then
    fail "ab-av1's graph with an RGB reference: scored with swscale's untagged BT.601 read as BT.709"
else
    warned abav1-rgb "Drop that format= to score the RGB as it is" &&
        ok "ab-av1's graph with an RGB reference: refused, naming the fix" ||
        fail "ab-av1's graph with an RGB reference: not refused naming the fix"
fi
# ... also behind a crop (any filter that passes its lists on), but not where the filter reads
# the result with swscale's BT.601 too (an untagged SD encode: the guess by height)
if mean abav1-rgb-crop -f lavfi -i "$CS,format=yuv420p,setparams=colorspace=bt709" -f lavfi -i "$RS,format=rgb24" \
        -- "[0:v]format=yuv420p10le,crop=96:64[d];[1:v]format=yuv420p10le,crop=96:64[r];[d][r]$F" > /dev/null 2>&1; then
    fail "a crop after format= on an RGB reference: scored with swscale's untagged BT.601 read as BT.709"
else ok "a crop after format= on an RGB reference: refused"; fi
# (its chroma subsampled by that format=: said, the encode's chroma loss counting as none)
mean abav1-rgb-sd -f lavfi -i "$CS,format=yuv420p" -f lavfi -i "$RS,format=rgb24" -- "[0:v]$AB[d];[1:v]$AB[r];[d][r]$F" > /dev/null &&
    warned abav1-rgb-sd "on the reference subsamples its RGB's chroma" &&
    ok "ab-av1's graph, RGB reference, untagged SD encode: scored (read as BT.601, swscale's matrix), the subsampling said" ||
    fail "ab-av1's graph, RGB reference, untagged SD encode: refused, though the filter reads swscale's BT.601"
# gray links are full range whatever their frames: luma-only scoring (format=gray on both) and
# float RGB made 16-bit (the nearest there is) are scored, not refused with advice that cannot help
mean luma-only -f lavfi -i "$CS,format=yuv420p" -f lavfi -i "$RS,format=yuv420p" -- "[0:v]format=gray[d];[1:v]format=gray[r];[d][r]$F" > /dev/null &&
    ok "luma only (format=gray on both): scored" || fail "luma only (format=gray on both): refused"
mean float-rgb -f lavfi -i "$CS,format=gbrpf32le" -f lavfi -i "$RS,format=gbrp16" -- "[0:v][1:v]$F" > /dev/null &&
    warned float-rgb "lose bit depth in swscale's conversion" && ok "float RGB against gbrp16: scored, with a warning" ||
    fail "float RGB against gbrp16: refused, naming the conversion lavfi chose"
# limited-range gray of 9 to 14 bits in the other byte order is read as it is (lavfi's
# conversion tagged it full range: 92.28 instead of 94.79)
a=$(mean gray10be -f lavfi -i "$CS,format=gray10be,setparams=range=tv" -f lavfi -i "$RS,format=gray,setparams=range=tv" -- "[0:v][1:v]$F")
b=$(mean gray10le -f lavfi -i "$CS,format=gray10le,setparams=range=tv" -f lavfi -i "$RS,format=gray,setparams=range=tv" -- "[0:v][1:v]$F")
[ -n "$a" ] && [ "$a" = "$b" ] && ok "limited-range gray10be read as it is: $a, as gray10le" ||
    fail "limited-range gray10be: $a, gray10le $b"

say "$F: planar RGB of 9 to 16 bits (also in the high bits), with and without alpha, against the oracle"
# the same random samples as a raw frame and as a PAM of MAXVAL 2^n - 1, which the oracle
# reads as the reference tool does (v / (2^n - 1)); converted to 16 bits by lavfi, gbrap10le
# had scored 81.906 where the oracle gives 81.912
if ORACLE=$(build_oracle 2>/dev/null) && command -v python3 > /dev/null; then
    for fmt in gbrp9le gbrp14be gbrap10le gbrap12be gbrap14le gbrap16le gbrp10msble gbrp12msbbe; do
        bits=${fmt#gbrp}; bits=${bits#gbrap}; bits=${bits%??}; msb=${bits#*msb}; bits=${bits%msb}
        [ -n "$bits" ] || bits=8
        shift=0; [ "$msb" != "$bits" ] && shift=$((16 - bits))
        for img in ref dist; do
            python3 - "$W/$fmt-$img" "$bits" "$([ "${fmt#gbrap}" != "$fmt" ] && echo 4 || echo 3)" \
                "${fmt: -2}" "$img" "$shift" <<'PY' || die "cannot make the $fmt pair"
import random, struct, sys
out, bits, depth, order, img = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
shift = int(sys.argv[6])  # the MSB formats: samples in the high bits
w, h, top = 67, 45, (1 << bits) - 1
rnd = random.Random(bits * 10 + depth)
ref = [[[rnd.randint(0, top) for _ in range(depth)] for _ in range(w)] for _ in range(h)]
rnd = random.Random(bits * 10 + depth + 1)
px = ref if img == "ref" else [[[min(top, max(0, v + rnd.randint(-top // 8, top // 8))) for v in p]
                                for p in row] for row in ref]
if depth == 4:  # alpha kept above a quarter, so that colour still counts
    px = [[p[:3] + [max(p[3], top // 4)] for p in row] for row in px]
end = "<" if order == "le" else ">"
with open(out + ".raw", "wb") as f:  # planes G, B, R, A
    for c in (1, 2, 0, 3)[:depth]:
        f.write(struct.pack(end + "%dH" % (w * h), *[p[c] << shift for row in px for p in row]))
with open(out + ".pam", "wb") as f:
    f.write(b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH %d\nMAXVAL %d\nTUPLTYPE %s\nENDHDR\n"
            % (w, h, depth, top, b"RGB_ALPHA" if depth == 4 else b"RGB"))
    f.write(struct.pack(">%dH" % (w * h * depth), *[v for row in px for p in row for v in p]))
PY
        done
        o=$("$ORACLE" "$W/$fmt-ref.pam" "$W/$fmt-dist.pam" 2>&1)
        a=$(mean "$fmt" -f rawvideo -pix_fmt "$fmt" -s 67x45 -i "$W/$fmt-dist.raw" \
                -f rawvideo -pix_fmt "$fmt" -s 67x45 -i "$W/$fmt-ref.raw" -- "[0:v][1:v]$F")
        within "$a" "$o" 1e-9 && ok "$fmt read as it is: $a, the oracle $o" ||
            fail "$fmt: $a, the oracle on the same samples $o"
    done
else
    say "  (skipped: the oracle or python3 is missing)"
fi

say "$F: images FFmpeg's decoders read wrongly (overlay fixes), against the oracle"
# PAM with alpha and a MAXVAL under 255 was copied unscaled (an opaque image of MAXVAL 3 read
# as nearly transparent: 96.9 where the oracle gives -63.2); gray PNG of 1, 2 or 4 bits with a
# tRNS value other than 0 lost its transparency (1 bit: 85.7 instead of 100). The PNG pair is
# scored beside the PAM the PNG specification decodes it to (alpha 0 where a sample is the
# tRNS value, samples expanded to 8 bits)
if ORACLE=$(build_oracle 2>/dev/null) && command -v python3 > /dev/null; then
    python3 - "$W" <<'PY' || die "cannot make the PAM and PNG pairs"
import random, struct, sys, zlib
out = sys.argv[1]
w, h = 41, 29
def pam(path, depth, top, px):
    tupl = {2: b"GRAYSCALE_ALPHA", 4: b"RGB_ALPHA"}[depth]
    with open(path, "wb") as f:
        f.write(b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH %d\nMAXVAL %d\nTUPLTYPE %s\nENDHDR\n" % (w, h, depth, top, tupl))
        f.write(bytes(v for row in px for p in row for v in p))
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
def png(path, bits, trns, rows):
    raw = b""
    for r in rows:
        acc, n, line = 0, 0, bytearray()
        for v in r + [0] * (-len(r) % (8 // bits)):
            acc, n = acc << bits | v, n + bits
            if n == 8:
                line.append(acc); acc, n = 0, 0
        raw += b"\0" + bytes(line)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bits, 0, 0, 0, 0)) +
                chunk(b"tRNS", struct.pack(">H", trns)) + chunk(b"IDAT", zlib.compress(raw)) +
                chunk(b"IEND", b""))
for top in (3, 15):
    for depth in (2, 4):
        rnd = random.Random(top * 10 + depth)
        ref = [[[rnd.randint(0, top) for _ in range(depth - 1)] + [top] for _ in range(w)] for _ in range(h)]
        dist = [[[min(top, v + (rnd.random() < 0.3)) for v in p[:-1]] + [top] for p in row] for row in ref]
        pam("%s/pam%d-%d-ref.pam" % (out, top, depth), depth, top, ref)
        pam("%s/pam%d-%d-dist.pam" % (out, top, depth), depth, top, dist)
for bits in (1, 2, 4):
    top = (1 << bits) - 1
    rnd = random.Random(bits)
    ref = [[rnd.randint(0, top) for _ in range(w)] for _ in range(h)]
    dist = [[v if rnd.random() < 0.8 else rnd.randint(0, top) for v in row] for row in ref]
    for name, rows in (("ref", ref), ("dist", dist)):
        png("%s/trns%d-%s.png" % (out, bits, name), bits, top, rows)
        pam("%s/trns%d-%s.pam" % (out, bits, name), 2, 255,
            [[[v * 255 // top, 0 if v == top else 255] for v in row] for row in rows])
PY
    for c in pam3-2 pam3-4 pam15-2 pam15-4 trns1 trns2 trns4; do
        ext=pam; [ "${c#trns}" != "$c" ] && ext=png
        o=$("$ORACLE" "$W/$c-ref.pam" "$W/$c-dist.pam" 2>&1)
        a=$(mean "dec-$c" -i "$W/$c-dist.$ext" -i "$W/$c-ref.$ext" -- "[0:v][1:v]$F")
        within "$a" "$o" 1e-9 && ok "$c.$ext: $a, the oracle $o" ||
            fail "$c.$ext: $a, the oracle on the decoded samples $o"
    done
    # a MAXVAL that does not divide 255 or 65535 is rescaled with rounding: said
    printf 'P5\n8 8\n1023\n' > "$W/max1023.pgm"; head -c 128 /dev/zero >> "$W/max1023.pgm"
    "$FFMPEG" -nostdin -i "$W/max1023.pgm" -f null - 2>&1 | grep -q "maxval 1023: samples are rescaled with rounding" &&
        ok "PGM of MAXVAL 1023: the rounding said" || fail "PGM of MAXVAL 1023: the rounding not said"
else
    say "  (skipped: the oracle or python3 is missing)"
fi

# HEVC whose VUI has no colour description, in a Matroska file that tags it BT.709: the decoder
# had reset the tags (a BT.709 conversion scored 38.9 read as BT.601, 65.1 as BT.709); now kept
# as the H.264 decoder keeps them (overlay fix s2_fix_hevc_container_colour)
if "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$CS,format=yuv420p" -c:v libx265 -x265-params log-level=none \
        -crf 18 "$W/hevc-untagged.mp4" 2> /dev/null &&
   "$FFMPEG" -nostdin -loglevel error -i "$W/hevc-untagged.mp4" -c copy -colorspace bt709 -color_primaries bt709 \
        -color_trc bt709 "$W/hevc-container709.mkv"; then
    tagged=$(mean hevc-container -i "$W/hevc-container709.mkv" -f lavfi -i "$RS,format=yuv420p" -- "[0:v][1:v]$F")
    forced=$(mean hevc-container-709 -i "$W/hevc-container709.mkv" -f lavfi -i "$RS,format=yuv420p" -- "[0:v][1:v]$F=matrix=bt709")
    within "$tagged" "$forced" 1e-9 && ! warned hevc-container "has no Y'CbCr matrix tag" &&
        ok "HEVC tagged BT.709 by its container only: read as BT.709 ($tagged)" ||
        fail "HEVC tagged BT.709 by its container only: $tagged, read as BT.709 $forced"
else
    say "  (skipped: HEVC container tags, no libx265 encoder)"
fi

say "colour ($F): $n checks, $bad failed"
[ $bad = 0 ] || die "$bad check(s) failed"
say "PASS: $s2_name"
