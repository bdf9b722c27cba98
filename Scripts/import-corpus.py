#!/usr/bin/env python3
"""Measures `recipe import` on a corpus of real saved recipe pages (Docs/IMPORT.md, "Measured
on real pages").

    Scripts/import-corpus.py PAGES_DIR FORAGER_BATCH WORK_DIR

PAGES_DIR holds saved pages (*.html). Each page is read by extruct, the schema.org extractor
common scrapers use, as the oracle for "what the page's recipe says", in the order `recipe import`
reads the forms (Docs/IMPORT.md): its JSON-LD, else its microdata, else its RDFa. The folder is
imported with `recipe import` into a fresh store and exported again with `recipe export --all`.
Printed: how many pages carry a schema.org Recipe and in which form, how many of those import,
and for those how often the title, ingredient lines, yield, times and step count equal the page's. Pages whose
recipe shares its title with another page are left out of the field comparison (a store keeps
one recipe per name). WORK_DIR keeps the store (corpus.sqlite) and the import's JSON result
(import.json); when both are there already, the import is not run again. Needs
`pip install extruct`.
"""
import html
import json
import os
import re
import subprocess
import sys

try:
    import extruct
except ImportError:
    sys.exit("import-corpus: needs extruct (pip install extruct)")


def text(value):
    if value is None:
        return ""
    if isinstance(value, list):
        value = value[0] if value else ""
    if isinstance(value, dict):
        value = value.get("@value") or value.get("name") or ""
    value = re.sub(r"<[^>]+>", " ", html.unescape(html.unescape(str(value))))
    value = re.sub("[\u200b\u200c\u200d\u2060\ufeff]", "", value)
    return " ".join(value.split())


def types(node):
    kind = node.get("@type", [])
    return kind if isinstance(kind, list) else [kind]


def recipes_in(node):
    if isinstance(node, list):
        for item in node:
            yield from recipes_in(item)
    elif isinstance(node, dict):
        if any(str(t).lower().endswith("recipe") for t in types(node)):
            yield node
        for key in ("@graph", "mainEntity", "mainEntityOfPage", "itemListElement", "item"):
            if key in node:
                yield from recipes_in(node[key])


SCHEMA = ("http://schema.org/", "https://schema.org/")


def schema_term(iri):
    for prefix in SCHEMA:
        if iri.startswith(prefix):
            return iri[len(prefix):]
    return None


def rdfa_recipes(nodes):
    """extruct's RDFa (expanded JSON-LD: full addresses, values as [{"@value": …}] or
    [{"@id": …}]) as plain objects, the Recipes among them, nested nodes followed by id."""
    by_id = {node.get("@id"): node for node in nodes if isinstance(node, dict)}

    def plain(node, depth):
        out = {"@type": [schema_term(t) or t for t in node.get("@type", [])]}
        for key, values in node.items():
            name = schema_term(key)
            if name is None or not isinstance(values, list):
                continue
            items = []
            for value in values:
                if "@value" in value:
                    items.append(value["@value"])
                elif "@id" in value and value["@id"] in by_id and depth < 64:
                    items.append(plain(by_id[value["@id"]], depth + 1))
                elif "@id" in value:
                    items.append(value["@id"])
            out[name] = items[0] if len(items) == 1 else items
        return out

    return [plain(node, 0) for node in by_id.values() if any(str(t).lower().endswith("recipe") for t in node.get("@type", []))]


def oracle_recipe(raw):
    """The page's first Recipe and the form it is in: JSON-LD first, then microdata, then RDFa."""
    data = extruct.extract(raw, syntaxes=["json-ld", "rdfa"], uniform=False)
    found = [r for block in data.get("json-ld", []) for r in recipes_in(block)]
    if found:
        return found[0], "JSON-LD"
    # uniform: microdata items as JSON-LD-shaped objects ({"@type": "Recipe", "name": …}).
    microdata = extruct.extract(raw, syntaxes=["microdata"], uniform=True)
    found = [r for item in microdata.get("microdata", []) for r in recipes_in(item)]
    if found:
        return found[0], "microdata"
    found = rdfa_recipes(data.get("rdfa", []))
    if found:
        return found[0], "RDFa"
    return None, None


def minutes(value):
    value = text(value)
    match = re.fullmatch(r"-?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?", value.upper())
    if not match or value.upper() in ("P", "PT", ""):
        return None
    _, _, w, d, h, m, s = match.groups()
    total = (float(w or 0) * 7 + float(d or 0)) * 1440 + float(h or 0) * 60 + float(m or 0) + float(s or 0) / 60
    return round(total) or None  # a zero duration says nothing, as an absent one


