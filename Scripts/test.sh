#!/usr/bin/env bash
# Sets up and runs every check: the build (which runs the layering plugin on the front
# ends), the module dependency-edge rule, and all tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh

echo "== build" >&2
swift build --build-tests

echo "== module edges" >&2
package_json="$(mktemp)"
trap 'rm -f "$package_json"' EXIT
swift package dump-package > "$package_json"
swift run layer-check edges --package "$package_json"

echo "== tests" >&2
swift test --skip-build
