#!/usr/bin/env python3
"""A reference file's calibration_directions are the fit's own.

Usage: directions_current.py CALIBRATE_STDOUT REFERENCE_JSON PAPER MACHINE [FREE ...]

CALIBRATE_STDOUT is `ompisim calibrate --paper PAPER --machine MACHINE [--free FREE ...]`'s standard output, whose
last block is the "calibration_directions (for the reference file)" list. The reference file's entries whose source
names that fit, its free parameters included (`calibrate --paper PAPER --machine MACHINE --free F (`), are grouped by the machine they apply to (a fit on one machine
may be copied to a sibling); each group must be the fit's list: the same number of directions, in the same order, each
direction's coefficients within 0.01 of the fit's (up to the sign, which a singular vector does not fix) and its range
within 2 % of the fit's. A fit that moved (a model change, a refit) while its directions were left behind fails here,
so the prediction intervals never sample the axes of an older fit. A reference with no entry for the fit passes.
Exit 1 with one line per disagreement.
"""
import json
import sys


def fit_directions(path):
    text = open(path).read()
    mark = "calibration_directions (for the reference file):"
    if mark not in text:
        return None
    i = text.index("[", text.index(mark))
    return json.JSONDecoder().raw_decode(text[i:])[0]


def same_up_to_sign(a, b):
    if set(a) != set(b):
        return False
    for sign in (1, -1):
        if all(abs(a[k] - sign * b[k]) <= 0.01 for k in a):
            return True
    return False


def main():
    out, ref_path, paper, machine = sys.argv[1:5]
    free = sys.argv[5:]
    fit = fit_directions(out)
    ref = json.load(open(ref_path)).get("calibration_directions", [])
    tag = f"calibrate --paper {paper} --machine {machine}" + "".join(f" --free {f}" for f in free) + " ("
    groups = {}
    for e in ref:
        if tag in e.get("source", ""):
            groups.setdefault(e["machine"], []).append(e)
    if not groups:
        print(f"ok: {ref_path} has no calibration_directions from {tag[:-2]}")
        return 0
    errors = []
    if fit is None:
        errors.append(f"{out}: the fit printed no calibration_directions, the reference has {len(ref)}")
    else:
        for m, entries in sorted(groups.items()):
            if len(entries) != len(fit):
                errors.append(f"{ref_path}: {len(entries)} calibration_directions for {m}, the fit gives {len(fit)}")
                continue
            for i, (e, f) in enumerate(zip(entries, fit)):
                if not same_up_to_sign(e["direction"], f["direction"]):
                    errors.append(f"{ref_path}: {m} direction {i + 1} {e['direction']} is not the fit's "
                                  f"{f['direction']}")
                r, fr = e["range"][1], f["range"][1]
                if abs(r - fr) > 0.02 * abs(fr):
                    errors.append(f"{ref_path}: {m} direction {i + 1} range ±{r} is not the fit's ±{fr}")
    for line in errors:
        print(line)
    if not errors:
        print(f"ok: {sum(len(g) for g in groups.values())} calibration_directions equal the fit's {len(fit)}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
