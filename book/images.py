#!/usr/bin/env python3
"""Draws the pictures of the book's chapter "The statistics explained" (book/src/statistics.md)
as SVG files in book/src/images/, from synthetic data with a fixed seed.

    python3 book/images.py

Only the Python standard library is used. The data are made up to show each method's idea,
not measured; the statistics drawn (means, autocorrelations, intervals, the fit) are computed
here from those data with the textbook formulas, not by pilot.

- session.svg     a session's estimate and interval narrowing round by round, until the
                  interval is inside the ±1% target band and the session stops.
- warmup.svg      one round's unit readings: a slow start, the change point, the stable phase
                  kept, and a short slow end cut off.
- subsession.svg  an autocorrelated (AR(1)) series, and the means of blocks of q readings for
                  q = 1, 4 and the least q whose block means have |lag-1 autocorrelation|
                  <= 0.1 (Pilot's rule): the autocorrelation falls, the interval widens.
- run-to-run.svg  six runs' estimates with their within-run intervals, scattered more widely
                  than those intervals, and the band where the next run lands (a prediction
                  interval of one more run from their spread).
- wps.svg         readings-only rounds: (work, duration) points and the fitted line
                  t = α + w / v.
- verdicts.svg    five comparisons' changes with their intervals against the ±1% noise band,
                  and the verdict each gets.
"""

import html
import math
import os
import random

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src", "images")

W, H = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 28, 44
BLUE = "#2f6db5"
ORANGE = "#e08a1e"
GREY = "#8a8a8a"
GREEN = "#2e8b57"
RED = "#c0392b"
FONT = 'font-family="sans-serif" font-size="12"'


def mean(xs):
    return sum(xs) / len(xs)


def sd(xs):
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def lag1(xs):
    m = mean(xs)
    num = sum((a - m) * (b - m) for a, b in zip(xs, xs[1:]))
    den = sum((x - m) ** 2 for x in xs)
    return num / den


def half_width(xs):
    # 1.96 rather than Student's t: the pictures need the shape, not the last decimal.
    return 1.96 * sd(xs) / math.sqrt(len(xs))


class Plot:
    """One chart: data coordinates mapped into the plot area, SVG elements collected."""

    def __init__(self, title, xlim, ylim, xlabel, ylabel):
        self.xlim, self.ylim = xlim, ylim
        self.items = []
        self.text(W / 2, 18, title, anchor="middle", weight="bold")
        self.text(W / 2, H - 8, xlabel, anchor="middle")
        self.items.append(
            f'<text {FONT} transform="translate(16,{(TOP + H - BOTTOM) / 2}) rotate(-90)" '
            f'text-anchor="middle">{ylabel}</text>'
        )
        self.items.append(
            f'<rect x="{LEFT}" y="{TOP}" width="{W - LEFT - RIGHT}" '
            f'height="{H - TOP - BOTTOM}" fill="none" stroke="#444"/>'
        )

    def x(self, v):
        a, b = self.xlim
        return LEFT + (v - a) / (b - a) * (W - LEFT - RIGHT)

    def y(self, v):
        a, b = self.ylim
        return H - BOTTOM - (v - a) / (b - a) * (H - TOP - BOTTOM)

    def text(self, x, y, s, anchor="start", color="#222", weight="normal"):
        self.items.append(
            f'<text {FONT} x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" '
            f'fill="{color}" font-weight="{weight}">{html.escape(s, quote=False)}</text>'
        )

    def label(self, x, y, s, **kw):
        self.text(self.x(x), self.y(y), s, **kw)

    def ticks(self, xs, ys, xfmt=str, yfmt=str):
        for v in xs:
            self.text(self.x(v), H - BOTTOM + 16, xfmt(v), anchor="middle", color="#555")
        for v in ys:
            self.text(LEFT - 6, self.y(v) + 4, yfmt(v), anchor="end", color="#555")

    def band(self, x0, x1, y0, y1, color, opacity=0.15):
        self.items.append(
            f'<rect x="{self.x(x0):.1f}" y="{self.y(y1):.1f}" '
            f'width="{self.x(x1) - self.x(x0):.1f}" height="{self.y(y0) - self.y(y1):.1f}" '
            f'fill="{color}" fill-opacity="{opacity}"/>'
        )

    def line(self, x0, y0, x1, y1, color="#222", width=1.5, dash=None):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(
            f'<line x1="{self.x(x0):.1f}" y1="{self.y(y0):.1f}" x2="{self.x(x1):.1f}" '
            f'y2="{self.y(y1):.1f}" stroke="{color}" stroke-width="{width}"{d}/>'
        )

    def polyline(self, pts, color, width=1.0):
        p = " ".join(f"{self.x(a):.1f},{self.y(b):.1f}" for a, b in pts)
        self.items.append(
            f'<polyline points="{p}" fill="none" stroke="{color}" stroke-width="{width}"/>'
        )

    def dot(self, x, y, color, r=2.0):
        self.items.append(
            f'<circle cx="{self.x(x):.1f}" cy="{self.y(y):.1f}" r="{r}" fill="{color}"/>'
        )

    def interval(self, x, lo, hi, mid, color, horizontal=False):
        """A vertical interval at x (or a horizontal one at height x) with its estimate."""
        if horizontal:
            self.line(lo, x, hi, x, color, 2)
            for e in (lo, hi):
                self.items.append(
                    f'<line x1="{self.x(e):.1f}" y1="{self.y(x) - 5:.1f}" x2="{self.x(e):.1f}" '
                    f'y2="{self.y(x) + 5:.1f}" stroke="{color}" stroke-width="2"/>'
                )
            self.dot(mid, x, color, 3.5)
        else:
            self.line(x, lo, x, hi, color, 2)
            for e in (lo, hi):
                self.items.append(
                    f'<line x1="{self.x(x) - 5:.1f}" y1="{self.y(e):.1f}" x2="{self.x(x) + 5:.1f}" '
                    f'y2="{self.y(e):.1f}" stroke="{color}" stroke-width="2"/>'
                )
            self.dot(x, mid, color, 3.5)

    def save(self, name, alt):
        svg = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
            f'width="{W}" height="{H}" role="img">\n<title>{html.escape(alt)}</title>\n'
            f'<rect width="{W}" height="{H}" fill="white"/>\n'
            + "\n".join(self.items)
            + "\n</svg>\n"
        )
        with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
            f.write(svg)


