# Debian source packages (orig tarballs) through a private apt state: the system's apt
# configuration is only read, never changed. POSIX sh, sourced by ../configure.
#
#   apt_setup                       sets APT_OPTS; returns 1 when apt cannot be used
#   apt_versions PKG                "UPSTREAM FULL" lines for each version the archive has
#   apt_fetch PKG FULL UPSTREAM     downloads the orig tarball; prints its path
#   verify_sha FILE NAME-VERSION    checks a pinned sha256 (sha256_known), or reports it
#   extract TARBALL NAME-VERSION    unpacks into $CACHE_DIR/src/NAME-VERSION
# Uses CACHE_DIR, note and die from configure.

# sha256 of upstream release tarballs (Debian's orig tarballs are the pristine upstream
# release: same bytes, checked against the .dsc Checksums-Sha256).
sha256_known() {
    case $1 in
        ffmpeg-8.1.2)              echo 464beb5e7bf0c311e68b45ae2f04e9cc2af88851abb4082231742a74d97b524c ;;
        nv-codec-headers-12.1.14.0) echo 0ca1a0c85b149646fa6ce4d600584507fdccf5a23d58e668d8701e89cee0c3fb ;;
    esac
}

APT_DIR=$CACHE_DIR/apt
apt_mirror() {
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        case $f in
            *.sources) sed -n 's/^URIs:[[:space:]]*//p' "$f" | tr ' \t' '\n\n' ;;
            *) sed -n 's/^[[:space:]]*deb\(-src\)\{0,1\}[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]\{1,\}\).*/\3/p' "$f" ;;
        esac
    done | while read -r u; do
        case ${u%/} in
            http://*/debian|https://*/debian) echo "${u%/}"; break ;;
        esac
    done
}
APT_READY=
apt_setup() {
    [ -n "$APT_READY" ] && return "$APT_READY"
    APT_READY=1
    command -v apt-get >/dev/null 2>&1 || { note "apt-get not available"; return 1; }
    mirror=$(apt_mirror)
    [ -n "$mirror" ] || { note "no Debian archive mirror in the system's apt sources"; return 1; }
    key=/usr/share/keyrings/debian-archive-keyring.gpg
    opts=; [ -r "$key" ] && opts="[signed-by=$key] "
    mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial" || return 1
    for s in sid forky trixie; do echo "deb-src ${opts}$mirror $s main"; done > "$APT_DIR/sources.list.new"
    fresh=no
    if cmp -s "$APT_DIR/sources.list.new" "$APT_DIR/sources.list"; then
        rm -f "$APT_DIR/sources.list.new"
    else
        mv "$APT_DIR/sources.list.new" "$APT_DIR/sources.list"; fresh=yes
    fi
    APT_OPTS="-o Dir::State=$APT_DIR -o Dir::State::Lists=$APT_DIR/lists -o Dir::Cache=$APT_DIR/cache -o Dir::Etc::SourceList=$APT_DIR/sources.list -o Dir::Etc::SourceParts=/dev/null"
    [ "$(id -u)" = 0 ] && APT_OPTS="$APT_OPTS -o APT::Sandbox::User=root"
    note "private apt state in $APT_DIR (deb-src $mirror sid forky trixie)"
    if [ "$fresh" = yes ] || [ -z "$(find "$APT_DIR/lists" -name '*Sources*' -mtime -1 2>/dev/null)" ]; then
        apt_update || return 1
    fi
    APT_READY=0
}
apt_update() {
    note "apt-get update (private state)"
    apt-get $APT_OPTS -q update >"$APT_DIR/update.log" 2>&1 ||
        { note "apt-get update failed, see $APT_DIR/update.log"; return 1; }
}
# upstream versions (epoch and Debian revision removed) with the full one
apt_versions() {
    apt-cache $APT_OPTS showsrc "$1" 2>/dev/null | sed -n 's/^Version: //p' | sort -u |
    while read -r v; do u=${v#*:}; echo "${u%-*} $v"; done
}
apt_fetch() {
    mkdir -p "$CACHE_DIR/downloads"
    f=$CACHE_DIR/downloads/${1}_$3.orig.tar.xz
    if [ ! -s "$f" ]; then
        # apt verifies against the signed index; some .dsc/.debian.tar.xz answer 404 and make
        # apt exit non-zero, so only the orig tarball's presence counts.
        (cd "$CACHE_DIR/downloads" && apt-get $APT_OPTS -q source --download-only "$1=$2") \
            >"$CACHE_DIR/downloads/$1.log" 2>&1
    fi
    [ -s "$f" ] && echo "$f"
}
verify_sha() {
    want=$(sha256_known "$2")
    have=$(sha256sum "$1" | cut -d' ' -f1)
    if [ -n "$want" ]; then
        [ "$have" = "$want" ] || die "sha256 mismatch for $1: got $have, want $want"
        note "sha256 ok: $have"
    else
        note "sha256 $have (no pinned checksum for $2; verified by apt against the signed index)"
    fi
}
extract() {
    d=$CACHE_DIR/src/$2
    rm -rf "$d" "$d.tmp" && mkdir -p "$d.tmp" || die "cannot write $CACHE_DIR/src"
    tar --no-same-owner -xJf "$1" -C "$d.tmp" || die "cannot unpack $1"
    top=$(ls "$d.tmp")
    mv "$d.tmp/$top" "$d" && rmdir "$d.tmp" && touch "$d.ok" || die "cannot unpack $1"
}
