#!/bin/sh
# The tree's boundaries (docs/STYLE: "a component links the others'
# libraries, never compiles their sources; src/ never includes tests/"):
# no build file or source under src/ names a path under tests/, and no
# build file under src/ compiles a source of another folder of src/.
# Usage: boundaries.sh SOURCE_DIR
set -u
src=$1/src
fail=0

# A path under tests/ in an include directive, an include directory or a source list.
hits=$(grep -rnE '(^|[^a-z_])tests/' "$src" --include=CMakeLists.txt --include='*.cmake' \
	--include='*.c' --include='*.h' | grep -E '#include|PROJECT_SOURCE_DIR|\.\./' || true)
if [ -n "$hits" ]; then
	echo "FAIL src/ reaches into tests/:"
	echo "$hits"
	fail=1
else
	echo "ok   src/ includes nothing of tests/"
fi

# A source of src/ named by path from a build file: a component compiling
# another's code instead of linking its library.
hits=$(grep -rnE 'PROJECT_SOURCE_DIR\}/src/[^ )]*\.c([ )]|$)' "$src" --include=CMakeLists.txt \
	--include='*.cmake' || true)
if [ -n "$hits" ]; then
	echo "FAIL a component of src/ compiles another's sources:"
	echo "$hits"
	fail=1
else
	echo "ok   no component of src/ compiles another's sources"
fi
exit $fail
