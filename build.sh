#!/bin/sh
# tilenav's one entry point for building, running and checking. POSIX sh, so it works on a fresh
# Debian/Ubuntu machine before anything else is installed.
#
#   ./build.sh demo      install what is missing, build (release), run the demo on the bundled map
#   ./build.sh test      install what is missing, build (debug), run every test with ctest
#   ./build.sh sanitize  the whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   ./build.sh strict    clang -O2, asserts on, warnings as errors, each header alone, tests
#   ./build.sh tsan      ThreadSanitizer (clang) on the tests that run many threads at once
#   ./build.sh format    check formatting with clang-format (no changes); fix-format applies it
#   ./build.sh examples  install to a temp prefix; build examples/ from it 4 ways, run them + demo
#   ./build.sh determinism  the pinned-hash tests built by gcc -O3, clang -O0, in plain C, by tcc
#   ./build.sh valgrind  memcheck over the CLI's commands on the shipped maps
#   ./build.sh windows   the core library for Windows (MinGW-w64, static and DLL), an example and
#                        the pinned hashes linked against each, run under Wine
#   ./build.sh fuzz [S]  build the libFuzzer targets (clang) and run each for S seconds (60)
#   ./build.sh python    the Python package: venv, pip install, wheel, mypy, pytest, memcheck
#   ./build.sh deps      only install the missing Debian packages (and web/'s npm package)
#
# Build trees go to build/<mode>. Set JOBS to limit parallel jobs (default: all cores).
set -eu

cd "$(dirname "$0")"
ROOT=$(pwd)
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# what demo and test need (python3: the independent reading of real Tiled maps in tiled_real);
# the checking modes (strict, tsan, fuzz, format) add DEV_PACKAGES
PACKAGES="build-essential cmake pkg-config python3 libcmocka-dev libcjson-dev zlib1g-dev libzstd-dev libexpat1-dev libpng-dev libgif-dev libstb-dev"
# the Python package (python/): Debian's interpreter, headers, venv, build backend, cffi and
# NumPy, pytest, mypy and valgrind for its checks; and the peers of its benchmark
# (bench/python_vs_peers.py)
PY_PACKAGES="python3-dev python3-venv python3-pip python3-setuptools python3-wheel python3-cffi python3-numpy python3-pytest mypy valgrind"
PY_PACKAGES="$PY_PACKAGES python3-skimage python3-scipy python3-networkx"
DEV_PACKAGES="clang clang-format libclang-rt-14-dev valgrind"
# the viewer and its test under Xvfb with synthetic X events
DEV_PACKAGES="$DEV_PACKAGES libsdl2-dev xvfb xauth xdotool"
# the web build and its browser test (web/): clang for wasm32-wasi, node, chromium
DEV_PACKAGES="$DEV_PACKAGES lld-14 wasi-libc libclang-rt-14-dev-wasm32 chromium"
# node/npm only when missing: a NodeSource nodejs bundles npm, and Debian's npm conflicts with it
command -v node >/dev/null 2>&1 || DEV_PACKAGES="$DEV_PACKAGES nodejs"
# the Windows build (./build.sh windows): the MinGW-w64 cross compiler and Wine to run it
WIN_PACKAGES="gcc-mingw-w64-x86-64-win32 wine64"
command -v npm >/dev/null 2>&1 || DEV_PACKAGES="$DEV_PACKAGES npm"

deps() { # [extra packages...]
    missing=""
    for p in $PACKAGES "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    echo "build.sh: installing missing packages:$missing"
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    available=""
    for p in $missing; do # a name this release does not have is skipped, not fatal
        apt-cache show "$p" >/dev/null 2>&1 && available="$available $p"
    done
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $available >/dev/null
}

configure_build() { # dir, cmake args...
    dir=$1
    shift
    cmake -S "$ROOT" -B "$dir" -DCMAKE_COMPILE_WARNING_AS_ERROR=ON "$@" >/dev/null
    cmake --build "$dir" -j "$JOBS"
}

run_tests() { # dir [ctest args...]; ends with the skipped tests and why (skip_summary)
    dir=$1
    shift
    { rc=0; ctest --test-dir "$dir" --output-on-failure -j "$JOBS" "$@" || rc=$?; echo "$rc" >"$dir/ctest.rc"; } 2>&1 |
        tee "$dir/ctest.out"
    skip_summary "$dir"
    return "$(cat "$dir/ctest.rc")"
}

