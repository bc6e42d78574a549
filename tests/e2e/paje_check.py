#!/usr/bin/env python3
"""Checks of a Paje trace written by `ompisim run --trace X.paje`, as its viewers read it.

  paje_check.py declared TRACE         every state and link value has a colour declared (PajeDefineEntityValue)
  paje_check.py dump TRACE DUMP        pj_dump's CSV (pj_dump -u) holds the trace's containers, states and links
  paje_check.py svg TRACE SVG          ViTE's SVG export (vite TRACE -e SVG) draws each state in its declared colour
  paje_check.py vite-palette TRACE DIR writes DIR/ViTE/vite.conf: ViTE settings whose link palette ("link_types")
                                       gives each link value the trace declares its declared colour
  paje_check.py svg-links TRACE SVG    ViTE's SVG export with those settings draws each link in its declared colour

Values are looked up as the viewers do: ViTE finds a state's value by its alias only (else it draws the state black);
pajeng keys a value by its alias (a state or link naming it otherwise gets a new value without a colour). ViTE 1.2
takes no link colour from a trace: it colours a link by its value's name in the link palette ("link_types") of its
own settings, else white. Exit 0 when every check holds, 1 with a FAIL line for each that does not.
"""
import collections
import csv
import re
import sys


def fields(line):
    """A Paje line's fields: words, and quoted strings as one field without their quotes."""
    return [a if a else b for a, b in re.findall(r'"([^"]*)"|(\S+)', line)]


def is_colour(text):
    parts = text.split()
    try:
        return len(parts) == 3 and all(0 <= float(p) <= 1 for p in parts)
    except ValueError:
        return False


class Trace:
    def __init__(self, path):
        self.values = {}  # (type, alias) -> (name, colour)
        self.type_names = {}  # type alias -> name
        self.link_types = set()
        self.containers = {}  # alias -> name
        self.states = collections.Counter()  # (type, value as written)
        self.links = collections.Counter()  # (type, value as written), PajeStartLink only
        for line in open(path):
            if line.startswith("%") or not line.strip():
                continue
            f = fields(line)
            code = f[0]
            if code in ("0", "1", "2"):
                self.type_names[f[1]] = f[3]
            elif code == "4":
                self.type_names[f[1]] = f[5]
                self.link_types.add(f[1])
            elif code == "3":
                self.values[(f[2], f[1])] = (f[3], f[4] if len(f) > 4 else "")
            elif code == "6":
                self.containers[f[2]] = f[5]
            elif code == "12":
                self.states[(f[2], f[4])] += 1
            elif code == "15":
                self.links[(f[2], f[4])] += 1


def declared(trace):
    t = Trace(trace)
    bad = []
    for (typ, v), n in sorted(t.states.items()):
        if (typ, v) not in t.values:
            bad.append("state value %s of type %s (%d spans) is not the alias of an entity value: ViTE draws it black" % (v, typ, n))
        elif not is_colour(t.values[(typ, v)][1]):
            bad.append("state value %s of type %s has no colour: %r" % (v, typ, t.values[(typ, v)][1]))
    for (typ, v), n in sorted(t.links.items()):
        if (typ, v) not in t.values:
            bad.append("link value %s of type %s (%d links) is not the alias of an entity value: no colour in pajeng" % (v, typ, n))
            continue
        if not is_colour(t.values[(typ, v)][1]):
            bad.append("link value %s of type %s has no colour: %r" % (v, typ, t.values[(typ, v)][1]))
    used = {typ for typ, _ in t.links}
    colours = {t.values[(typ, v)][1] for typ, v in t.links if (typ, v) in t.values}
    if len(colours) < len(used):
        bad.append("%d link types share %d colours" % (len(used), len(colours)))
    if not t.states or not t.links:
        bad.append("the trace has %d state spans and %d links: nothing to show" % (sum(t.states.values()), sum(t.links.values())))
    for b in bad:
        print("FAIL " + b)
    if bad:
        return 1
    print("ok   %s: %d state spans of %d values and %d links (%s), each value with a colour of its own"
          % (trace, sum(t.states.values()), len(t.states), sum(t.links.values()),
             ", ".join("%d %s" % (n, t.values[k][0]) for k, n in sorted(t.links.items()))))
    return 0


def dump(trace, dump_csv):
    t = Trace(trace)
    rows = [[x.strip() for x in r] for r in csv.reader(open(dump_csv)) if r]
    bad = []
    containers = {r[6] for r in rows if r[0] == "Container"}
    if set(t.containers.values()) - containers:
        bad.append("containers missing from pj_dump: %s" % sorted(set(t.containers.values()) - containers))
    states = collections.Counter((r[2], r[7]) for r in rows if r[0] == "State")
    want = collections.Counter({(t.type_names[typ], t.values[(typ, v)][0]): n for (typ, v), n in t.states.items()
                                if (typ, v) in t.values})
    if states != want:
        bad.append("pj_dump's states differ from the trace's: %s" % sorted(set(states.items()) ^ set(want.items()))[:4])
    links = collections.Counter((r[2], r[6]) for r in rows if r[0] == "Link")
    want = collections.Counter({(t.type_names[typ], t.values[(typ, v)][0]): n for (typ, v), n in t.links.items()
                                if (typ, v) in t.values})
    if links != want:
        bad.append("pj_dump's links differ from the trace's: %s" % sorted(set(links.items()) ^ set(want.items())))
    for b in bad:
        print("FAIL " + b)
    if not bad:
        print("ok   pj_dump: %d containers, %d state spans, links %s" % (len(containers), sum(states.values()), dict(links)))
    return 1 if bad else 0


