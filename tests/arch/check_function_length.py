#!/usr/bin/env python3
"""Architecture test: no function outside tests is longer than LIMIT lines (120), from the line of its header to its
closing brace.

How a function is found: comments and string literals are blanked (source_check.blank: line breaks kept), then the
braces are matched. A brace opens a function body when it is not already inside one and the text since the last ';',
'{' or '}' ends like a function header: a closing parenthesis, optionally followed by const, noexcept, override, final,
mutable, a reference qualifier or a trailing return type. Lambdas and blocks inside a function count towards that
function. Test sources (any path with a tests/ component, the top-level tests/ and bench/) are not checked.

Usage: check_function_length.py ROOT [LIMIT]   (exit 1 and one line per over-long function)"""
import os, re, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: source_check.py
from source_check import blank, report, sources  # noqa: E402

LAYERS = ["core", "engine", "platform", "models", "mpi", "protocols", "collectives", "benchmarks", "runner",
          "validation", "tools"]
HEADER_END = re.compile(r"\)\s*(?:const|noexcept(?:\([^)]*\))?|override|final|mutable|&&|&|->\s*[\w:<>,\s*&]+|\s)*$")


def functions(text):
    """Yields (first line, last line, header) of every function body that is not inside another one."""
    s = blank(text)
    stack, last = [], 0  # stack: (is_function, index of the brace, header)
    for i, c in enumerate(s):
        if c == "{":
            header = s[last:i]
            inside = any(f for f, _, _ in stack)
            is_function = not inside and bool(HEADER_END.search(header)) and not header.rstrip().endswith("=")
            stack.append((is_function, i, header))
            last = i + 1
        elif c == "}":
            if stack:
                is_function, at, header = stack.pop()
                if is_function:
                    lead = len(header) - len(header.lstrip())
                    first = s.count("\n", 0, at - len(header) + lead) + 1
                    yield first, s.count("\n", 0, i) + 1, " ".join(header.split())
            last = i + 1
        elif c == ";":
            last = i + 1


def check(root, limit):
    bad = []
    for rel, text in sources(root, LAYERS):
        for first, end, header in functions(text):
            if end - first + 1 > limit:
                bad.append(f"{rel}:{first}: function of {end - first + 1} lines (limit {limit}): {header[:100]}")
    return bad


if __name__ == "__main__":
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 120
    problems = check(root, limit)
    sys.exit(report(problems, f"functions: none over {limit} lines", f"{len(problems)} function(s) over {limit} lines"))
