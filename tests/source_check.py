"""How a check of the source tree reports (tests/arch/check_*.py, tests/docs/check_*.py import it).

report(problems, ok, bad=None): prints each problem on a line of its own, then a summary line (`bad` when there are
problems, `ok` when there are none; None prints no summary) and returns the exit status: 1 when there are problems."""


def report(problems, ok, bad=None):
    for p in problems:
        print(p)
    summary = bad if problems else ok
    if summary is not None:
        print(summary)
    return 1 if problems else 0
