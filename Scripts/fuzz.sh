#!/usr/bin/env bash
# Fuzzes what a device does with a pulled batch (decoder, the pull's checks, the join) with
# libFuzzer and AddressSanitizer for SECONDS seconds (default 30), from the honest seed
# batches (Tests/Fixtures/fuzz-seeds) plus the corpus it grows in .fuzz/corpus. Crash inputs land in .fuzz/ as crash-<sha1>;
# replay one with a normal build: swift run forager-fuzz .fuzz/crash-…
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
case "$seconds" in '' | *[!0-9]*) echo "usage: Scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;; esac

scratch=.build-fuzz
echo "== building forager-fuzz with libFuzzer (-sanitize=fuzzer,address)" >&2
# FORAGER_FUZZ=1 makes Package.swift instrument the fuzzed targets only (see there).
export FORAGER_FUZZ=1
swift build --scratch-path "$scratch" --product forager-fuzz >&2
binary="$(swift build --scratch-path "$scratch" --product forager-fuzz --show-bin-path)/forager-fuzz"

mkdir -p .fuzz/corpus
# Tests/Fixtures/fuzz-seeds: honest batches of every kind, written by `forager-fuzz --seeds`.

echo "== fuzzing for ${seconds}s" >&2
# Swift's backtracer would wait on a crash and hang the run (Docs/SYNC.md, "Fuzzing").
# Leak detection is off: LeakSanitizer takes memory the Swift runtime and Foundation keep
# (through pointers it cannot see) for leaks, and stops at the first input.
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 \
  -artifact_prefix=.fuzz/ -print_final_stats=1 .fuzz/corpus Tests/Fixtures/fuzz-seeds
