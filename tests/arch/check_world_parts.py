#!/usr/bin/env python3
"""Architecture test: models and protocol components take the parts of the platform they use (Simulator, Contexts,
CpuTimeline, Fabric, NicServices, ...), not the whole World. A file under models/ or protocols/ (sources, tests and
READMEs) that includes platform/world.hpp or names `World` is a violation, unless it is listed in EXCEPTIONS below
with a one-line reason. The list can only shrink: an exception whose file no longer names World (or no longer exists)
is a violation too, so whoever frees a file removes it from the list.

Usage: check_world_parts.py ROOT   (exit 1 and one line per violation)"""
import os, re, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: source_check.py
from source_check import report  # noqa: E402

FOLDERS = ["models", "protocols"]
SUFFIXES = (".hpp", ".cpp", ".h", ".cc", ".md")
WORLD = re.compile(r"\bWorld\b|platform/world\.hpp")

# path -> why it still names World (one line each). Empty: every model and component takes the parts it uses (the
# factories receive platform/platform_parts.hpp's PlatformParts). An entry added here needs a reason, and goes as soon
# as its file stops naming World.
EXCEPTIONS = {}


def violations(root):
    out, seen = [], set()
    for top in FOLDERS:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith(SUFFIXES):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
                with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
                    hit = next(((n, line.strip()) for n, line in enumerate(fh, 1) if WORLD.search(line)), None)
                if hit is None:
                    continue
                seen.add(rel)
                if rel not in EXCEPTIONS:
                    out.append(f"{rel}:{hit[0]}: names World or includes platform/world.hpp: take the parts it uses "
                               f"(Simulator, Contexts, CpuTimeline, Fabric, ...) instead: {hit[1]}")
    for rel in sorted(set(EXCEPTIONS) - seen):
        out.append(f"{rel}: listed as an exception but no longer names World: remove it from EXCEPTIONS "
                   f"(tests/arch/check_world_parts.py)")
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__.splitlines()[-1], file=sys.stderr)
        return 2
    return report(violations(sys.argv[1]),
                  f"no file under {', '.join(FOLDERS)} names World outside the {len(EXCEPTIONS)} listed exceptions")


if __name__ == "__main__":
    sys.exit(main())
