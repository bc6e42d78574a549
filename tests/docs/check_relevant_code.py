#!/usr/bin/env python3
"""Documentation test: every source path a scenario names in its "relevant_code" list exists.

A scenario (any .json file under scenarios/) may list the source files of the model it exercises in
"relevant_code"; an entry is a path, optionally followed by a note in parentheses or after a space, and several
paths may be joined with ", " (commas inside parentheses belong to the note). The path is the entry's text up to the
first space, '(' or ':'; it exists when it names a file or folder relative to the repository root.

Usage: check_relevant_code.py ROOT   (exit 1 and one line per missing path: file: relevant_code[i]: `path`)"""
import glob, json, os, re, sys


def entries(text):
    """Split an entry at ", " outside parentheses; each part's leading path."""
    parts, depth, cur = [], 0, ""
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0 and text[i + 1:i + 2] == " ":
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    parts.append(cur)
    return [re.split(r"[ (:]", p.strip(), maxsplit=1)[0] for p in parts if p.strip()]


def main(root):
    missing = 0
    for f in sorted(glob.glob(os.path.join(root, "scenarios", "**", "*.json"), recursive=True)):
        try:
            with open(f, encoding="utf-8") as fh:
                doc = json.load(fh)
        except (OSError, ValueError):
            continue  # the scenario tests report unreadable files
        rc = doc.get("relevant_code") if isinstance(doc, dict) else None
        if not isinstance(rc, list):
            continue
        rel = os.path.relpath(f, root)
        for i, e in enumerate(rc):
            if not isinstance(e, str):
                continue
            for p in entries(e):
                if p and not os.path.exists(os.path.join(root, p.rstrip("/"))):
                    print(f"{rel}: relevant_code[{i}]: `{p}` does not exist")
                    missing += 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
