#!/usr/bin/env python3
"""Architecture test: no lambda outside tests nests more than LIMIT deep (2): a protocol's state lives in records with
named steps (protocols/base/transition_table.hpp, btl/ugni, btl/base/fabric_frag.hpp), not in closures inside closures
inside closures. A lambda in a function body has depth 1, a lambda in its body depth 2, and so on; blocks and
functions do not count.

How a lambda is found: comments and string literals are blanked (source_check.blank), then every '[' that can start a
lambda introducer is followed to its body. A '[' starts one unless what comes before it is a name, a closing bracket
or parenthesis (a subscript, an array declarator, operator[], delete[]; `return`, `co_return`, `co_yield` and `throw`
do allow one) or another '[' (an attribute [[...]]). After the matching ']' come an optional template parameter list,
an optional parameter list and then only specifiers and a trailing return type (names, '::', '<>', '&', '*', '->',
noexcept(...)) up to the '{' that opens the body; anything else (a structured binding's '=' or ':') means it was not a
lambda. The braces are then matched and each lambda body is given the number of lambda bodies around it, itself
included. Folders checked: protocols/, models/, collectives/, benchmarks/, platform/, runner/ (.cpp, .hpp, .h, .cc);
test sources (any path with a tests/ component) are not.

Usage: check_closure_depth.py ROOT [LIMIT]   (exit 1 and one line per lambda nested deeper than LIMIT)"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: source_check.py
from source_check import blank, report, sources  # noqa: E402

FOLDERS = ["protocols", "models", "collectives", "benchmarks", "platform", "runner"]
INTRODUCING_WORDS = {"return", "co_return", "co_yield", "throw"}


def _word_before(s, i):
    """The identifier that ends right before position i (after skipping blanks), or ''."""
    j = i
    while j > 0 and s[j - 1].isspace():
        j -= 1
    k = j
    while k > 0 and (s[k - 1].isalnum() or s[k - 1] == "_"):
        k -= 1
    return s[k:j], (s[j - 1] if j > 0 else "")


def _match(s, i, open_c, close_c):
    """Index of the bracket closing the one at i (same kind, nested), or -1."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == open_c:
            depth += 1
        elif s[j] == close_c:
            depth -= 1
            if depth == 0:
                return j
    return -1


def _skip_blanks(s, i):
    while i < len(s) and s[i].isspace():
        i += 1
    return i


def lambda_bodies(s):
    """Positions of the '{' opening each lambda body in blanked source s."""
    bodies = set()
    for i, c in enumerate(s):
        if c != "[":
            continue
        word, prev = _word_before(s, i)
        if word and word not in INTRODUCING_WORDS:
            continue
        if not word and prev in ("]", ")", "["):
            continue
        if i + 1 < len(s) and s[i + 1] == "[":  # [[attribute]]
            continue
        j = _match(s, i, "[", "]")
        if j < 0:
            continue
        k = _skip_blanks(s, j + 1)
        if k < len(s) and s[k] == "<":  # template parameter list
            e = _match(s, k, "<", ">")
            if e < 0:
                continue
            k = _skip_blanks(s, e + 1)
        if k < len(s) and s[k] == "(":  # parameter list
            e = _match(s, k, "(", ")")
            if e < 0:
                continue
            k = _skip_blanks(s, e + 1)
        # specifiers and a trailing return type, up to the body
        while k < len(s) and s[k] != "{":
            if s[k] == "(":  # noexcept(...), a return type's decltype(...)
                e = _match(s, k, "(", ")")
                if e < 0:
                    break
                k = e + 1
            elif s.startswith("->", k) or s.startswith("::", k):
                k += 2
            elif s[k].isalnum() or s[k] in "_<>,&* \t\n":
                k += 1
            else:
                break
        if k < len(s) and s[k] == "{":
            bodies.add(k)
    return bodies


def deep_lambdas(text, limit):
    """Yields (line, depth) of every lambda body nested deeper than `limit` in C++ source `text`."""
    s = blank(text)
    bodies = lambda_bodies(s)
    stack = []  # per open brace: whether it opens a lambda body
    for i, c in enumerate(s):
        if c == "{":
            stack.append(i in bodies)
            depth = sum(stack)
            if stack[-1] and depth > limit:
                yield s.count("\n", 0, i) + 1, depth
        elif c == "}" and stack:
            stack.pop()


def check(root, limit):
    bad = []
    for rel, text in sources(root, FOLDERS):
        for line, depth in deep_lambdas(text, limit):
            bad.append(f"{rel}:{line}: lambda nested {depth} deep (limit {limit})")
    return sorted(bad)


if __name__ == "__main__":
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    problems = check(root, limit)
    sys.exit(report(problems, f"lambdas: none nested more than {limit} deep",
                    f"{len(problems)} lambda(s) nested more than {limit} deep"))
