#!/bin/sh
# ctest `exports`: each shared library exports exactly the functions its public headers declare
# with TN_API, nothing more, nothing less.
#   include/tilenav/io.h     -> libtilenav_io.so
#   include/tilenav/*.h else -> libtilenav.so
# The declarations are read from the headers (comments and preprocessor lines dropped, then
# every statement holding TN_API names the identifier before its first parenthesis); the
# exports are `nm -D --defined-only`. Fails on a declared function that is not exported (it
# would not link), on any other exported symbol (tn__ internals, core functions copied into
# the loaders library, stray globals), on a core function defined inside the loaders library
# even as a hidden local copy, and on a loaders library that does not link libtilenav.so.
#
# usage: exports.sh INCLUDE_DIR LIBTILENAV_SO [LIBTILENAV_IO_SO]
set -eu
inc=$1
core=$2
io=${3:-}
command -v nm >/dev/null 2>&1 || { echo "exports: nm (binutils) not found"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# declared FILE...: the TN_API function names in the headers, sorted
declared() {
    cat "$@" | awk '
        { text = text $0 "\n" }
        END {
            # drop block comments, line comments and preprocessor lines
            while ((i = index(text, "/*")) > 0) {
                rest = substr(text, i + 2)
                j = index(rest, "*/")
                if (j == 0) { text = substr(text, 1, i - 1); break }
                text = substr(text, 1, i - 1) " " substr(rest, j + 2)
            }
            n = split(text, lines, "\n")
            code = ""
            for (k = 1; k <= n; k++) {
                line = lines[k]
                sub(/\/\/.*/, "", line)
                if (line ~ /^[ \t]*#/) continue
                code = code " " line
            }
            m = split(code, stmts, /[;{}]/)
            for (k = 1; k <= m; k++) {
                s = stmts[k]
                if (s !~ /(^|[^A-Za-z0-9_])TN_API([^A-Za-z0-9_]|$)/) continue
                p = index(s, "(")
                if (p == 0) { print "NOT-A-FUNCTION: " s; continue }
                head = substr(s, 1, p - 1)
                if (match(head, /[A-Za-z_][A-Za-z0-9_]*[ \t]*$/) == 0) { print "UNPARSED: " s; continue }
                name = substr(head, RSTART, RLENGTH)
                gsub(/[ \t]/, "", name)
                print name
            }
        }' | sort -u
}

# exported LIB: the defined dynamic symbols, sorted
exported() {
    nm -D --defined-only "$1" | awk 'NF >= 3 { print $3 }' | sed 's/@.*//' | sort -u
}

fail=0
# check NAME LIB DECLARED_FILE
check() {
    exported "$2" >"$tmp/$1.exported"
    missing=$(comm -23 "$3" "$tmp/$1.exported")
    extra=$(comm -13 "$3" "$tmp/$1.exported")
    nd=$(wc -l <"$3")
    ne=$(wc -l <"$tmp/$1.exported")
    echo "$1: $nd functions declared with TN_API, $ne symbols exported by $(basename "$2")"
    if [ -n "$missing" ]; then
        echo "$1: declared but NOT exported (a program calling them would not link):"
        echo "$missing" | sed 's/^/    /'
        fail=1
    fi
    if [ -n "$extra" ]; then
        echo "$1: exported but not declared with TN_API in its headers:"
        echo "$extra" | sed 's/^/    /'
        fail=1
    fi
}

core_headers=$(ls "$inc"/tilenav/*.h | grep -v '/io\.h$')
# shellcheck disable=SC2086 # header paths have no spaces (include/tilenav/<name>.h)
declared $core_headers >"$tmp/core.declared"
if grep -q -e '^NOT-A-FUNCTION' -e '^UNPARSED' "$tmp/core.declared"; then
    grep -e '^NOT-A-FUNCTION' -e '^UNPARSED' "$tmp/core.declared"
    fail=1
fi
[ -s "$tmp/core.declared" ] || { echo "exports: no TN_API declaration found in $inc"; exit 1; }
check core "$core" "$tmp/core.declared"

if [ -n "$io" ]; then
    declared "$inc/tilenav/io.h" >"$tmp/io.declared"
    if grep -q -e '^NOT-A-FUNCTION' -e '^UNPARSED' "$tmp/io.declared"; then
        grep -e '^NOT-A-FUNCTION' -e '^UNPARSED' "$tmp/io.declared"
        fail=1
    fi
    check io "$io" "$tmp/io.declared"
    both=$(comm -12 "$tmp/core.declared" "$tmp/io.declared")
    if [ -n "$both" ]; then
        echo "declared in io.h and in a core header: $both"
        fail=1
    fi
    # copies of core functions inside the loaders library, even hidden ones (its full symbol
    # table; nothing to check when it is stripped)
    nm --defined-only "$io" 2>/dev/null | awk 'NF >= 3 { print $3 }' | sort -u >"$tmp/io.all"
    copies=$(comm -12 "$tmp/core.declared" "$tmp/io.all")
    if [ -n "$copies" ]; then
        echo "io: $(basename "$io") holds its own copies of core functions (it should call libtilenav.so):"
        echo "$copies" | sed 's/^/    /'
        fail=1
    fi
    soname=$(objdump -p "$core" | awk '$1 == "SONAME" { print $2 }')
    if ! objdump -p "$io" | awk '$1 == "NEEDED" { print $2 }' | grep -qx "$soname"; then
        echo "io: $(basename "$io") does not link $soname (NEEDED: $(objdump -p "$io" |
            awk '$1 == "NEEDED" { printf "%s ", $2 }'))"
        fail=1
    fi
fi
[ "$fail" -eq 0 ] && echo "exports: ok"
exit "$fail"
