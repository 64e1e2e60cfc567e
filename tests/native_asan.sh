#!/bin/sh
# The native step's tests against a build with AddressSanitizer and UBSan: any read or write
# out of bounds, or undefined behaviour, in the C stops the run with a report.
#
# Builds the extension in a scratch copy of the package (the working tree's build is left
# alone) and runs tests/test_native*.py there, or the test files given as arguments;
# --capture=sys: a sanitizer report, written to the stderr file descriptor, is shown; -m "":
# the slow tests too (all the fuzzed worlds).
# Needs gcc with libasan and libubsan. Usage: sh tests/native_asan.sh [tests/test_x.py ...]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r "$root/arcade_steering" "$root/tests" "$root/pyproject.toml" "$scratch/"
rm -f "$scratch"/arcade_steering/_native/_kernel*
cd "$scratch"
ARCADE_STEERING_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g" \
    python arcade_steering/_native/build.py >/dev/null
[ $# -gt 0 ] || set -- tests/test_native*.py
LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)" \
    ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 PYTHONPATH="$scratch" \
    python -m pytest -n 0 -q -m "" -p no:cacheprovider --capture=sys "$@"
