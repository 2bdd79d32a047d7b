# The libraries make dist leaves to the system: the C library's own, which every Linux has and
# which must match the system's loader. Sourced by make-dist.sh and the checks of its tarball.
#   dist_system_lib PATH-OR-NAME   (status 0: the system's)
dist_system_lib() {
    case ${1##*/} in
        ld-linux*|libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|libresolv.so*|libmvec.so*) return 0 ;;
    esac
    return 1
}

#   dist_outside_libs DIR BINARY   prints the libraries BINARY (of the unpacked tarball DIR)
#                                  loads from neither DIR/lib nor the system's C library
dist_outside_libs() {
    ldd "$2" | awk '$2 == "=>" { print $3 }' | grep -v "^$1/\(bin/\.\./\)\{0,1\}lib/" |
        while read -r l; do dist_system_lib "$l" || echo "$l"; done
}