def session(rng):
    # A bench of true cost 100 ns, 4% spread per round: the interval's half-width (relative
    # to the estimate) after each round, until it is within the 1% target (at least 10 rounds).
    rounds, hws = [], []
    for k in range(1, 80):
        rounds.append(100 * (1 + rng.gauss(0, 0.04)))
        if k >= 3:
            hw = 100 * half_width(rounds) / mean(rounds)
            hws.append((k, hw))
            if k >= 10 and hw <= 1.0:
                break
    last = hws[-1][0]
    p = Plot("A session: rounds until the interval meets the target",
             (0, last + 6), (0, 6), "rounds", "half-width of the interval (%)")
    p.ticks(range(0, last + 6, 10), [0, 1, 2, 3, 4, 5, 6], yfmt=lambda v: f"±{v}%")
    p.band(0, last + 6, 0, 1, GREEN, 0.18)
    p.label(2, 0.4, "target: ±1%", color=GREEN)
    p.polyline(hws, BLUE, 2)
    for k, hw in hws:
        p.dot(k, hw, BLUE, 2.5)
    p.line(last, 0, last, 6, GREY, 1, "4 3")
    p.label(last - 0.5, 5.5, f"round {last}: stop", anchor="end", color="#555")
    p.save("session.svg", "A session's interval narrowing round by round until it meets the target")


def warmup(rng):
    xs = []
    for i in range(400):
        if i < 60:
            base = 180 - 60 * i / 60  # cold caches: slow, then faster
        elif i >= 380:
            base = 135  # a slow end
        else:
            base = 100
        xs.append(base + rng.gauss(0, 4) + (40 if rng.random() < 0.01 else 0))
    p = Plot("One round's readings: warm-up cut at the change point",
             (0, 400), (60, 200), "reading (in the order taken)", "time per unit (ns)")
    p.ticks(range(0, 401, 100), [60, 100, 140, 180])
    p.band(0, 60, 60, 200, ORANGE, 0.18)
    p.band(380, 400, 60, 200, ORANGE, 0.18)
    p.polyline([(i, min(x, 199)) for i, x in enumerate(xs)], GREY, 0.8)
    stable = xs[60:380]
    m, h = mean(stable), half_width(stable)
    p.line(60, m, 380, m, BLUE, 2)
    p.line(60, 60, 60, 200, ORANGE, 1.5, "5 3")
    p.line(380, 60, 380, 200, ORANGE, 1.5, "5 3")
    p.label(4, 190, "warm-up: cut", color=ORANGE)
    p.label(64, 72, "change point", color=ORANGE)
    p.label(200, 170, "stable phase: kept", anchor="middle", color=BLUE)
    p.label(200, 155, f"mean {m:.1f} ns (all readings: {mean(xs):.1f} ns)", anchor="middle",
            color=BLUE)
    p.label(396, 190, "cool-down", anchor="end", color=ORANGE)
    p.save("warmup.svg", "A round's readings with its warm-up cut at a change point")


