#!/usr/bin/env python3
"""Documentation test: every repository path named in a Markdown document of the project exists: every tracked .md
file (README.md in any folder, validation/notes.md, ...) but CHANGELOG.md, which keeps history, results/, which is
generated, and models/hardware-sources.md and engine/simgrid-3.32-notes.md, verbatim copies of references from outside
the project.

What counts as a path (the rule; anything else in the text is prose and not checked):
  * a candidate is the text of one `code span` or the target of one markdown link [text](target), with a trailing
    ':LINE', '#anchor', '()' or sentence punctuation removed;
  * it is made of path characters only (letters, digits, '_', '-', '.', '+', '/', and '{a,b}' alternatives, which are
    expanded and checked one by one) and contains a '/';
  * and it looks like a repository path: it ends with '/', or its last part has a file extension (world.cpp,
    titan.json), or its first part is a top-level folder of the repository (models/host) or an entry of the document's
    own folder (linkx/linkx in protocols/ofi/README.md).
Not checked: URLs, absolute and home paths (/tmp/x, ~/x), paths outside the repository (a '../' path is resolved
against the document's folder and not checked when it leaves the repository; ../shared/ is the papers' reference
folder beside the repository, named from the root by convention), globs and
placeholders ('*', '?', '<nic>', '$VAR', 'NAME' in capitals, '...'), paths under results/ or a build folder (build/,
build-asan/: generated; their names are outputs, not sources), and other projects' sources quoted as references
(Open MPI's ompi/, opal/, orte/ trees, SimGrid's src/ tree, and C sources .c/.h/.cc, which this C++ project does
not have).
A candidate exists when it names a tracked file or folder relative to the repository root, to the document's folder or
to one of that folder's parents, or, in a table row whose first cell is a folder (| `platform/` | ...), relative to that
folder; a name without extension may also be a stem (x -> x.hpp / x.cpp / x.json / x.md / x.py / x.sh). Documents that define their own output names (example --out folders) write them with a placeholder or
under results/.

Usage: check_readme_paths.py ROOT   (exit 1 and one line per missing path: file:line: `path`)"""
import os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: source_check.py
from source_check import report  # noqa: E402

SPAN = re.compile(r'`([^`\n]+)`|\]\(([^)\s]+)\)')
PATHCHARS = re.compile(r'^[A-Za-z0-9_.+/{},-]+$')
STEM_EXTS = ("", ".hpp", ".cpp", ".json", ".md", ".py", ".sh")
SKIP_PREFIXES = ("results/", "./results/", "build", "./build", "ompi/", "opal/", "orte/", "src/")
FOREIGN_EXTS = (".c", ".h", ".cc")


def tracked(root):
    """Every tracked file and every folder above one, relative to root ('a/b.cpp', 'a/', 'a')."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True).stdout
        files = [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = [os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")
                 for d, _, fs in os.walk(root) if "/.git" not in d for f in fs]
    names = set(files)
    for f in files:
        parts = f.split("/")
        for i in range(1, len(parts)):
            names.add("/".join(parts[:i]))
    return names


# Verbatim copies of documents from outside the project: their paths are other projects' (libfabric's man/...).
COPIES = ("models/hardware-sources.md", "engine/simgrid-3.32-notes.md")


def documents(names):
    """Every tracked Markdown file but CHANGELOG.md (history: it names what was), results/ (generated) and the
    verbatim copies of outside documents (COPIES)."""
    return sorted(n for n in names if n.endswith(".md") and n != "CHANGELOG.md" and not n.startswith("results/")
                  and n not in COPIES)


def expand(path):
    m = re.search(r"\{([^{}]*)\}", path)
    if not m:
        return [path]
    return [q for alt in m.group(1).split(",") for q in expand(path[:m.start()] + alt + path[m.end():])]


def clean(text):
    text = text.strip()
    text = re.sub(r"(#[\w-]*|:\d+(-\d+)?|\(\))$", "", text)
    return text.rstrip(".,;:")


def is_candidate(path, top_level, here):
    if "/" not in path or not PATHCHARS.match(path) or "..." in path or path.startswith(SKIP_PREFIXES):
        return False
    if path.endswith(FOREIGN_EXTS):
        return False
    if re.search(r"(^|/)[A-Z][A-Z0-9_]+(/|$)", path):     # a placeholder such as NAME/ or FILE
        return False
    first, last = path.split("/")[0], path.rstrip("/").split("/")[-1]
    return path.endswith("/") or "." in last.strip(".") or first in top_level or first in here


def bases_of(doc_dir, line, names, path):
    """The folders a path on this line may be relative to: the document's folder, its parents, a table row's folder."""
    bases = [doc_dir]
    while bases[-1] and not path.startswith("../"):
        bases.append(os.path.dirname(bases[-1]))
    row = re.match(r"\|\s*`([^`]+)/`\s*\|", line)
    if row and row.group(1) in names:
        bases.append(row.group(1))
    return bases


def exists(path, bases, names):
    """None when the path leaves the repository (not checked), else whether it names a tracked file or folder."""
    found, inside = False, False
    for base in bases:
        full = os.path.normpath(os.path.join(base, path.rstrip("/"))).replace(os.sep, "/")
        if full.startswith("../"):
            continue
        inside = True
        found = found or any(full + ext in names for ext in STEM_EXTS)
    return found if inside else None


def check(root):
    names = tracked(root)
    top_level = {n for n in names if "/" not in n}
    bad = []
    for doc in documents(names):
        doc_dir = os.path.dirname(doc)
        here = {n[len(doc_dir) + 1:].split("/")[0] for n in names if doc_dir and n.startswith(doc_dir + "/")}
        with open(os.path.join(root, doc), encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                for m in SPAN.finditer(line):
                    raw = clean(m.group(1) or m.group(2))
                    if "://" in raw or raw.startswith(("/", "~", "mailto:", "../shared/")):
                        continue
                    for path in expand(raw):
                        bases = bases_of(doc_dir, line, names, path)
                        if is_candidate(path, top_level, here) and exists(path, bases, names) is False:
                            bad.append(f"{doc}:{n}: `{path}` names no file or folder of the repository")
    return bad


if __name__ == "__main__":
    problems = check(sys.argv[1] if len(sys.argv) > 1 else ".")
    sys.exit(report(problems, "documents: every path names a file or folder", f"{len(problems)} stale path(s)"))
