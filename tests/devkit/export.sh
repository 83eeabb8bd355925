#!/bin/sh
# How users outside the tree find swtee, from the build tree and once
# installed: TEEC_EXPORT and TA_DEV_KIT_DIR (OP-TEE's way), pkg-config teec,
# and find_package(swtee) with swtee_add_ta().
. "$(dirname "$0")/common.sh"

hello=$SWTEE_SOURCE/examples/hello_world
project=$SWTEE_SOURCE/tests/devkit/cmake_project

# pkg_client PC_DIR OUT: the hello_world client built with pkg-config only.
pkg_client() {
	cflags=$(PKG_CONFIG_PATH=$1 pkg-config --cflags teec) || fail "pkg-config --cflags teec ($1)"
	libs=$(PKG_CONFIG_PATH=$1 pkg-config --libs teec) || fail "pkg-config --libs teec ($1)"
	# shellcheck disable=SC2086
	cc -Wall -Werror -I"$hello/ta/include" $cflags -o "$2" "$hello/host/main.c" $libs ||
		fail "the client does not build with pkg-config teec from $1"
}

# cmake_project PREFIX_ARG OUT: the out-of-tree CMake project, built and run.
cmake_project() {
	cmake -S "$project" -B "$2" "$1" > "$2.log" 2>&1 || { cat "$2.log"; fail "find_package(swtee) ($1)"; }
	cmake --build "$2" >> "$2.log" 2>&1 || { cat "$2.log"; fail "the CMake project does not build ($1)"; }
	[ -f "$2/7d3c1f0e-2b4a-4c6d-8e9f-a0b1c2d3e4f5.ta" ] || fail "swtee_add_ta made no .ta"
}

# From the build tree.
copy "$hello" hello
build "$WORK/hello" > "$WORK/build" 2>&1 || { cat "$WORK/build"; fail "hello_world with TEEC_EXPORT"; }
pkg_client "$SWTEE_BUILD/lib/pkgconfig" "$WORK/hello-pc"
run "$WORK/hello/ta" "$WORK/log" "$WORK/hello-pc" || fail "the pkg-config client (build tree)"
cmake_project "-Dswtee_DIR=$SWTEE_BUILD/lib/cmake/swtee" "$WORK/cmake-build"
run "$WORK/cmake-build" "$WORK/log" "$WORK/cmake-build/counter_client" ||
	fail "the CMake project's client (build tree)"
echo "ok: build tree: TEEC_EXPORT, pkg-config, find_package"

# Installed: the prefix is TEEC_EXPORT, the kit is in share/swtee/ta_dev_kit.
prefix=$WORK/prefix
cmake --install "$SWTEE_BUILD" --prefix "$prefix" > "$WORK/install.log" 2>&1 ||
	{ cat "$WORK/install.log"; fail "cmake --install"; }
KIT=$prefix/share/swtee/ta_dev_kit
EXPORT=$prefix
SWTEE=$prefix/bin/swtee
for f in mk/ta_dev_kit.mk include/tee_internal_api.h src/user_ta_header.c keys/default_ta.pem \
	lib/ta_runtime.syms bin/swtee; do
	[ -e "$KIT/$f" ] || fail "the installed kit has no $f"
done
copy "$hello" hello-installed
build "$WORK/hello-installed" > "$WORK/build" 2>&1 ||
	{ cat "$WORK/build"; fail "hello_world with the installed kit and TEEC_EXPORT=prefix"; }
run "$WORK/hello-installed/ta" "$WORK/log" "$WORK/hello-installed/host/swtee_example_hello_world" ||
	fail "hello_world (installed)"
pkg_client "$prefix/lib/pkgconfig" "$WORK/hello-pc-installed"
run "$WORK/hello-installed/ta" "$WORK/log" "$WORK/hello-pc-installed" ||
	fail "the pkg-config client (installed)"
cmake_project "-DCMAKE_PREFIX_PATH=$prefix" "$WORK/cmake-installed"
run "$WORK/cmake-installed" "$WORK/log" "$WORK/cmake-installed/counter_client" ||
	fail "the CMake project's client (installed)"
echo "ok: installed: TEEC_EXPORT, TA_DEV_KIT_DIR, pkg-config, find_package"
echo "PASS: swtee found from outside, built and installed"
