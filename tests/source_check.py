"""How a check of the source tree reports (tests/arch/check_*.py, tests/docs/check_*.py import it).

report(problems, ok, bad=None): prints each problem on a line of its own, then a summary line (`bad` when there are
problems, `ok` when there are none; None prints no summary) and returns the exit status: 1 when there are problems.
blank(text): a C++ source with its comments and string/char literals emptied, line breaks kept (what the checks that
match braces read).
sources(root, folders): (path relative to root, text) of every C++ source under those folders, tests excluded
(a tests/ folder below a top folder, and the top folders tests/ and bench/), in a fixed order."""
import os
import re


def report(problems, ok, bad=None):
    for p in problems:
        print(p)
    summary = bad if problems else ok
    if summary is not None:
        print(summary)
    return 1 if problems else 0


RAW_STRING = re.compile(r'R"([^(\s]*)\(')


def blank(text):
    """The text with comments and string/char literals emptied; line breaks kept so that line numbers hold."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
            continue
        raw = RAW_STRING.match(text, i)
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            j = text.find(close, raw.end())
            j = n if j < 0 else j + len(close)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
            continue
        c = text[i]
        if c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):  # 1'000'000 digit separators
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


CXX_SUFFIXES = (".hpp", ".cpp", ".h", ".cc")


def is_test(rel):
    parts = rel.split(os.sep)
    return parts[0] in ("tests", "bench") or "tests" in parts[1:-1]


def sources(root, folders):
    """(rel, text) of each C++ source under root/<folder> for folder in folders, tests excluded, in a fixed order."""
    for top in folders:
        for dirpath, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for f in sorted(files):
                if not f.endswith(CXX_SUFFIXES):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), root)
                if is_test(rel):
                    continue
                with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
                    yield rel, fh.read()
