# Build dependencies: check them, and on Debian as root install what is missing.
# POSIX sh, sourced by ../configure.
#
#   deps_install   checks for $COMPONENTS (full|minimal), $DAV1D, $CUDA, $NVCC_MODE;
#                  installs missing packages with apt-get unless $NO_INSTALL=yes; dies when a
#                  required one is still missing. Sets CCACHE=yes|no.

deps_need() { # deps_need CHECK-COMMAND PACKAGE required|optional
    if eval "$1" >/dev/null 2>&1; then return 0; fi
    note "missing: $2"
    case $3 in required) missing_req="$missing_req $2" ;; *) missing_opt="$missing_opt $2" ;; esac
}
deps_header() { printf '#include <%s>\n' "$1" | gcc -E -x c - >/dev/null 2>&1; }

deps_check() {
    missing_req= missing_opt=
    deps_need 'command -v gcc'        gcc        required
    deps_need 'command -v make'       make       required
    deps_need 'command -v pkg-config' pkg-config required
    deps_need 'command -v nasm'       nasm       required
    deps_need 'command -v xz'         xz-utils   required
    deps_need 'deps_header zlib.h'    zlib1g-dev required
    [ "$DAV1D" = yes ] && deps_need 'pkg-config --exists dav1d' libdav1d-dev required
    if [ "$COMPONENTS" = full ]; then
        deps_need 'deps_header bzlib.h'          libbz2-dev       required
        deps_need 'deps_header lzma.h'           liblzma-dev      required
        deps_need 'pkg-config --exists x264'     libx264-dev      required
        deps_need 'pkg-config --exists x265'     libx265-dev      required
        deps_need 'pkg-config --exists SvtAv1Enc' libsvtav1enc-dev required
        deps_need 'pkg-config --exists vpx'      libvpx-dev       required
        deps_need 'pkg-config --exists opus'     libopus-dev      required
        deps_need 'pkg-config --exists libjxl libjxl_threads' libjxl-dev required
        deps_need 'pkg-config --exists libwebp'  libwebp-dev      required
    fi
    [ "$CUDA" = yes ] && [ "$NVCC_MODE" = no ] && deps_need 'command -v clang' clang required
    deps_need 'command -v ccache'     ccache     optional
    deps_need 'command -v makeinfo'   texinfo    optional
    deps_need 'command -v gnuplot'    gnuplot-nox optional   # (tools: ladder and score plots)
    deps_need 'command -v python3'    python3    optional    # (tools: ladder and plot; tests)
    deps_need 'command -v x264'       x264       optional    # (tests: real H.264 encodes)
    deps_need 'command -v patchelf'   patchelf   optional    # (make dist: libraries beside the binaries)
    deps_need 'command -v valgrind'   valgrind   optional    # (tests: memory lost on CUDA error paths)
}

deps_install() {
    is_debian=no
    [ -r /etc/debian_version ] && command -v apt-get >/dev/null 2>&1 && is_debian=yes
    deps_check
    if [ -n "$missing_req$missing_opt" ]; then
        pkgs=$(echo $missing_req $missing_opt)
        if [ "$is_debian" = yes ] && [ "$(id -u)" = 0 ] && [ "$NO_INSTALL" = no ]; then
            say "installing: $pkgs"
            export DEBIAN_FRONTEND=noninteractive
            if ! apt-get install -y --no-install-recommends $pkgs; then
                note "apt-get install failed; running apt-get update and retrying"
                apt-get update || die "apt-get update failed"
                apt-get install -y --no-install-recommends $pkgs || die "apt-get install $pkgs failed"
            fi
            deps_check
            [ -z "$missing_req" ] || die "still missing after install:$missing_req"
        else
            if [ "$is_debian" = yes ]; then
                echo "Install the missing packages with:"
                echo "    sudo apt-get install --no-install-recommends $pkgs"
            else
                echo "Install the equivalents of these Debian packages: $pkgs"
            fi
            [ "$COMPONENTS" = full ] && [ -n "$missing_req" ] &&
                echo "(or build the compact development set, without codec libraries: ./configure --minimal)"
            [ -z "$missing_req" ] || exit 1
            warn "continuing without:$missing_opt"
        fi
    fi
    CCACHE=no; command -v ccache >/dev/null 2>&1 && CCACHE=yes
    note "ok (ccache: $CCACHE)"
}
