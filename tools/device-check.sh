#!/usr/bin/env bash
# Runs the GPU checks and benchmarks on a machine with an NVIDIA GPU, from the
# payload of tools/device-pack.sh; logs go to $OUT (default /tmp/ssimu2-device).
# Usage: tools/device-check.sh [parity|sanitize|stress|bench|profile|dist|fate|docs|ladder|all]
#   dist: the make-dist tarball on this machine: libraries found, the inputs and graphs of
#         users' pipelines (pipe, MP4 with AAC, setsar, encoders), NVDEC into the filter
#   fate: the FATE tests (ssimulacra2.mak, and ssimulacra2_cuda.mak against the same references)
#   docs: tests/run-docs.sh (every documented command line, GPU ones included)
#   ladder: tools/ssimu2-ladder --gpu on the H.264 clip, rungs spread over every GPU
#   stress: tools/cuda-stress.sh (small cases repeated; not part of all)
#   sanitize: compute-sanitizer memcheck, racecheck and synccheck on small odd sizes
#   profile: Nsight Compute figures of one 1080p frame (ncu, if installed): speed of light,
#         instruction counts, and per kernel the basic blocks that issue and stall most
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
P=$ROOT/.device
OUT=${OUT:-/tmp/ssimu2-device}
BIN=/tmp/ssimu2-bin
what=${1:-all}
mkdir -p "$OUT" "$BIN"
# the make-dist tarball: its binaries find their libraries by themselves ($ORIGIN run path)
rm -rf "$BIN" && mkdir -p "$BIN"
tar -xJf "$P/ffmpeg-dist.tar.xz" -C "$BIN" --strip-components=1 || { echo "cannot unpack the dist tarball" >&2; exit 1; }
for f in "$P"/testdata/ssimulacra2-video/*.gz; do
    [ -e "$f" ] && gunzip -c "$f" > "${f%.gz}"
done
export FFMPEG=$BIN/bin/ffmpeg FFPROBE=$BIN/bin/ffprobe SSIMU2_SAMPLES=$P/testdata S2_MEDIA=$P/media
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
"$FFMPEG" -hide_banner -version | head -1
# first PTX load JIT-compiles; do it once before anything is timed
t0=$(date +%s.%N)
"$FFMPEG" -hide_banner -loglevel verbose -init_hw_device cuda=gpu -filter_hw_device gpu \
    -f lavfi -i testsrc2=s=64x64:d=0.1 -f lavfi -i testsrc2=s=64x64:d=0.1 \
    -lavfi "[0:v]format=nv12,hwupload[a];[1:v]format=nv12,hwupload[b];[a][b]ssimulacra2_cuda" \
    -f null - 2>&1 | grep -iE "ssimulacra2|error" | tee "$OUT/warmup.log"
echo "warm-up (first PTX JIT included): $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s"
rc=0
if [ "$what" = parity ] || [ "$what" = all ]; then
    bash "$ROOT/tests/run-cuda-division.sh" 2>&1 | tee "$OUT/division.log"
    case ${PIPESTATUS[0]} in 0|77) ;; *) rc=1 ;; esac  # 77: no nvcc here (SKIP, in the log)
    bash "$ROOT/tests/run-cuda.sh" 2>&1 | tee "$OUT/parity.log"
    [ "${PIPESTATUS[0]}" = 0 ] || rc=1
fi
if [ "$what" = sanitize ] || [ "$what" = all ]; then
    SAN=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -n 1)
    if [ -n "$SAN" ]; then
        # FMT is the format of both inputs, or DIST_FMT,REF_FMT (one convert launch each);
        # "sw": software frames given to the filter (it uploads them), else hwupload;
        # "ring": max_memory=1, the ring layout (blur tasks that wait for each other and
        # convert scale 0; sizes whose set of the planes layout exceeds 1 MiB; from 257
        # columns scale 0's XYB is a ring); "mem=N": max_memory=N (1001x751 at 100: tasks)
        for t in "memcheck nv12 257x129" "memcheck rgba 31x17" "memcheck yuv420p 9x13" \
                 "memcheck nv12,rgba 257x129" "memcheck p010,bgr0 31x17" \
                 "racecheck nv12 257x129" "racecheck rgba 70x33" "racecheck bgr0 9x13" \
                 "racecheck yuv444p,p010 70x33" "synccheck nv12 100x37" \
                 "initcheck bgr0 9x13" "initcheck nv12 257x129" "initcheck rgba,yuv420p 9x13" \
                 "memcheck yuv420p 33x17 sw" "memcheck rgb48be,gray16be 31x17 sw" \
                 "initcheck gbrp10,yuv420p12 9x13 sw" "racecheck nv12 257x129 sw" \
                 "synccheck p010 100x37 sw" "memcheck nv12 257x129 ring" \
                 "racecheck rgba,p010 113x200 ring" "synccheck nv12 257x129 ring" \
                 "initcheck yuv420p 113x200 ring" "memcheck nv12,rgba 300x70 ring" \
                 "racecheck yuv420p 300x70 ring" "memcheck rgba,p010 1001x751 mem=100" \
                 "racecheck nv12 1001x751 mem=100" "synccheck p010 1001x751 mem=100"; do
            set -- $t
            df=${2%,*} rf=${2#*,} up=,hwupload hw=(-init_hw_device cuda=gpu -filter_hw_device gpu) opt=
            [ "${4:-}" = sw ] && up= hw=()
            [ "${4:-}" = ring ] && opt==max_memory=1
            case ${4:-} in mem=*) opt==max_memory=${4#mem=} ;; esac
            timeout -k 10 120 "$SAN" --tool "$1" --error-exitcode 9 "$FFMPEG" -hide_banner -nostdin \
                -loglevel error "${hw[@]}" -filter_complex \
                "testsrc2=s=$3:r=10:d=0.2,format=yuv444p,split[a][b];[a]noise=alls=18:allf=t,format=$df$up[d];[b]format=$rf$up[r];[d][r]ssimulacra2_cuda$opt" \
                -f null - > "$OUT/sanitize.log" 2>&1
            r=$?
            echo "sanitize $t: $([ $r = 0 ] && echo clean || echo "FAILED (exit $r)")"
            [ $r = 0 ] || { rc=1; tail -n 20 "$OUT/sanitize.log"; }
        done
        # the robustness cases that apply to the CUDA filter, under memcheck
        # (API errors are not memory errors: the out-of-memory case makes them on purpose;
        # the sanitizer's report goes to a file so that stdout stays ffmpeg's)
        S2_WRAP="$SAN --tool memcheck --error-exitcode 9 --report-api-errors no --log-file /tmp/cs-%p.log" bash "$ROOT/tests/run-cuda-robustness.sh" 2>&1 |
            tee "$OUT/robustness-memcheck.log"
        [ "${PIPESTATUS[0]}" = 0 ] || rc=1
    else
        echo "sanitize: compute-sanitizer not found"
    fi
fi
if [ "$what" = stress ]; then
    bash "$ROOT/tools/cuda-stress.sh" "${RUNS:-20}" 2>&1 | tee "$OUT/stress.log"
    [ "${PIPESTATUS[0]}" = 0 ] || rc=1
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
    bash "$ROOT/tools/bench-cuda.sh" 2>&1 | tee "$OUT/bench-cuda.log"
fi
if [ "$what" = profile ] || [ "$what" = all ]; then
    NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -n 1)
    if [ -n "$NCU" ]; then
        graph="testsrc2=s=1920x1080:r=10:d=0.4,format=yuv444p,split[a][b];[a]noise=alls=18:allf=t,format=nv12,hwupload[d];[b]format=nv12,hwupload[r];[d][r]ssimulacra2_cuda=queue_depth=1"
        # frame 3 of a queue_depth=1 run: 9 launches per frame, the first frames skipped
        timeout -k 10 300 "$NCU" --clock-control none --launch-skip 18 --launch-count 9 \
            --section SpeedOfLight "$FFMPEG" -hide_banner -nostdin -loglevel error \
            -init_hw_device cuda=gpu -filter_hw_device gpu -filter_complex "$graph" \
            -f null - > "$OUT/ncu.log" 2>&1
        grep -E "ssimu2_|Duration|Memory Throughput|Compute \(SM\)|L1/TEX Cache Th|L2 Cache Th" \
            "$OUT/ncu.log"
        # instruction and traffic counts of one frame, for the consumer-GPU projection
        # (doc/notes.md): fp32 and fp64 thread instructions by kind, all warp instructions,
        # DRAM and L2 bytes
        m=smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum
        m=$m,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum
        m=$m,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum
        m=$m,smsp__inst_executed.sum,smsp__sass_thread_inst_executed.sum,dram__bytes.sum,lts__t_bytes.sum,gpu__time_duration.sum
        timeout -k 10 300 "$NCU" --clock-control none --launch-skip 18 --launch-count 9 --csv --metrics "$m" \
            "$FFMPEG" -hide_banner -nostdin -loglevel error \
            -init_hw_device cuda=gpu -filter_hw_device gpu -filter_complex "$graph" \
            -f null - > "$OUT/ncu-counts.csv" 2>&1
        grep -c ssimu2_ "$OUT/ncu-counts.csv" | sed 's/^/ncu counts: rows of kernels: /'
        tail -n 3 "$OUT/ncu-counts.csv"
        # executed instructions and stall samples per SASS line of the planes layout's
        # kernels (frame 3), summed by basic block (tools/ncu-blocks.py); the CSVs in
        # ncu-source.tgz
        rm -f /tmp/ssimu2-source.ncu-rep /tmp/ssimu2-source-*.csv
        if timeout -k 10 300 "$NCU" --clock-control none -k regex:'ssimu2_(convert_semi8|hblur|vblur)' \
            --launch-skip 6 --launch-count 3 --section SourceCounters --section WarpStateStats \
            --section Occupancy -o /tmp/ssimu2-source "$FFMPEG" -hide_banner -nostdin -loglevel error \
            -init_hw_device cuda=gpu -filter_hw_device gpu -filter_complex "$graph" \
            -f null - > "$OUT/ncu-source.log" 2>&1; then
            for k in convert_semi8 hblur vblur; do
                "$NCU" -i /tmp/ssimu2-source.ncu-rep -k "regex:^ssimu2_$k\$" --page source --csv \
                    --print-source sass > "/tmp/ssimu2-source-$k.csv" 2>> "$OUT/ncu-source.log"
                python3 "$ROOT/tools/ncu-blocks.py" "/tmp/ssimu2-source-$k.csv" 6
            done
            tar -czf "$OUT/ncu-source.tgz" -C /tmp ssimu2-source-convert_semi8.csv \
                ssimu2-source-hblur.csv ssimu2-source-vblur.csv
        else
            echo "profile: the source counters failed:"; tail -n 5 "$OUT/ncu-source.log"; rc=1
        fi
        # the same for the tasks layout's blur (max_memory below one planes set: one tasks
        # set), its frame 3, with the kernel's stall reasons
        rm -f /tmp/ssimu2-tasks.ncu-rep
        if timeout -k 10 300 "$NCU" --clock-control none -k regex:'^ssimu2_blur$' \
            --launch-skip 2 --launch-count 1 --section SourceCounters --section WarpStateStats \
            --section Occupancy --section SpeedOfLight -o /tmp/ssimu2-tasks "$FFMPEG" -hide_banner \
            -nostdin -loglevel error -init_hw_device cuda=gpu -filter_hw_device gpu \
            -filter_complex "$graph:max_memory=100" \
            -f null - > "$OUT/ncu-tasks.log" 2>&1; then
            "$NCU" -i /tmp/ssimu2-tasks.ncu-rep --page details > "$OUT/ncu-tasks-details.txt" 2>&1
            grep -E "Duration|Warp Cycles|Issued|Eligible|Achieved Occupancy|Stall" \
                "$OUT/ncu-tasks-details.txt" | head -n 30
            "$NCU" -i /tmp/ssimu2-tasks.ncu-rep --page raw --csv 2>/dev/null |
                python3 "$ROOT/tools/ncu-stalls.py" > "$OUT/ncu-tasks-stalls.txt" 2>&1
            head -n 14 "$OUT/ncu-tasks-stalls.txt"
            "$NCU" -i /tmp/ssimu2-tasks.ncu-rep --page source --csv --print-source sass \
                > /tmp/ssimu2-source-blur.csv 2>> "$OUT/ncu-tasks.log"
            python3 "$ROOT/tools/ncu-blocks.py" /tmp/ssimu2-source-blur.csv 12
            gzip -c /tmp/ssimu2-source-blur.csv > "$OUT/ncu-source-blur.csv.gz"
        else
            echo "profile: the tasks layout's counters failed:"; tail -n 5 "$OUT/ncu-tasks.log"; rc=1
        fi
    else
        echo "profile: ncu not found"
    fi
fi
if [ "$what" = dist ] || [ "$what" = all ]; then
    bash "$ROOT/tools/dist-smoke.sh" "$BIN" 2>&1 | tee "$OUT/dist.log"
    [ "${PIPESTATUS[0]}" = 0 ] || rc=1
fi
if [ "$what" = fate ] || [ "$what" = all ]; then
    for m in ssimulacra2 ssimulacra2_cuda; do
        bash "$ROOT/tools/fate-run-mak.sh" "$ROOT/tests/fate/$m.mak" "$P/fate" "$BIN/bin" 2>&1 | tee -a "$OUT/fate.log"
        [ "${PIPESTATUS[0]}" = 0 ] || rc=1
    done
fi
if [ "$what" = docs ] || [ "$what" = all ]; then
    bash "$ROOT/tests/run-docs.sh" 2>&1 | tee "$OUT/docs.log"
    [ "${PIPESTATUS[0]}" = 0 ] || rc=1
fi
if [ "$what" = ladder ] || [ "$what" = all ]; then
    gpus=$(nvidia-smi -L | awk '{ printf "%s%d", (NR > 1 ? "," : ""), NR - 1 }')
    python3 "$ROOT/tools/ssimu2-ladder" --ffmpeg "$FFMPEG" --gpu --gpus "$gpus" -e libx264 \
        --preset fast --crf 18,23,28,33,38 -o /tmp/ssimu2-ladder "$P/testdata/clips/h264_1080p_ref.mp4" 2>&1 |
        tee "$OUT/ladder.log"
    [ "${PIPESTATUS[0]}" = 0 ] || rc=1
    mkdir -p "$OUT/ladder" && cp /tmp/ssimu2-ladder/*.csv /tmp/ssimu2-ladder/*.json "$OUT/ladder/"
    # the same ladder scored by the CPU filter (x264 encodes the same files again): the means
    # must be the GPU's, to the last digit
    python3 "$ROOT/tools/ssimu2-ladder" --ffmpeg "$FFMPEG" -e libx264 --preset fast \
        --crf 18,23,28,33,38 --no-plot -o /tmp/ssimu2-ladder-cpu "$P/testdata/clips/h264_1080p_ref.mp4" \
        > "$OUT/ladder-cpu.log" 2>&1 || rc=1
    python3 - /tmp/ssimu2-ladder/ladder.csv /tmp/ssimu2-ladder-cpu/ladder.csv <<'EOT' || rc=1
import csv, sys
g, c = ({r["rung"]: r for r in csv.DictReader(open(f))} for f in sys.argv[1:])
bad = [k for k in g if (g[k]["mean"], g[k]["p5"], g[k]["min"]) != (c[k]["mean"], c[k]["p5"], c[k]["min"])]
print("ladder --gpu vs CPU: %d rungs, %d differ %s" % (len(g), len(bad), bad))
sys.exit(1 if bad or len(g) != len(c) else 0)
EOT
fi
exit $rc