# The tests ctest skipped (exit 77: a tool is missing) with the reason each one printed, and
# cmocka cases skipped inside tests that passed; read from ctest's output and its LastTest.log.
skip_summary() { # dir
    log="$1/Testing/Temporary/LastTest.log"
    [ -f "$log" ] || return 0
    skipped=$(awk '/^The following tests did not run:/ { f = 1; next }
        f && /\(Skipped\)/ { print $3 }' "$1/ctest.out")
    awk -v skipped=" $(echo $skipped) " '
        /^[0-9]+\/[0-9]+ Test: / { name = $3; next }
        /^Output:$/ { out = 1; first = 1; why = ""; last = ""; cases = ""; next }
        out && first { first = 0; next } # the dashes under "Output:"
        out && /^<end of output>$/ {
            out = 0
            if (index(skipped, " " name " ")) {
                if (why == "") why = (last == "" ? "(it printed nothing)" : last)
                ctest_skips = ctest_skips "  " name ": " why "\n"
            } else if (cases != "")
                case_skips = case_skips "  " name ":" cases "\n"
            next
        }
        out && /^\[  SKIPPED \] [A-Za-z_][A-Za-z_0-9]*$/ {
            if (!index(cases " ", " " $4 " ")) cases = cases " " $4
            next
        }
        out && /^\[  SKIPPED \]/ { next }
        out && tolower($0) ~ /skip/ { why = (why == "" ? "" : why " / ") $0 }
        out && NF { last = $0 }
        END {
            printf "\n==== skipped tests ====\n"
            if (ctest_skips == "" && case_skips == "") { print "none: every test ran"; exit }
            if (ctest_skips != "")
                printf "skipped by ctest (exit 77; each with its reason: ./build.sh deps installs missing tools,\n-DTILENAV_SHARED_DIR=DIR points the *_shared tests at the shared maps):\n%s", ctest_skips
            if (case_skips != "")
                printf "cmocka cases skipped inside tests that passed:\n%s", case_skips
        }' "$log"
}

mode=${1:-help}
case "$mode" in
deps)
    deps $DEV_PACKAGES $PY_PACKAGES
    # web/'s dev packages (playwright-core without a browser download, typescript, esbuild,
    # pathfinding, easystarjs, fzstd, phaser), pinned by web/package-lock.json
    if [ ! -f web/node_modules/phaser/package.json ] || [ ! -f web/node_modules/fzstd/package.json ] ||
        [ ! -f web/node_modules/playwright-core/package.json ]; then
        (cd web && npm ci --no-audit --no-fund)
    fi
    ;;
demo)
    deps
    configure_build build/release -DCMAKE_BUILD_TYPE=Release -DTILENAV_BUILD_TESTS=OFF
    shift
    ./build/release/tilenav demo "$@"
    ;;
test)
    deps
    configure_build build/debug -DCMAKE_BUILD_TYPE=Debug
    run_tests build/debug
    ;;
sanitize)
    deps
    configure_build build/sanitize -DCMAKE_BUILD_TYPE=Debug -DTILENAV_SANITIZE=ON
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 run_tests build/sanitize \
        -E '^web$' # the web test builds its own WebAssembly; it runs in ./build.sh test
    ;;
strict)
    deps $DEV_PACKAGES
    CC=clang configure_build build/clang -DCMAKE_BUILD_TYPE=Release -DTILENAV_ASSERT=ON
    # every public header compiles on its own (CMake's interface-header-set verification)
    cmake --build build/clang -j "$JOBS" --target all_verify_interface_header_sets
    run_tests build/clang -E '^web$'
    ;;
fix-format)
    git ls-files --cached --others --exclude-standard -- '*.c' '*.h' | xargs clang-format -i
    ;;
tsan)
    deps $DEV_PACKAGES
    CC=clang configure_build build/tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILENAV_TSAN=ON -DTILENAV_ASSERT=ON
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" ctest --test-dir build/tsan --output-on-failure \
        -R "${TSAN_TESTS:-search_threads|tile_collision|crowd|field}"
    ;;