def steps(value):
    if value is None:
        return 0
    if isinstance(value, str):
        return len([line for line in re.split(r"\n|<br\s*/?>|</p>|</li>", value) if text(line)])
    if isinstance(value, dict):
        if "itemListElement" in value:
            return steps(value["itemListElement"])
        return 1 if text(value.get("text") or value.get("name")) else 0
    if isinstance(value, list):
        return sum(steps(item) for item in value)
    return 0


def first_number(value):
    match = re.search(r"\d+", text(value))
    return match.group(0) if match else None


def find_rows(value):
    """The per-file rows of `recipe import`'s JSON result, wherever the result nests them."""
    if isinstance(value, dict):
        if "file" in value and "result" in value:
            return [value]
        return [row for item in value.values() for row in find_rows(item)]
    if isinstance(value, list):
        return [row for item in value for row in find_rows(item)]
    return []


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    pages, batch, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    files = sorted(f for f in os.listdir(pages) if f.endswith(".html"))
    oracle, forms = {}, {}
    for name in files:
        with open(os.path.join(pages, name), "rb") as handle:
            raw = handle.read()
        try:
            recipe, form = oracle_recipe(raw.decode("utf-8", "replace"))
        except Exception:
            continue
        if recipe is not None:
            oracle[name] = recipe
            forms[name] = form

    store = os.path.join(work, "corpus.sqlite")
    result_file = os.path.join(work, "import.json")
    exported = os.path.join(work, "recipes.jsonld")
    if not (os.path.exists(store) and os.path.exists(result_file)):
        with open(result_file, "w") as out:
            subprocess.run([batch, "--store", store, "--json", "-"], input=f'recipe import "{pages}"\n', stdout=out, text=True)
    subprocess.run([batch, "--store", store, "-"], input=f'recipe export --all --output "{exported}"\n', check=True, text=True, stdout=subprocess.DEVNULL)
    with open(result_file) as handle:
        raw = handle.read()
    rows = []
    decoder = json.JSONDecoder()
    position = 0
    while position < len(raw):
        while position < len(raw) and raw[position].isspace():
            position += 1
        if position >= len(raw):
            break
        value, position = decoder.raw_decode(raw, position)
        rows += find_rows(value)
    with open(exported) as handle:
        document = json.load(handle)
    written = document if isinstance(document, list) else [document]
    by_name = {}
    for recipe in written:
        by_name.setdefault(text(recipe.get("name")), []).append(recipe)

    imported = {}
    for row in rows:
        if row.get("result") == "imported" and row.get("recipe"):
            imported[os.path.basename(str(row["file"]))] = text(row["recipe"])
    with_recipe = [f for f in files if f in oracle]
    read = [f for f in with_recipe if f in imported]
    fields = {"title": 0, "ingredient lines": 0, "yield": 0, "times": 0, "step count": 0}
    compared = 0
    misses = {key: [] for key in fields}
    for f in read:
        page = oracle[f]
        ours = by_name.get(imported[f], [])
        if len(ours) != 1:
            continue
        ours = ours[0]
        compared += 1
        checks = {
            "title": text(ours.get("name")) == text(page.get("name")),
            "ingredient lines": [text(i) for i in ours.get("recipeIngredient", [])]
            == [text(i) for i in (page.get("recipeIngredient") or page.get("ingredients") or []) if text(i)],
            "yield": first_number(ours.get("recipeYield")) == first_number(page.get("recipeYield")),
            "times": all(
                minutes(ours.get(k)) == minutes(page.get(k))
                for k in ("prepTime", "cookTime", "totalTime")
                if minutes(page.get(k)) is not None
            ),
            "step count": steps(ours.get("recipeInstructions")) == steps(page.get("recipeInstructions")),
        }
        for key, good in checks.items():
            fields[key] += good
            if not good:
                misses[key].append(f)
    by_form = ", ".join(
        f"{form} {sum(1 for f in with_recipe if forms[f] == form)} ({sum(1 for f in read if forms[f] == form)} imported)"
        for form in ("JSON-LD", "microdata", "RDFa"))
    print(f"pages: {len(files)}; with a schema.org Recipe (extruct): {len(with_recipe)} ({by_form}); "
          f"imported: {len(read)} ({100 * len(read) / max(len(with_recipe), 1):.1f} %)")
    print(f"fields compared on {compared} imported pages:")
    for key, good in fields.items():
        print(f"  {key}: {good} equal ({100 * good / max(compared, 1):.1f} %)")
    refused = [f for f in with_recipe if f not in imported]
    if refused:
        print(f"not imported ({len(refused)}): " + ", ".join(refused[:20]) + (" …" if len(refused) > 20 else ""))
    for key, names in misses.items():
        if names:
            print(f"{key} differs ({len(names)}): " + ", ".join(names[:8]) + (" …" if len(names) > 8 else ""))


if __name__ == "__main__":
    main()
