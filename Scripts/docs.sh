#!/usr/bin/env bash
# Builds the DocC documentation of the public modules and checks it: DocC's warnings
# (a broken link, a parameter left undocumented among documented ones) are errors, every
# public declaration of those modules has a `///` summary, every module has a catalog
# root page, and every Swift snippet in the catalogs' articles type-checks against the
# built modules. Exits non-zero naming each problem.
#
#   Scripts/docs.sh                 build and check every module (archives in
#                                   .build/plugins/Swift-DocC/outputs/NAME.doccarchive)
#   Scripts/docs.sh Normalization   only the modules named
#   Scripts/docs.sh --self-check    show that the checker fails on an undocumented symbol
#                                   (a two-type fixture module, compiled here)
#
# Read one with `swift package --disable-sandbox preview-documentation --target NAME`, or
# serve an archive's folder (a static site) and open /documentation/name.
set -euo pipefail
script="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/.."

all_modules=(Model Normalization Persistence PersistenceSQLite PersistenceMemory Repositories Sync SyncMemory SyncHTTP RecipeExchange CommandLanguage GeneratedRegion)

# Reads the symbol graphs of one module (the module's own file and its extensions of other
# modules' types) and prints every public symbol declared in the module's sources (the
# third argument) whose doc comment has no summary of its own:
# "MODULE path.to.symbol (kind) file:line".
check_symbols() {
  python3 - "$@" <<'PYTHON'
import json, os, sys

module, graph_dir, sources = sys.argv[1], sys.argv[2], os.path.realpath(sys.argv[3])
files = [f for f in os.listdir(graph_dir) if f == f"{module}.symbols.json" or f.startswith(f"{module}@")]
if not files:
    print(f"{module}: no symbol graph in {graph_dir}")
    sys.exit(2)
missing = []
for name in sorted(files):
    for symbol in json.load(open(os.path.join(graph_dir, name)))["symbols"]:
        location = symbol.get("location")
        if location is None or not location["uri"].startswith("file://" + sources + "/"):
            continue  # declared in another module (an inherited default, a synthesized member)
        if symbol["kind"]["identifier"] == "swift.extension":
            continue  # an extension block of another module's type: its members are checked
        comment = symbol.get("docComment")
        own = comment is not None and comment.get("module", module) == module
        lines = [line.get("text", "").strip() for line in comment.get("lines", [])] if comment else []
        first = next((line for line in lines if line), "")
        # The summary is the first paragraph: a comment of only "- Parameter" or
        # "- Throws:" lines has none.
        if not own or not first or first.startswith("- "):
            path = ".".join(symbol["pathComponents"])
            source = location["uri"].split("/")[-1] + ":" + str(location["position"]["line"] + 1)
            missing.append(f"{module} {path} ({symbol['kind']['displayName']}) {source}")
for line in sorted(set(missing)):
    print(line)
sys.exit(1 if missing else 0)
PYTHON
}

if [ "${1:-}" = "--self-check" ]; then
  fixture="$(mktemp -d)"
  trap 'rm -rf "$fixture"' EXIT
  cat > "$fixture/Fixture.swift" <<'SWIFT'
/// A documented type.
public struct Documented: Equatable {
  /// A documented property.
  public var name: String
  public var undocumented: Int
  /// - Parameter name: a parameter, but no summary.
  public init(name: String) {
    self.name = name
    undocumented = 0
  }
}
SWIFT
  swiftc -parse-as-library -module-name Fixture -emit-module -emit-module-path "$fixture/Fixture.swiftmodule" \
    -emit-symbol-graph -emit-symbol-graph-dir "$fixture" "$fixture/Fixture.swift"
  status=0
  output="$(check_symbols Fixture "$fixture" "$fixture")" || status=$?
  expected="Fixture Documented.init(name:) (Initializer) Fixture.swift:7
Fixture Documented.undocumented (Instance Property) Fixture.swift:5"
  if [ "$status" -eq 1 ] && [ "$output" = "$expected" ]; then
    echo "docs self-check: the checker names the fixture's two undocumented symbols and fails"
    exit 0
  fi
  echo "error: docs self-check: expected exactly these (status 1):" >&2
  echo "$expected" >&2
  echo "got (status $status):" >&2
  echo "$output" >&2
  exit 1
fi

