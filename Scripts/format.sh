#!/usr/bin/env bash
# Formats the Swift sources with swift-format (`.swift-format`; tests have their own in
# Tests/, which allows force unwraps), or with --lint checks them strictly without
# changing anything, as the test command does. Fixture sources are left as written: tests
# read them at fixed lines and columns.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.swift' | grep -v '/Fixtures/')
if [ "${1:-}" = "--lint" ]; then
  swift format lint --strict --parallel "${files[@]}"
else
  swift format format --in-place --parallel "${files[@]}"
fi
