#!/usr/bin/env python3
"""Architecture test: models and protocol components take the parts of the platform they use (Simulator, Contexts,
CpuTimeline, Fabric, NicServices, ...), not the whole World. A file under models/ or protocols/ (sources, tests and
READMEs) that includes platform/world.hpp or names `World` is a violation, unless it is listed in EXCEPTIONS below
with a one-line reason. The list can only shrink: an exception whose file no longer names World (or no longer exists)
is a violation too, so whoever frees a file removes it from the list.

Usage: check_world_parts.py ROOT   (exit 1 and one line per violation)"""
import os, re, sys

FOLDERS = ["models", "protocols"]
SUFFIXES = (".hpp", ".cpp", ".h", ".cc", ".md")
WORLD = re.compile(r"\bWorld\b|platform/world\.hpp")

FACTORY = "factory: the component registry hands it the World (protocols/register.hpp) to build the component"
TAKES = "takes the World: not yet given the parts it uses"
DOC = "describes a component that still takes the World"
TEST = "builds its component on a World (the component takes one)"

# path -> why it still names World (one line each). Remove an entry when its file stops naming World.
EXCEPTIONS = {
    "protocols/README.md": DOC,
    "protocols/btl/base/v11_component.hpp": FACTORY,
    "protocols/btl/portals/btl_portals_component.cpp": FACTORY,
    "protocols/btl/self/btl_self_component.cpp": FACTORY,
    "protocols/btl/ugni/btl_ugni_component.cpp": FACTORY,
    "protocols/btl/vader/btl_vader_component.cpp": FACTORY,
    "protocols/loggp/loggp_component.cpp": FACTORY,
    "protocols/mtl/ofi/mtl_ofi_component.cpp": FACTORY,
    "protocols/mtl/portals/mtl_portals_component.cpp": FACTORY,
    "protocols/native/mpich_cxi_component.cpp": FACTORY,
    "protocols/native/mpich_gni_component.cpp": FACTORY,
    "protocols/native/mpich_portals_component.cpp": FACTORY,
    "protocols/native/qsnet/qsnet_components.cpp": FACTORY,
    "protocols/pml/cm/pml_cm_component.cpp": FACTORY,
    "protocols/pml/ob1/pml_ob1_component.cpp": FACTORY,
    "protocols/pml/ob1/tests/test_convert.cpp": TEST,
    "protocols/pml/teg/pml_teg_component.cpp": FACTORY,
    "protocols/pml/teg/teg_stack.cpp": TAKES,
    "protocols/pml/teg/teg_stack.hpp": TAKES,
    "protocols/ptl/README.md": DOC,
    "protocols/ptl/elan4/ptl_elan4.cpp": TAKES,
    "protocols/ptl/elan4/ptl_elan4.hpp": TAKES,
    "protocols/ptl/elan4/tests/test_ptl_elan4.cpp": TEST,
    "protocols/register.hpp": FACTORY,
    "protocols/tests/test_register.cpp": TEST,
}


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
    v = violations(sys.argv[1])
    for line in v:
        print(line)
    if not v:
        print(f"no file under {', '.join(FOLDERS)} names World outside the {len(EXCEPTIONS)} listed exceptions")
    return 1 if v else 0


if __name__ == "__main__":
    sys.exit(main())
