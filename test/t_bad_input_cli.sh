#!/usr/bin/env bash
# The bad-input suite again, through the real command line (simc --check).
cd "$(dirname "$0")/.." || exit 1
CHECK=test/simc_check.sh bash test/t_bad_input.sh | sed 's/^\(PASS\|FAIL\) /\1 cli:/'
exit "${PIPESTATUS[0]}"
