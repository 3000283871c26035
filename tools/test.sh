#!/usr/bin/env bash
# Command 2 of the README: build (if needed) and run the whole test suite with ctest.
# Extra arguments go to ctest, e.g. tools/test.sh -L unit, or -L gpu on a GPU machine.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
mesogpu_build
cd "$BUILD"
ctest --output-on-failure -j "$JOBS" "$@"
