#!/usr/bin/env bash
# Sets up and runs every check: the format lint, the build (which runs the layering plugin
# on the front ends), the module dependency-edge and import rules, and all tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh

echo "== format (swift-format lint --strict; Scripts/format.sh fixes)" >&2
bash Scripts/format.sh --lint

echo "== build" >&2
swift build --build-tests

echo "== module edges and every target's imports" >&2
package_json="$(mktemp)"
trap 'rm -f "$package_json"' EXIT
swift package dump-package > "$package_json"
swift run layer-check edges --package "$package_json" --check-imports

bash Scripts/docs.sh   # DocC of the public modules: warnings are errors, every public symbol documented

echo "== tests" >&2
# Setup installed PostgreSQL: a test that cannot start it fails instead of being skipped.
export FORAGER_REQUIRE_POSTGRES="${FORAGER_REQUIRE_POSTGRES:-1}"
# A test that hangs fails the run here, named by the last "started" lines above, instead
# of leaving it to an outer time limit.
limit="${FORAGER_TEST_TIMEOUT:-50m}"
status=0
# Deterministic hashing: a seeded schedule that fails replays in another process exactly.
SWIFT_DETERMINISTIC_HASHING=1 timeout --kill-after=30s "$limit" swift test --skip-build </dev/null || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "error: the tests did not finish within $limit" >&2
fi
[ "$status" -eq 0 ] || exit "$status"

echo "== load tests: a household flooding the server and a connection top-up, alone so they time no other test" >&2
FORAGER_LOAD_TESTS=1 SWIFT_DETERMINISTIC_HASHING=1 timeout --kill-after=30s 10m swift test --skip-build \
  --filter 'FairChecksTests|ConnectionShareTests' </dev/null

echo "== benchmark smoke run: every forager-bench scenario at tiny sizes (figures not meaningful; Docs/PERFORMANCE.md)" >&2
"$(swift build --show-bin-path)/forager-bench" --smoke

echo "== fuzz: a bounded libFuzzer run over pulled batches (Scripts/fuzz.sh; FORAGER_FUZZ_SECONDS)" >&2
bash Scripts/fuzz.sh "${FORAGER_FUZZ_SECONDS:-20}"