def subsession(rng):
    # AR(1) readings, φ = 0.8: each reading remembers most of the last one's deviation.
    phi, xs, e = 0.8, [], 0.0
    for _ in range(800):
        e = phi * e + rng.gauss(0, 3)
        xs.append(100 + e)
    p = Plot("Subsession analysis: merging readings until they stop correlating",
             (0, 800), (80, 135), "reading", "time per unit (ns)")
    p.ticks(range(0, 801, 200), [80, 90, 100, 110, 120])
    p.polyline(list(enumerate(xs)), "#bbbbbb", 0.6)

    def blocks(q):
        return [mean(xs[i:i + q]) for i in range(0, len(xs) - q + 1, q)]

    # Pilot's rule: the least q whose block means have |lag-1 autocorrelation| <= 0.1.
    q_star = next(q for q in range(1, 100) if abs(lag1(blocks(q))) <= 0.1)
    colours = {1: GREY, 4: ORANGE, q_star: BLUE}
    for q, c in list(colours.items())[1:]:
        means = blocks(q)
        p.polyline([(i * q + q / 2, v) for i, v in enumerate(means)], c, 1.2)
    y = 131
    for q, c in colours.items():
        means = blocks(q)
        r, h = lag1(means), half_width(means)
        p.label(20, y, f"q = {q:>2}: {len(means)} samples, lag-1 autocorrelation {r:+.2f}, "
                f"interval ±{h:.2f} ns", color=c)
        y -= 4.5
    p.save("subsession.svg", "An autocorrelated series and its block means")


def run_to_run(rng):
    # Six runs of one build: each run's own spread is small (+-0.3%), the machine's speed moves
    # by 2% between runs. The band where the next run lands: a prediction interval of one more
    # run, centred on the six runs' level, t(0.975, 5) * s * sqrt(1 + 1/6) wide.
    levels = [100 * (1 + rng.gauss(0, 0.02)) for _ in range(6)]
    own = 0.3
    level = mean(levels)
    h = 2.571 * sd(levels) * math.sqrt(1 + 1 / 6)
    p = Plot("Run-to-run variation: what one run's interval cannot see",
             (0, 7), (92, 108), "run", "time per unit (ns)")
    p.ticks(range(1, 7), [92, 96, 100, 104, 108])
    p.band(0, 7, level - h, level + h, BLUE, 0.12)
    for i, lvl in enumerate(levels, start=1):
        p.interval(i, lvl - own, lvl + own, lvl, GREY)
    p.label(0.3, 106.5, "grey: each run's own interval (± this run), too narrow to hold the next run",
            color="#555")
    p.label(0.3, 105, "blue: where the next run lands (run to run), from the runs' spread", color=BLUE)
    p.save("run-to-run.svg", "Runs' own intervals, and the band where the next run's estimate lands")


def wps(rng):
    # Rounds of work w (units) take α + w / v seconds, plus noise; α = 0.3 ms, v = 2 units/µs.
    alpha_ms, per_unit_ms = 0.3, 0.0005
    pts = []
    for _ in range(24):
        w = rng.uniform(200, 8000)
        t = alpha_ms + per_unit_ms * w + rng.gauss(0, 0.08)
        pts.append((w, t))
    n = len(pts)
    mx, my = mean([w for w, _ in pts]), mean([t for _, t in pts])
    sxx = sum((w - mx) ** 2 for w, _ in pts)
    slope = sum((w - mx) * (t - my) for w, t in pts) / sxx
    icept = my - slope * mx
    p = Plot("Readings-only benches: the WPS fit t = α + w / v",
             (0, 8400), (0, 4.8), "work amount w (units per round)", "round duration t (ms)")
    p.ticks(range(0, 8001, 2000), [0, 1, 2, 3, 4])
    for w, t in pts:
        p.dot(w, t, GREY, 3)
    p.line(0, icept, 8400, icept + slope * 8400, BLUE, 2)
    p.dot(0, icept, BLUE, 4)
    p.label(150, 4.3, f"intercept α = {icept:.2f} ms: the fixed cost of a round", color=BLUE)
    p.label(150, 3.9, f"slope 1/v = {slope * 1e6:.0f} ns per unit of work ({n} rounds)",
            color=BLUE)
    p.save("wps.svg", "Rounds' durations against work amounts with the fitted line")


def verdicts(_rng):
    # (label, estimate, low, high, verdict, colour), changes in percent.
    cases = [
        ("regressed", 4.0, 2.6, 5.4, RED),
        ("improved", -3.0, -4.1, -1.9, GREEN),
        ("no change", 0.2, -0.5, 0.8, "#444"),
        ("no change: p < α, but under 1%", 0.6, 0.3, 0.9, "#444"),
        ("undecided", 1.0, -1.2, 3.2, ORANGE),
    ]
    p = Plot("Verdicts: each change's interval against the noise threshold",
             (-6, 9), (0, len(cases) + 1), "change (%)", "")
    p.ticks(range(-6, 10, 2), [], xfmt=lambda v: f"{v:+d}%" if v else "0")
    p.band(-1, 1, 0, len(cases) + 1, GREY, 0.15)
    p.label(0, len(cases) + 0.6, "±1% noise", anchor="middle", color="#555")
    p.line(0, 0, 0, len(cases) + 1, GREY, 1, "4 3")
    for i, (name, est, lo, hi, c) in enumerate(cases):
        yv = len(cases) - i
        p.interval(yv, lo, hi, est, c, horizontal=True)
        p.label(hi + 0.3, yv - 0.1, name, color=c)
    p.save("verdicts.svg", "Comparisons' intervals against the noise band, and their verdicts")


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(29)
    for draw in (session, warmup, subsession, run_to_run, wps, verdicts):
        draw(rng)


if __name__ == "__main__":
    main()