# The checker is shown failing on an undocumented symbol before it is trusted to pass.
bash "$script" --self-check >&2

modules=("$@")
[ "${#modules[@]}" -gt 0 ] || modules=("${all_modules[@]}")
targets=()
for module in "${modules[@]}"; do
  [ -f "Modules/$module/$module.docc/$module.md" ] || {
    echo "error: Modules/$module/$module.docc/$module.md (the catalog's root page) is missing" >&2
    exit 1
  }
  targets+=(--target "$module")
done

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
echo "== DocC: ${modules[*]} (warnings are errors)" >&2
status=0
swift package --disable-sandbox generate-documentation "${targets[@]}" --warnings-as-errors \
  --experimental-documentation-coverage --coverage-summary-level brief > "$log" 2>&1 || status=$?
# With --warnings-as-errors every DocC warning fails the convert (and the plugin) with
# the diagnostic and its source lines; SwiftPM's own warnings about dependencies do not.
if [ "$status" -ne 0 ]; then
  grep -vE '^\[[0-9]+/[0-9]+\]|^(Building|Build of|Extracting|Finished|Generating|Converting)' "$log" >&2 || true
  echo "error: DocC reported the problems above" >&2
  exit 1
fi

# The plugin leaves each module's symbol graphs in .build/TRIPLE/extracted-symbols/PACKAGE/NAME.
problems=0
for module in "${modules[@]}"; do
  graph_dir="$(find .build -type d -path "*/extracted-symbols/*" -name "$module" -print -quit 2>/dev/null || true)"
  if [ -z "$graph_dir" ]; then
    echo "error: no symbol graphs of $module under .build" >&2
    problems=1
    continue
  fi
  if ! check_symbols "$module" "$graph_dir" "Modules/$module" >&2; then
    problems=1
  fi
done
if [ "$problems" -ne 0 ]; then
  echo "error: the public symbols above have no /// summary" >&2
  exit 1
fi

# Every ```swift block of an article is type-checked against the built modules, wrapped
# in a throwing function with its imports hoisted, so an article cannot show an API that
# does not exist.
snippets="$(mktemp -d)"
trap 'rm -f "$log"; rm -rf "$snippets"' EXIT
python3 - "$snippets" "${modules[@]}" <<'PYTHON'
import os, re, sys

out, modules = sys.argv[1], sys.argv[2:]
count = 0
for module in modules:
    catalog = f"Modules/{module}/{module}.docc"
    for name in sorted(os.listdir(catalog)):
        if not name.endswith(".md"):
            continue
        text = open(os.path.join(catalog, name)).read()
        for number, block in enumerate(re.findall(r"```swift\n(.*?)```", text, re.S)):
            lines = block.splitlines()
            imports = sorted({line for line in lines if line.startswith("import ")})
            body = [line for line in lines if not line.startswith("import ")]
            label = f"{module}_{name[:-3]}_{number}".replace("-", "_")
            source = "\n".join(imports) + f"\n\n// {catalog}/{name}, block {number + 1}\nfunc {label}() throws {{\n"
            source += "\n".join("  " + line for line in body) + "\n}\n"
            open(os.path.join(out, label + ".swift"), "w").write(source)
            count += 1
print(f"{count} article snippets", file=sys.stderr)
PYTHON
bin="$(swift build --show-bin-path)"
# The C modules the Swift modules were built with (GRDB's SQLite, ZIPFoundation's zlib, …).
c_modules=()
while read -r flag; do
  [ -f "${flag#-fmodule-map-file=}" ] && c_modules+=(-Xcc "$flag")
done < <(grep -oh -- '-fmodule-map-file=[^" ]*' .build/debug.yaml | sort -u)
if ls "$snippets"/*.swift > /dev/null 2>&1; then
  for file in "$snippets"/*.swift; do
    if ! swiftc -typecheck -parse-as-library -I "$bin/Modules" -I "$bin" "${c_modules[@]}" "$file" 2> "$file.log"; then
      grep -m1 '^// Modules/' "$file" >&2
      sed 's|^.*/||' "$file.log" | grep -E 'error' >&2
      problems=1
    fi
  done
fi
if [ "$problems" -ne 0 ]; then
  echo "error: the article snippets above do not type-check" >&2
  exit 1
fi
echo "docs: ${modules[*]}: no warnings, every public symbol documented, every snippet type-checks" >&2
