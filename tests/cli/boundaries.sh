#!/bin/sh
# The tree's boundaries (docs/STYLE: "a component links the others'
# libraries, never compiles their sources; src/ never includes tests/"):
# no build file or source under src/ names a path under tests/.
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
exit $fail