def svg(trace, svg_file):
    """ViTE 1.2 writes a colour component c in [0, 1] as int(c * 256) (white is rgb(256,256,256))."""
    t = Trace(trace)
    text = open(svg_file).read()
    def rgb(colour):
        return tuple(int(float(c) * 256) for c in colour.split())
    state_colours = {rgb(t.values[k][1]): t.values[k][0] for k in t.states if k in t.values}
    fills = collections.Counter(tuple(int(x) for x in m) for m in re.findall(r'<rect [^>]*fill="rgb\((\d+),\s*(\d+),\s*(\d+)\)"', text))
    near = lambda a, b: all(abs(x - y) <= 1 for x, y in zip(a, b))
    drawn = {c: n for c, n in fills.items() if any(near(c, s) for s in state_colours)}
    # the containers' boxes (ViTE's own blue) and the background are the only other rectangles
    other = {c: n for c, n in fills.items() if c not in drawn and c not in ((0, 0, 153), (128, 128, 150))}
    bad = []
    missing = sorted(name for c, name in state_colours.items() if not any(near(c, d) for d in drawn))
    if missing:
        bad.append("state values never drawn in their colour: %s" % missing)
    if other:
        bad.append("rectangles in colours no state value declares (black is a state without its value): %s" % other)
    arrows = collections.Counter(re.findall(r'<polygon [^>]*fill="(rgb\([^"]*\))"', text))
    if t.links and not arrows:
        bad.append("no arrow drawn for %d links" % sum(t.links.values()))
    for b in bad:
        print("FAIL " + b)
    if not bad:
        print("ok   ViTE's SVG: %d state rectangles in the %d colours the trace declares; %d arrowheads, in %s"
              % (sum(drawn.values()), len(state_colours), sum(arrows.values()), dict(arrows)))
    return 1 if bad else 0


def vite_palette(trace, folder):
    """ViTE's settings (QSettings, INI) with a palette "ompisim" of link colours, current for "link_types": a map from
    a value's name to a QColor, stored as Qt stores a QVariant in INI, QDataStream version Qt_4_0 (no null flag)."""
    import os
    import struct
    t = Trace(trace)
    def qstring(text):
        b = text.encode("utf-16-be")
        return struct.pack(">I", len(b)) + b
    def qcolor(colour):
        r, g, b = (round(float(c) * 255) * 257 for c in colour.split())
        return struct.pack(">I", 67) + struct.pack(">bHHHHH", 1, 0xFFFF, r, g, b, 0)  # QVariant QColor: spec Rgb
    links = {name: colour for (typ, _), (name, colour) in t.values.items() if typ in t.link_types}
    data = struct.pack(">II", 8, len(links))  # QVariant QVariantMap, its size
    for name in sorted(links, reverse=True):
        data += qstring(name) + qcolor(links[name])
    os.makedirs(os.path.join(folder, "ViTE"), exist_ok=True)
    with open(os.path.join(folder, "ViTE", "vite.conf"), "w") as f:
        f.write('[link_types]\ncurrent_name=ompisim\nompisim\\map="@Variant(%s)"\n' % "".join("\\x%02x" % c for c in data))
    print("ok   ViTE settings with the link colours %s" % links)
    return 0


def svg_links(trace, svg_file):
    t = Trace(trace)
    text = open(svg_file).read()
    heads = collections.Counter(tuple(int(x) for x in m) for m in re.findall(r'<polygon [^>]*fill="rgb\((\d+),\s*(\d+),\s*(\d+)\)"', text))
    near = lambda a, b: all(abs(x - y) <= 2 for x, y in zip(a, b))
    bad = []
    for (typ, v), n in sorted(t.links.items()):
        if (typ, v) not in t.values:
            continue  # reported by `declared`
        want = tuple(int(float(c) * 256) for c in t.values[(typ, v)][1].split())
        got = sum(k for c, k in heads.items() if near(c, want))
        if got != n:
            bad.append("%d %s links, %d arrowheads in its colour rgb%s (arrowheads: %s)" % (n, v, got, want, dict(heads)))
    for b in bad:
        print("FAIL " + b)
    if not bad:
        print("ok   ViTE with a link palette: every arrow in its kind's colour %s" % dict(heads))
    return 1 if bad else 0


if __name__ == "__main__":
    modes = {"declared": (declared, 1), "dump": (dump, 2), "svg": (svg, 2), "vite-palette": (vite_palette, 2),
             "svg-links": (svg_links, 2)}
    if len(sys.argv) < 3 or sys.argv[1] not in modes or len(sys.argv) != 2 + modes[sys.argv[1]][1]:
        print(__doc__)
        sys.exit(2)
    sys.exit(modes[sys.argv[1]][0](*sys.argv[2:]))
