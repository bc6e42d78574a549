#!/usr/bin/env python3
"""Documentation test: every document section a JSON input cites by name exists.

Machine files, scenarios, benchmark data and reference files cite where a value's reasoning is written as
`path/FILE.md, 'Section title'` inside a string (a parameter's "source" or "fit", a claim's "note"). Such a citation
holds when FILE.md exists (relative to the repository root) and contains the quoted title (a heading such as
"### Per-path costs (fitted)" contains 'Per-path costs'; a bold term in a list counts too). Searched: every .json file
under models/, scenarios/, benchmarks/ and validation/.

Usage: check_json_doc_refs.py ROOT   (exit 1 and one line per stale citation: file: `path`, 'title': reason)"""
import glob, json, os, re, sys

CITE = re.compile(r"([A-Za-z0-9_./-]+\.md), '([^']+)'")


def strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from strings(v)


def main(root):
    stale, texts = 0, {}
    for top in ("models", "scenarios", "benchmarks", "validation"):
        for f in sorted(glob.glob(os.path.join(root, top, "**", "*.json"), recursive=True)):
            try:
                with open(f, encoding="utf-8") as fh:
                    doc = json.load(fh)
            except (OSError, ValueError):
                continue  # the input tests report unreadable files
            rel = os.path.relpath(f, root)
            seen = set()
            for s in strings(doc):
                for path, title in CITE.findall(s):
                    if (path, title) in seen:
                        continue
                    seen.add((path, title))
                    full = os.path.join(root, path)
                    if path not in texts:
                        texts[path] = open(full, encoding="utf-8").read() if os.path.isfile(full) else None
                    if texts[path] is None:
                        print(f"{rel}: `{path}`, '{title}': the document does not exist")
                        stale += 1
                    elif title not in texts[path]:
                        print(f"{rel}: `{path}`, '{title}': the document has no such section or term")
                        stale += 1
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
