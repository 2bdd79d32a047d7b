# Independent pooled statistics of per-frame scores.
# Input: lines "frame <n> <score>" (parselog.awk output). Output: "stat <name> <value>" (%.17g)
# Percentiles: linear interpolation between closest ranks, rank = p/100*(n-1);
# stddev: sample (n-1), 0 for one frame; harmonic mean: 0 if any score <= 0.
function pct(p,    r, lo, hi) {
    r = p / 100 * (n - 1); lo = int(r); hi = (lo + 1 < n) ? lo + 1 : lo
    return v[lo] + (v[hi] - v[lo]) * (r - lo)
}
$1 == "frame" { v[n++] = $3 + 0 }
END {
    if (n == 0) exit 1
    for (i = 1; i < n; i++) { x = v[i]; for (j = i - 1; j >= 0 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
    s = 0; hs = 0; nonpos = 0
    for (i = 0; i < n; i++) { s += v[i]; if (v[i] <= 0) nonpos = 1; else hs += 1 / v[i] }
    mean = s / n
    ss = 0; for (i = 0; i < n; i++) ss += (v[i] - mean) * (v[i] - mean)
    printf "stat min %.17g\nstat max %.17g\nstat mean %.17g\n", v[0], v[n - 1], mean
    printf "stat harmonic_mean %.17g\n", nonpos ? 0 : n / hs
    printf "stat p1 %.17g\nstat p5 %.17g\nstat p10 %.17g\nstat median %.17g\nstat p95 %.17g\n", pct(1), pct(5), pct(10), pct(50), pct(95)
    sd = (n > 1) ? sqrt(ss / (n - 1)) : 0
    printf "stat stddev %.17g\n", sd
}
