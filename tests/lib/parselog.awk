# Normalise a ssimulacra2 log (json, csv or xml; detected from the content) into lines
#   frame <frameNum> <score>
#   stat <name> <value>
#   scored <frames_scored>          (json only)
#   version <string>                (json/xml)
# Tolerant of spacing and line breaks. POSIX awk (tested with mawk and gawk).

function emit_json(    s, n, i, t, key, val, inpool, fnum, havef) {
    s = all
    gsub(/[{}\[\],]/, "\n", s)
    n = split(s, t, "\n")
    inpool = 0; havef = 0
    for (i = 1; i <= n; i++) {
        if (!match(t[i], /"[^"]*"[ \t\r]*:/)) continue
        key = substr(t[i], RSTART + 1, RLENGTH - 1)
        sub(/"[ \t\r]*:$/, "", key)
        val = substr(t[i], RSTART + RLENGTH)
        gsub(/^[ \t\r]+|[ \t\r]+$/, "", val)
        gsub(/"/, "", val)
        if (key == "pooled_metrics") { inpool = 1; continue }
        if (key == "frames") { inpool = 0; continue }
        if (key == "version") { print "version", val; continue }
        if (key == "frames_scored") { print "scored", val; continue }
        if (!inpool) {
            if (key == "frameNum") { fnum = val; havef = 1 }
            else if (key == "ssimulacra2" && havef && val != "") { print "frame", fnum, val; havef = 0 }
        } else if (val != "" && key != "ssimulacra2") {
            print "stat", key, val
        }
    }
}

function attr(s, name,    re) {
    re = name "=\"[^\"]*\""
    if (!match(s, re)) return ""
    return substr(s, RSTART + length(name) + 2, RLENGTH - length(name) - 3)
}

function emit_xml(    s, n, i, t, m, k, parts, kv, nm) {
    s = all
    gsub(/</, "\n<", s)
    n = split(s, t, "\n")
    for (i = 1; i <= n; i++) {
        if (t[i] ~ /^<ssimulacra2[ \t>]/ && attr(t[i], "version") != "") print "version", attr(t[i], "version")
        else if (t[i] ~ /^<frame[ \t]/) print "frame", attr(t[i], "frameNum"), attr(t[i], "ssimulacra2")
        else if (t[i] ~ /^<metric[ \t]/) {
            m = t[i]
            sub(/^<metric[ \t]+/, "", m)
            sub(/[ \t]*\/?>.*$/, "", m)
            k = split(m, parts, /"[ \t\r]+/)
            for (j = 1; j <= k; j++) {
                if (!match(parts[j], /=/)) continue
                nm = substr(parts[j], 1, RSTART - 1)
                kv = substr(parts[j], RSTART + 1)
                gsub(/"/, "", kv); gsub(/^[ \t]+/, "", nm)
                if (nm != "name") print "stat", nm, kv
            }
        }
    }
}

function emit_csv(    n, i, t, f, m) {
    n = split(all, t, "\n")
    for (i = 1; i <= n; i++) {
        gsub(/\r/, "", t[i])
        if (t[i] == "" || t[i] ~ /^frame,/) continue
        m = split(t[i], f, ",")
        if (m < 2) continue
        gsub(/^[ \t]+|[ \t]+$/, "", f[1]); gsub(/^[ \t]+|[ \t]+$/, "", f[2])
        if (f[1] ~ /^[0-9]+$/) print "frame", f[1], f[2]
        else print "stat", f[1], f[2]
    }
}

{ all = all $0 "\n" }

END {
    if (all ~ /^[ \t\r\n]*\{/) emit_json()
    else if (all ~ /^[ \t\r\n]*</) emit_xml()
    else emit_csv()
}
