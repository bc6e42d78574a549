#!/usr/bin/env python3
"""Where gnuplot drew a plot's key in its SVG, checked against what the plot draws (shared by e2e tests).

key_problems(svg_text) returns a list of problems (empty when none) of the key's box, the opaque white polygon gnuplot
draws under a boxed key ('set key ... box opaque'), found from the SVG itself, not from the script that asked for it:
  - it is inside the canvas (nothing clipped);
  - inside the frame, no vertex of a drawn curve, interval bar or line and no marker centre lies in it, and no segment
    of them crosses it (the data, drawn before the key, are groups gnuplot_plot_N);
  - below the frame, its top is under the x axis's label and its bottom over the caption's first line (labels at the
    canvas's left edge).
key_box(svg_text) returns (x0, y0, x1, y1) of the box or None, and frame(svg_text) the frame's (x0, y0, x1, y1).
"""
import re

NUM = r"(-?[0-9.]+)"


def key_box(svg):
    m = re.search(r"<polygon fill = '#FFFFFF' points = '([^']*)'", svg)
    if m is None:
        return None
    pts = [tuple(map(float, p.split(","))) for p in m.group(1).split()]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def frame(svg):
    """The border: the first closed path of five points drawn in black (gnuplot's 'set border')."""
    for d in re.findall(r"<path stroke='black'\s+d='M([^']*)Z", svg):
        pts = [(float(x), float(y)) for x, y in re.findall(NUM + "," + NUM, d)]
        if len(pts) == 5:
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            return min(xs), min(ys), max(xs), max(ys)
    return None


def canvas(svg):
    m = re.search(r'<svg[^>]*viewBox="0 0 ([0-9.]+) ([0-9.]+)"', svg, re.S)
    return float(m.group(1)), float(m.group(2))


def drawn(svg, upto):
    """Polylines and marker centres of the plots drawn before offset `upto` (the key's box)."""
    body = svg[:upto]
    start = body.find('<g id="gnuplot_plot_1"')
    body = body[start:] if start >= 0 else ""
    lines, marks = [], []
    for d in re.findall(r"\sd='([^']*)'", body):
        for piece in re.split(r"M", d)[1:]:
            pts = [(float(x), float(y)) for x, y in re.findall(NUM + "," + NUM, piece)]
            if pts:
                lines.append(pts)
    for x, y in re.findall(r"translate\(" + NUM + "," + NUM + r"\)", body):
        marks.append((float(x), float(y)))
    return lines, marks


def crosses(a, b, x0, y0, x1, y1):
    """Whether the segment a-b enters the open rectangle (Liang-Barsky)."""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q <= 0:
                return False
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 >= t1:
            return False
    return True


def key_problems(svg):
    box = key_box(svg)
    if box is None:
        return ["no opaque key box"]
    x0, y0, x1, y1 = box
    w, h = canvas(svg)
    fx0, fy0, fx1, fy1 = frame(svg)
    out = []
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        out.append(f"key box {box} outside the canvas {w}x{h}")
    if y0 < fy1:  # inside the frame
        if not (x0 >= fx0 and x1 <= fx1 and y0 >= fy0 and y1 <= fy1):
            out.append(f"key box {box} neither inside the frame {fx0, fy0, fx1, fy1} nor below it")
        upto = svg.find("<polygon fill = '#FFFFFF'")
        lines, marks = drawn(svg, upto)
        inner = (x0 + 1, y0 + 1, x1 - 1, y1 - 1)
        hit = [m for m in marks if inner[0] < m[0] < inner[2] and inner[1] < m[1] < inner[3]]
        if hit:
            out.append(f"{len(hit)} markers under the key box {box}, e.g. {hit[:3]}")
        segs = [(l[i], l[min(i + 1, len(l) - 1)]) for l in lines for i in range(len(l))]
        cut = [s for s in segs if crosses(s[0], s[1], *inner)]
        if cut:
            out.append(f"{len(cut)} line segments under the key box {box}, e.g. {cut[:2]}")
    else:  # below the frame: under the x label, over the caption
        labels = [float(y) for y in re.findall(r'<g transform="translate\(10\.80,' + NUM + r'\)"', svg)]
        label_y = [float(m.group(2)) for m in re.finditer(r'<g transform="translate\(' + NUM + "," + NUM +
                                                            r'\)"[^>]*font-size="11.00"\s+text-anchor="middle">',
                                                            svg) if float(m.group(2)) > fy1]
        if label_y and y0 < max(label_y) + 2:
            out.append(f"key box top {y0} over the x axis's label at {max(label_y)}")
        if labels and y1 > min(labels) - 8:
            out.append(f"key box bottom {y1} under the caption's first line at {min(labels)}")
    return out
