#!/usr/bin/env python3
"""The check lines of the e2e tests written in python (shared): one line a check, the exit status from them all.

check(name, ok, detail) prints "ok   NAME" (unless show_ok is False) or "FAIL NAME: DETAIL" and returns ok;
svg_texts(path) gives the text of every <text> element of an SVG file; byte_label(b) a byte count as the plots write
it ("16 KiB"); exit_status() ends the script with 1 when a
check failed, 0 otherwise.
"""
import re
import sys

failed = False
show_ok = True


def check(name, ok, detail=""):
    global failed
    if show_ok or not ok:
        print(("ok   " if ok else "FAIL ") + name + ("" if ok else f": {detail}"))
    failed |= not ok
    return bool(ok)


def svg_texts(path):
    with open(path) as f:
        svg = f.read()
    return [re.sub(r"<[^>]*>", "", t).replace("&amp;", "&").strip()
            for t in re.findall(r"<text[^>]*>(?:(?!</text>).)*</text>", svg, re.S)]


def byte_label(b, unit=0):
    return f"{b:g} {['B', 'KiB', 'MiB', 'GiB'][unit]}" if b < 1024 or unit == 3 else byte_label(b / 1024, unit + 1)


def exit_status():
    sys.exit(1 if failed else 0)