format)
    deps clang-format
    files=$(git ls-files --cached --others --exclude-standard -- '*.c' '*.h')
    clang-format --dry-run -Werror $files
    echo "format: $(echo "$files" | wc -w) files clean"
    ;;
determinism)
    deps $DEV_PACKAGES tcc
    # test (gcc -O0), sanitize and strict (clang -O2) already run these; add the other corners
    # and the plain-C paths of compilers other than GCC, Clang and MSVC: the crowd's portable
    # loops in place of its SSE2 ones, no builtins (TILENAV_PORTABLE_C, src/internal.h); the
    # hashes must not move, and the searches that count bits pass their tests
    for cfg in "gcc Release" "clang Debug" "gcc Release portable"; do
        set -- $cfg
        dir="build/det-$1-$2${3:+-$3}"
        flags="" opts="" targets="tn_test_determinism tn_test_crowd tn_test_det_math"
        tests="determinism|crowd|det_math"
        if [ "${3:-}" = portable ]; then
            flags="-DTN_CROWD_SCALAR" opts="-DTILENAV_PORTABLE_C=ON"
            targets="$targets tn_test_bits tn_test_search tn_test_jps_weighted tn_test_goal_bounds"
            targets="$targets tn_test_tile_collision"
            tests="$tests|bits|search|jps_weighted|goal_bounds|tile_collision"
        fi
        CC=$1 cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=$2 -DTILENAV_BUILD_CLI=OFF $opts \
            -DCMAKE_C_FLAGS="$flags" -DCMAKE_COMPILE_WARNING_AS_ERROR=ON >/dev/null
        cmake --build "$dir" -j "$JOBS" --target $targets >/dev/null
        ctest --test-dir "$dir" --output-on-failure -R "^($tests)$"
    done
    # a C compiler that is neither GCC, Clang nor MSVC (TinyCC: src/internal.h's plain-C
    # branch for real), the library's sources compiled straight into the pinned hashes' program
    mkdir -p build/det-tcc
    tcc -std=c11 -Wall -Werror -DTN_STATIC -Iinclude -Itests src/*.c tests/windows/golden_main.c \
        tests/support/golden.c tests/support/core.c -lm -o build/det-tcc/golden
    build/det-tcc/golden
    ;;
windows)
    deps $WIN_PACKAGES
    # The core library only (the loaders' and tools' dependencies are not cross-built here).
    # -Wno-float-conversion: MinGW's isfinite() macro converts its double argument to float
    # inside the header; every other warning stays an error.
    dir=build/windows
    configure_build "$dir" -DCMAKE_SYSTEM_NAME=Windows -DCMAKE_C_COMPILER=x86_64-w64-mingw32-gcc \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=-Wno-float-conversion -DTILENAV_BUILD_IO=OFF \
        -DTILENAV_BUILD_CLI=OFF -DTILENAV_BUILD_TESTS=OFF -DTILENAV_BUILD_VIEWER=OFF
    cflags="-std=c11 -O2 -Wall -Wextra -Werror -ffp-contract=off -Iinclude -Itests"
    golden="tests/windows/golden_main.c tests/support/golden.c tests/support/core.c"
    for link in static dll; do
        if [ $link = static ]; then
            lib="-DTN_STATIC $dir/libtilenav.a"
        else
            lib="$dir/libtilenav.dll.a"
        fi
        x86_64-w64-mingw32-gcc $cflags examples/hello_path.c $lib -o "$dir/hello_path_$link.exe"
        x86_64-w64-mingw32-gcc $cflags $golden $lib -o "$dir/golden_$link.exe"
    done
    # the DLL's exports are the TN_API functions only
    if x86_64-w64-mingw32-objdump -p "$dir/libtilenav.dll" | sed -n '/Ordinal\/Name Pointer/,/^$/p' |
        grep -q 'tn__'; then
        echo "libtilenav.dll exports internal (tn__) symbols"
        exit 1
    fi
    wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
    export WINEPREFIX="$ROOT/$dir/wineprefix" WINEDEBUG=-all
    (cd "$dir" && for exe in hello_path_static hello_path_dll golden_static golden_dll; do
        echo "== $exe.exe (Wine)"
        "$wine" "./$exe.exe"
    done)
    ;;
valgrind)
    deps $DEV_PACKAGES
    configure_build build/debug -DCMAKE_BUILD_TYPE=Debug
    tools/reliability/valgrind.sh build/debug/tilenav
    ;;
fuzz)
    deps $DEV_PACKAGES
    secs=${2:-60}
    CC=clang configure_build build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILENAV_FUZZ=ON \
        -DTILENAV_BUILD_TESTS=OFF -DTILENAV_BUILD_CLI=OFF -DTILENAV_ASSERT=ON
    for bin in build/fuzz/fuzz_*; do
        name=$(basename "$bin")
        corpus="build/fuzz/corpus/$name"
        rm -rf "$corpus"
        fuzz/seeds.sh "$name" "$corpus"
        mkdir -p "fuzz-out/$name"
        echo "fuzz: $name for ${secs}s"
        "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=1048576 \
            -artifact_prefix="fuzz-out/$name/" -print_final_stats=1 "$corpus" 2>"fuzz-out/$name/log.txt" ||
            { tail -40 "fuzz-out/$name/log.txt"; exit 1; }
        grep -E "stat::number_of_executed_units|stat::average_exec_per_sec" "fuzz-out/$name/log.txt" | tr '\n' ' '
        echo
    done
    ;;
python)
    shift
    deps $PY_PACKAGES
    # the release CLI, which the tests compare with (tilenav bench, tilenav path)
    configure_build build/release -DCMAKE_BUILD_TYPE=Release -DTILENAV_BUILD_TESTS=OFF
    # Debian's /usr/bin/python3 explicitly: its python3-numpy and python3-cffi are what the
    # venv sees (--system-site-packages); a pyenv or other python3 first on PATH has neither
    venv=build/python/venv
    [ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$venv"
    rm -rf build/python/wheel python/build python/tilenav.egg-info
    JOBS=$JOBS "$venv/bin/pip" install --no-build-isolation --no-index --quiet ./python
    JOBS=$JOBS "$venv/bin/pip" wheel --no-build-isolation --no-index --no-deps --quiet \
        -w build/python/wheel ./python
    echo "python: built $(ls build/python/wheel)"
    rm -rf python/build python/tilenav.egg-info
    # the type hints, as a user's mypy sees the installed package (py.typed)
    (cd build/python && venv/bin/python -m mypy --strict --no-incremental -p tilenav)
    # from build/python, so that the tests import the installed package, not python/tilenav
    (cd build/python && TILENAV_CLI="$ROOT/build/release/tilenav" venv/bin/python -m pytest -q \
        -p no:cacheprovider "$ROOT/python/tests" "$@")
    # memcheck over 700 and 2800 creations and destructions (the 100,000 of the tests would
    # take an hour under valgrind): no memory error, no leak through tilenav, no growth
    python/tests/valgrind.sh build/python/venv/bin/python
    ;;
examples)
    deps
    configure_build build/release -DCMAKE_BUILD_TYPE=Release -DTILENAV_BUILD_TESTS=OFF
    # Everything below uses the installed prefix only: the programs' sources are copied out of
    # the source tree, and nothing is compiled with -I or -L into it.
    work=$(mktemp -d "${TMPDIR:-/tmp}/tilenav-examples.XXXXXX")
    prefix="$work/prefix"
    trap 'echo "examples: FAILED; files kept in $work" >&2' EXIT
    cmake --install build/release --prefix "$prefix" >/dev/null
    maps="$prefix/share/tilenav/maps"
    cp -R examples "$work/src"
    export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
    cm() { # source build [cmake args...]: configure and build a project against the prefix
        src=$1 bld=$2
        shift 2
        cmake -S "$src" -B "$bld" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
            -DCMAKE_COMPILE_WARNING_AS_ERROR=ON "$@" >/dev/null
        cmake --build "$bld" -j "$JOBS" >/dev/null
    }
    links() { # binary pattern: does the binary need a shared library matching the pattern?
        readelf -d "$1" | grep NEEDED | grep -q "$2"
    }
    step() { printf '\n== examples: %s\n' "$*"; }

    step "hello_path (CMake, tilenav::tilenav)"
    cm "$work/src" "$work/build-hello"
    "$work/build-hello/hello_path"

    step "the README's tour (cc, the static archive)"
    awk '/<!-- tour -->/{f=1;next} f&&/^```c/{g=1;next} g&&/^```/{exit} g' README.md >"$work/readme_tour.c"
    cc -std=c11 -Wall -Wextra -Werror -o "$work/readme_tour" "$work/readme_tour.c" \
        -I"$prefix/include" -DTN_STATIC "$prefix/lib/libtilenav.a" -lm
    "$work/readme_tour"

    step "hello_path through pkg-config and libtilenav.so"
    cc -std=c11 -Wall -Wextra -Werror -o "$work/hello_pc" "$work/src/hello_path.c" \
        $(pkg-config --cflags --libs tilenav)
    LD_LIBRARY_PATH="$prefix/lib" "$work/hello_pc"

    # the game (examples/consumer): a Tiled map and a Moving AI map from the installed data
    game_maps="$maps/td.tmj $maps/maze64.map"
    step "game: CMake, static (tilenav::io)"
    cm "$work/src/consumer" "$work/game-cmake-static"
    ! links "$work/game-cmake-static/game" libtilenav || { echo "linked a shared tilenav"; exit 1; }
    "$work/game-cmake-static/game" $game_maps

    step "game: CMake, static, the loaders' libraries found without pkg-config"
    # as on a machine without pkg-config (Windows with vcpkg): cJSON, zlib, zstd and expat from
    # their CMake packages (cmake/tilenavDeps.cmake)
    cm "$work/src/consumer" "$work/game-cmake-nopc" -DTILENAV_DEPS_NO_PKGCONFIG=ON
    "$work/game-cmake-nopc/game" $game_maps

    step "game: CMake, shared (tilenav::io_shared), run through its rpath"
    cm "$work/src/consumer" "$work/game-cmake-shared" -DGAME_SHARED=ON
    links "$work/game-cmake-shared/game" libtilenav_io.so || { echo "not linked to libtilenav_io.so"; exit 1; }
    env -u LD_LIBRARY_PATH "$work/game-cmake-shared/game" $game_maps

    step "game: pkg-config --static, the archives"
    # -ltilenav names both libtilenav.a and libtilenav.so: -Bstatic makes the linker take the
    # archives; --static adds what they need (TN_STATIC, -lm, cJSON, zlib, zstd, expat)
    cc -std=c11 -Wall -Wextra -Werror -o "$work/game-pc-static" "$work/src/consumer/game.c" \
        $(pkg-config --static --cflags tilenav-io) -Wl,--as-needed \
        -Wl,-Bstatic -ltilenav_io -ltilenav -Wl,-Bdynamic $(pkg-config --static --libs tilenav-io) -lm
    ! links "$work/game-pc-static" libtilenav || { echo "linked a shared tilenav"; exit 1; }
    "$work/game-pc-static" $game_maps

    step "game: pkg-config, shared, with an rpath to the prefix's lib"
    cc -std=c11 -Wall -Wextra -Werror -o "$work/game-pc-shared" "$work/src/consumer/game.c" \
        $(pkg-config --cflags --libs tilenav-io) -Wl,-rpath,"$(pkg-config --variable=libdir tilenav-io)" -lm
    links "$work/game-pc-shared" libtilenav_io.so || { echo "not linked to libtilenav_io.so"; exit 1; }
    env -u LD_LIBRARY_PATH "$work/game-pc-shared" $game_maps

    step "the installed tilenav demo, from an empty folder"
    mkdir "$work/run"
    find "$prefix" | sort >"$work/prefix.before"
    (cd "$work/run" && env -u TILENAV_DATA_DIR "$prefix/bin/tilenav" demo --steps 120 --quiet >demo.log) ||
        { cat "$work/run/demo.log"; exit 1; }
    head -1 "$work/run/demo.log"
    [ -s "$work/run/demo-out/demo.gif" ] && [ -s "$work/run/demo-out/demo-sheet.png" ] ||
        { echo "the demo's pictures are not in its working folder"; exit 1; }
    find "$prefix" | sort | cmp -s - "$work/prefix.before" || { echo "the demo wrote into the prefix"; exit 1; }
    trap - EXIT
    rm -rf "$work"
    echo "examples: all passed"
    ;;
*)
    # the header comment, up to its first blank comment line after the modes
    sed -n '2,/^# Build trees/p' "$0" | sed 's/^# \{0,1\}//'
    [ "$mode" = help ] || exit 2
    ;;
esac
