"""``gemtable simulate --report FILE.html``: one self-contained page with SVG charts.

No script, no external resource (fonts, styles, images): the file opens anywhere, offline,
and can be mailed.  Charts: win rate with 95 % intervals; mean score with its intervals;
each bot's score distribution; for a threshold sweep, win rate against the threshold;
and the head-to-head matrix.
"""

from __future__ import annotations

import datetime
import html
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gemtable.lab.tournament import Results

WIDTH = 720
LEFT = 170
RIGHT = 30
PALETTE = ("#2f6db5", "#d9822b", "#3a9a5b", "#c23b3b", "#7d5bb5", "#8c6d46", "#c2569b", "#5f6b73")


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _nice_max(value: float) -> float:
    if value <= 0:
        return 1.0
    magnitude = 10.0 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * magnitude:
            return float(step * magnitude)
    return float(10 * magnitude)


def _ticks(top: float, count: int = 5) -> list[float]:
    return [top * i / count for i in range(count + 1)]


def interval_chart(title: str, rows: Sequence[tuple[str, float, float, float]], percent: bool, chart_id: str) -> str:
    """Horizontal bars with 95 % whiskers: ``rows`` of (name, value, low, high)."""
    row_h = 26
    top_pad, bottom_pad = 30, 34
    height = top_pad + row_h * len(rows) + bottom_pad
    top = _nice_max(max((high for _, _, _, high in rows if math.isfinite(high)), default=1.0))
    span = WIDTH - LEFT - RIGHT

    def x(value: float) -> float:
        return LEFT + span * max(0.0, min(value, top)) / top

    def label(value: float) -> str:
        return f"{value:.1%}" if percent else f"{value:.2f}"

    def tick_label(value: float) -> str:
        return f"{value:.0%}" if percent else f"{value:g}"

    parts = [
        f'<svg id="{chart_id}" class="chart" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" '
        f'role="img" aria-label="{_e(title)}" xmlns="http://www.w3.org/2000/svg">',
        f'<text x="{LEFT}" y="18" class="title">{_e(title)}</text>',
    ]
    for tick in _ticks(top):
        tx = x(tick)
        parts.append(
            f'<line x1="{tx:.1f}" y1="{top_pad - 4}" x2="{tx:.1f}" y2="{height - bottom_pad + 4}" class="grid"/>'
        )
        parts.append(f'<text x="{tx:.1f}" y="{height - bottom_pad + 20}" class="tick">{tick_label(tick)}</text>')
    for i, (name, value, low, high) in enumerate(rows):
        y = top_pad + i * row_h
        colour = PALETTE[i % len(PALETTE)]
        parts.append(f'<text x="{LEFT - 8}" y="{y + row_h / 2 + 4:.1f}" class="name">{_e(name)}</text>')
        parts.append(
            f'<rect x="{LEFT}" y="{y + 5}" width="{x(value) - LEFT:.1f}" height="{row_h - 10}" '
            f'fill="{colour}" opacity="0.35" class="bar"/>'
        )
        lo, hi = x(low if math.isfinite(low) else 0.0), x(high if math.isfinite(high) else top)
        mid = y + row_h / 2
        parts.append(
            f'<line x1="{lo:.1f}" y1="{mid:.1f}" x2="{hi:.1f}" y2="{mid:.1f}" stroke="{colour}" '
            'stroke-width="2" class="ci"/>'
        )
        for end in (lo, hi):
            parts.append(
                f'<line x1="{end:.1f}" y1="{mid - 6:.1f}" x2="{end:.1f}" y2="{mid + 6:.1f}" '
                f'stroke="{colour}" stroke-width="2"/>'
            )
        parts.append(f'<circle cx="{x(value):.1f}" cy="{mid:.1f}" r="4" fill="{colour}"/>')
        parts.append(
            f'<text x="{min(hi + 6, WIDTH - 4):.1f}" y="{mid + 4:.1f}" class="value">{label(value)}'
            f"<title>{_e(name)}: {label(value)} (95 %: {label(low)} – {label(high)})</title></text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def distribution_chart(names: Sequence[str], results: Results) -> str:
    """Each bot's scores as a small histogram (share of its seats), on one shared axis."""
    every = [score for name in names for score in results.tallies[name].scores]
    if not every:
        return ""
    low, high = min(every), max(every)
    bins = max(1, min(40, high - low + 1))
    width_bin = max(1, math.ceil((high - low + 1) / bins))
    bins = math.ceil((high - low + 1) / width_bin)
    row_h = 64
    top_pad, bottom_pad = 30, 34
    height = top_pad + row_h * len(names) + bottom_pad
    span = WIDTH - LEFT - RIGHT
    bar_w = span / bins
    parts = [
        f'<svg id="distributions" class="chart" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" '
        f'height="{height}" role="img" aria-label="Score distributions" xmlns="http://www.w3.org/2000/svg">',
        f'<text x="{LEFT}" y="18" class="title">Score distributions (share of each bot\'s seats)</text>',
    ]
    for i, name in enumerate(names):
        tally = results.tallies[name]
        counts = [0] * bins
        for score, count in tally.scores.items():
            counts[(score - low) // width_bin] += count
        peak = max(counts) or 1
        base = top_pad + (i + 1) * row_h - 6
        colour = PALETTE[i % len(PALETTE)]
        parts.append(f'<text x="{LEFT - 8}" y="{base - row_h / 2 + 10:.1f}" class="name">{_e(name)}</text>')
        parts.append(f'<line x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}" class="grid"/>')
        for b, count in enumerate(counts):
            if not count:
                continue
            h = (row_h - 14) * count / peak
            share = count / tally.seats
            first = low + b * width_bin
            span_text = str(first) if width_bin == 1 else f"{first}–{first + width_bin - 1}"
            parts.append(
                f'<rect x="{LEFT + b * bar_w + 0.5:.1f}" y="{base - h:.1f}" width="{max(bar_w - 1, 0.5):.1f}" '
                f'height="{h:.1f}" fill="{colour}" class="hist"><title>{_e(name)}: score {span_text}, '
                f"{share:.1%} of seats</title></rect>"
            )
    for b in range(0, bins + 1, max(1, bins // 8)):
        tx = LEFT + b * bar_w
        parts.append(f'<text x="{tx:.1f}" y="{height - bottom_pad + 20}" class="tick">{low + b * width_bin}</text>')
    parts.append(f'<text x="{WIDTH - RIGHT}" y="{height - 4}" class="axis">score</text>')
    parts.append("</svg>")
    return "".join(parts)


def sweep_chart(summary: Any, swept: Sequence[str]) -> str:
    """Win rate (with 95 % whiskers) against the swept threshold; the other bots as dashed lines."""
    points = []
    key = ""
    for name in swept:
        match = re.fullmatch(r"(\w+)=(\d+)", name)
        figures = summary["bots"].get(name)
        if match is None or figures is None:
            continue
        key = match[1]
        low, high = figures["win_rate_ci95"]
        points.append((int(match[2]), figures["win_rate"], low, high))
    if len(points) < 2:
        return ""
    others = [(name, f["win_rate"]) for name, f in summary["bots"].items() if name not in swept]
    height, top_pad, bottom_pad = 320, 30, 44
    plot_left, plot_right = 70, WIDTH - 150
    xs = [p[0] for p in points]
    x_low, x_high = min(xs), max(xs)
    y_top = _nice_max(max([p[3] for p in points] + [rate for _, rate in others]))

    def x(value: float) -> float:
        return plot_left + (plot_right - plot_left) * (value - x_low) / max(1, x_high - x_low)

    def y(value: float) -> float:
        return top_pad + (height - top_pad - bottom_pad) * (1 - value / y_top)

    parts = [
        f'<svg id="sweep" class="chart" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" '
        f'role="img" aria-label="Win rate against {_e(key)}" xmlns="http://www.w3.org/2000/svg">',
        f'<text x="{plot_left}" y="18" class="title">Win rate against {_e(key)} (95 % intervals)</text>',
    ]
    for tick in _ticks(y_top):
        ty = y(tick)
        parts.append(f'<line x1="{plot_left}" y1="{ty:.1f}" x2="{plot_right}" y2="{ty:.1f}" class="grid"/>')
        parts.append(f'<text x="{plot_left - 8}" y="{ty + 4:.1f}" class="name">{tick:.0%}</text>')
    for value in xs:
        parts.append(f'<text x="{x(value):.1f}" y="{height - bottom_pad + 18}" class="tick">{value}</text>')
    parts.append(f'<text x="{(plot_left + plot_right) / 2:.1f}" y="{height - 8}" class="tick">{_e(key)}</text>')
    for i, (name, rate) in enumerate(others):
        colour = PALETTE[(i + 1) % len(PALETTE)]
        parts.append(
            f'<line x1="{plot_left}" y1="{y(rate):.1f}" x2="{plot_right}" y2="{y(rate):.1f}" '
            f'stroke="{colour}" stroke-dasharray="5 4" stroke-width="1.5"/>'
        )
        parts.append(
            f'<text x="{plot_right + 6}" y="{y(rate) + 4:.1f}" class="legend" fill="{colour}">'
            f"{_e(name)} {rate:.1%}</text>"
        )
    line = " ".join(f"{x(v):.1f},{y(rate):.1f}" for v, rate, _, _ in points)
    parts.append(f'<polyline points="{line}" fill="none" stroke="{PALETTE[0]}" stroke-width="2"/>')
    for value, rate, low, high in points:
        cx = x(value)
        parts.append(
            f'<line x1="{cx:.1f}" y1="{y(low):.1f}" x2="{cx:.1f}" y2="{y(high):.1f}" '
            f'stroke="{PALETTE[0]}" stroke-width="2"/>'
        )
        parts.append(
            f'<circle cx="{cx:.1f}" cy="{y(rate):.1f}" r="4" fill="{PALETTE[0]}" class="point">'
            f"<title>{_e(key)}={value}: {rate:.1%} (95 %: {low:.1%} – {high:.1%})</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)


def matrix_table(summary: Any, order: Sequence[str]) -> str:
    h2h = summary["head_to_head"]
    head = "".join(f"<th>{_e(name)}</th>" for name in order)
    rows = []
    for a in order:
        cells = []
        for b in order:
            cell = h2h.get(a, {}).get(b)
            if a == b or cell is None:
                cells.append('<td class="self">—</td>' if a == b else "<td></td>")
                continue
            share = cell["share"]
            low, high = cell["ci95"]
            hue = 120 * share  # red (0 %) … green (100 %)
            cells.append(
                f'<td style="background:hsl({hue:.0f},60%,82%)" title="{_e(a)} vs {_e(b)}: '
                f'{cell["meetings"]:,} meetings, 95 %: {low:.1%} – {high:.1%}">{share:.0%}</td>'
            )
        rows.append(f"<tr><th>{_e(a)}</th>{''.join(cells)}</tr>")
    return f'<table class="matrix"><tr><th></th>{head}</tr>{"".join(rows)}</table>'


STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f6f5f1;color:#222}
main{max-width:800px;margin:0 auto;padding:24px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 8px}
.meta{color:#555}.verdict{padding:10px 14px;border-radius:8px;margin:14px 0}
.yes{background:#e3f3e6}.no{background:#fbe9d9}
section{background:#fff;border-radius:10px;padding:12px 16px;margin:14px 0;box-shadow:0 1px 3px #0002;overflow-x:auto}
section:focus-visible{outline:3px solid #b06d00;outline-offset:2px}
.chart text{font:12px system-ui,sans-serif;fill:#333}.chart .title{font-weight:600;font-size:14px}
.chart .name{text-anchor:end}.chart .tick{text-anchor:middle;fill:#666}.chart .axis{text-anchor:end;fill:#666}
.chart .grid{stroke:#ddd;stroke-width:1}.chart .value{font-weight:600}
table{border-collapse:collapse;font-size:14px}td,th{padding:4px 8px;border:1px solid #e4e4e4;text-align:right}
th{background:#fafafa}td.self{color:#aaa;text-align:center}
.figures td:first-child,.figures th:first-child{text-align:left}
"""


def render(title: str, summary: Any, results: Results, swept: Sequence[str]) -> str:
    ranked = summary["ranking"]
    order = [row["bot"] for row in ranked]
    bots = summary["bots"]
    win_rows = [(name, bots[name]["win_rate"], *bots[name]["win_rate_ci95"]) for name in order]
    score_rows = [(name, bots[name]["mean_score"], *bots[name]["mean_score_ci95"]) for name in order]
    stopped = summary.get("stopped")
    if stopped is not None:
        verdict, good = stopped["reason"], stopped["significant"]
    elif summary["significant"]:
        verdict, good = "The ranking is significant: every neighbour's 95 % interval is apart.", True
    else:
        verdict, good = (
            "The ranking is NOT significant: some neighbours' 95 % intervals overlap "
            "(≈ in the table), so their order may be chance.",
            False,
        )
    low, high = summary["players"]
    figure_rows = []
    for place, row in enumerate(ranked, start=1):
        f = bots[row["bot"]]
        mark = "" if row["separated_from_next"] is not False else " ≈"
        figure_rows.append(
            f"<tr><td>{place}{mark} {_e(row['bot'])}</td><td>{f['seats']:,}</td><td>{f['win_rate']:.1%}</td>"
            f"<td>{f['win_rate_ci95'][0]:.1%} – {f['win_rate_ci95'][1]:.1%}</td><td>{f['mean_score']:.2f}</td>"
            f"<td>{f['mean_score_ci95'][0]:.2f} – {f['mean_score_ci95'][1]:.2f}</td></tr>"
        )
    sweep = sweep_chart(summary, swept) if swept else ""
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    body = [
        f"<h1>{_e(title)}: a tournament</h1>",
        f'<p class="meta">{summary["games"]:,} games ({_e(summary.get("mode", "engine"))}), {low}–{high} players, '
        f"seed {summary['seed']}, {summary.get('seconds', '?')} s; made by <code>gemtable simulate</code> "
        f"on {when}.</p>",
        f'<p class="verdict {"yes" if good else "no"}" id="verdict">{_e(verdict)}</p>',
        '<section tabindex="0"><table class="figures"><tr><th>bot</th><th>seats</th><th>win rate</th>'
        "<th>95 % interval</th>"
        f"<th>mean score</th><th>95 % interval</th></tr>{''.join(figure_rows)}</table>"
        "<p class=meta>A shared win counts as a win. Win-rate intervals are Wilson's; mean-score intervals "
        "Student's t.</p></section>",
        '<h2>Win rate</h2><section tabindex="0">'
        + interval_chart("Win rate, 95 % intervals", win_rows, True, "win-rate")
        + "</section>",
        '<h2>Mean score</h2><section tabindex="0">'
        + interval_chart("Mean score, 95 % intervals", score_rows, False, "mean-score")
        + "</section>",
    ]
    if sweep:
        body.append('<h2>The sweep</h2><section tabindex="0">' + sweep + "</section>")
    body.append('<h2>Scores</h2><section tabindex="0">' + distribution_chart(order, results) + "</section>")
    if len(order) > 1:
        body.append(
            '<h2>Head to head</h2><section tabindex="0">'
            "<p class=meta>How often the row's bot outscored the column's "
            "when they met (a tie counts half).</p>" + matrix_table(summary, order) + "</section>"
        )
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width,initial-scale=1"><title>{_e(title)} — gemtable strategy lab</title>'
        f"<style>{STYLE}</style></head><body><main>{''.join(body)}</main></body></html>\n"
    )


def write_report(path: Path, title: str, summary: Any, results: Results, swept: Sequence[str]) -> None:
    path.write_text(render(title, summary, results, swept), "utf-8")
