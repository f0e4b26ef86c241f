"""Gantt charts of CP schedules: ``pyopl solve model.mod --gantt plan.png|.svg|.html`` and
:meth:`pyopl.results.result.Result.gantt`, as IBM's Studio draws interval variables.

One row per resource: each ``noOverlap`` group (named after its ``dvar sequence``, or after its
constraint label), then each interval that no group holds on a row of its own; a bar per present
interval, labelled by its name (absent optional intervals are left out). Below, each cumulative
function the model bounds (``f <= cap``) as a step profile over time, with its bound dashed.

matplotlib is the ``plot`` extra (``pip install "pyopl[plot]"``); it is imported only here, when
a chart is asked for, and only its object API is used (no pyplot, no GUI backend).
"""
from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from typing import Any

INSTALL = 'pip install "pyopl[plot]"'


class GanttUnavailable(Exception):
    """No chart can be drawn: ``message`` says why (no matplotlib, no interval variables, no solution)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass
class Schedule:
    """What a chart shows, from the compiled model: ``rows`` as ``(label, [(name, key, label)])`` per
    resource, and ``profiles`` as ``(label, events, lo, hi)`` per cumulative function, each event
    ``(kind, (name, key, label) or a time, height)`` with kind ``pulse``, ``stepAtStart``,
    ``stepAtEnd`` or ``step``."""

    rows: list = field(default_factory=list)
    profiles: list = field(default_factory=list)


def schedule_of(ir: Any) -> Schedule | None:
    """The :class:`Schedule` of a compiled CP model (``ir.intervals``, its ``noOverlap`` and ``cumul``
    constraints); None without interval variables."""
    ivs = list(getattr(ir, "intervals", None) or [])
    if not ivs:
        return None

    def ref(i: int) -> tuple:
        iv = ivs[i]
        return iv.name, iv.key, iv.label()

    sched, grouped, seen = Schedule(), set(), set()
    for k, c in enumerate(getattr(ir, "cp_constraints", ())):
        if c.kind == "noOverlap":
            members = tuple(c.data.get("intervals", ()))
            if not members or members in seen:
                continue
            seen.add(members)
            label = c.data.get("seq") or (c.label + "".join("[%s]" % _show(x) for x in c.key) if c.label else
                                          "noOverlap (line %d)" % c.span.line if c.span is not None else "noOverlap")
            sched.rows.append((label, [ref(i) for i in members]))
            grouped.update(members)
    for i, iv in enumerate(ivs):
        if i not in grouped:
            sched.rows.append((iv.label(), [ref(i)]))
    named: set = set()
    for c in getattr(ir, "cp_constraints", ()):
        if c.kind != "cumul" or c.data.get("window"):
            continue
        label = c.data.get("name") or (c.label + "".join("[%s]" % _show(x) for x in c.key) if c.label else
                                       "cumul (line %d)" % c.span.line)
        if label in named:  # `f <= cap` and `f >= lo`: one profile, both bounds
            for p in sched.profiles:
                if p[0] == label:
                    p[2] = p[2] if c.data.get("lo") is None else c.data["lo"]
                    p[3] = p[3] if c.data.get("hi") is None else c.data["hi"]
            continue
        named.add(label)
        events = [(kind, (ref(x) if kind != "step" else x), h) for kind, x, h in c.data.get("events", ())]
        sched.profiles.append([label, events, c.data.get("lo"), c.data.get("hi")])
    return sched


def _show(x: Any) -> str:
    """An index value of a constraint label as an OPL literal (``"a\\"b"``, as interval labels write it)."""
    from ..ir import format_key_part

    return format_key_part(x, ", ")


def _value(result: Any, name: str, key: tuple) -> Any:
    v = result.variables.get(name)
    if v is None:
        return None
    return v if not key else dict.get(v, key)


def bars(result: Any, schedule: Schedule) -> list[tuple[int, str, int, int]]:
    """``(row, label, start, end)`` of each present interval, rows numbered from 0 at the top."""
    out = []
    for r, (_label, members) in enumerate(schedule.rows):
        for name, key, label in members:
            v = _value(result, name, key)
            if v is not None and v.present:
                out.append((r, label, v.start, v.end))
    return out


def profile(result: Any, events: list) -> list[tuple[int, int]]:
    """The level of a cumulative function over time as ``(time, level from then on)`` changes, from
    0 (absent intervals contribute nothing)."""
    delta: dict[int, int] = {}

    def add(t: int, h: int) -> None:
        delta[t] = delta.get(t, 0) + h

    for kind, x, h in events:
        if kind == "step":
            add(int(x), h)
            continue
        v = _value(result, x[0], x[1])
        if v is None or not v.present:
            continue
        if kind == "pulse":
            add(v.start, h)
            add(v.end, -h)
        elif kind == "stepAtStart":
            add(v.start, h)
        elif kind == "stepAtEnd":
            add(v.end, h)
    level, out = 0, [(0, 0)] if delta and min(delta) > 0 else []
    for t in sorted(delta):
        level += delta[t]
        out.append((t, level))
    return out


def figure(result: Any, schedule: Schedule | None, title: str | None = None) -> Any:
    """A matplotlib ``Figure`` of ``result``'s schedule: the Gantt axes first (``fig.axes[0]``, one
    horizontal bar per present interval, row 0 at the top), then one axes per profile. Raises
    :class:`GanttUnavailable` without matplotlib, interval variables or a solution."""
    if schedule is None or not schedule.rows:
        raise GanttUnavailable("the model has no interval variables: a Gantt chart shows a `using CP;` schedule")
    if not result.has_solution:
        raise GanttUnavailable("the run has no solution to draw (status %s)" % result.status)
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise GanttUnavailable("a Gantt chart needs matplotlib, which is not installed: %s" % INSTALL) from None
    n_rows, n_prof = len(schedule.rows), len(schedule.profiles)
    heights = [max(1.5, 0.45 * n_rows + 0.8)] + [1.6] * n_prof
    fig = Figure(figsize=(10, sum(heights) + 0.6), layout="constrained")
    axes = fig.subplots(1 + n_prof, 1, sharex=True, squeeze=False, gridspec_kw={"height_ratios": heights})[:, 0]
    ax = axes[0]
    colours = _palette()
    families: dict[str, int] = {}
    horizon = 1
    for r, label, start, end in bars(result, schedule):
        family = label.split("]", 1)[0]  # the name and its first index: a job of a job shop
        colour = colours[families.setdefault(family, len(families)) % len(colours)]
        ax.barh(r, end - start, left=start, height=0.6, color=colour, edgecolor="black", linewidth=0.5,
                label=_literal(label))
        ax.text(start + (end - start) / 2, r, _literal(label), ha="center", va="center", fontsize=7, clip_on=True)
        horizon = max(horizon, end)
    ax.set_yticks(range(n_rows), [_literal(label) for label, _m in schedule.rows])
    ax.set_ylim(n_rows - 0.5, -0.5)  # the first resource at the top
    ax.set_title(_literal(title or "schedule (objective %s)" % _num(result.objective)))
    ax.grid(axis="x", alpha=0.3)
    for axp, (label, events, lo, hi) in zip(axes[1:], schedule.profiles):
        pts = profile(result, events)
        if pts:
            horizon = max(horizon, pts[-1][0])
            xs = [t for t, _ in pts] + [horizon]
            ys = [lv for _, lv in pts] + [pts[-1][1]]
            axp.step(xs, ys, where="post", color="tab:blue", label=_literal(label))
        for bound in (lo, hi):
            if bound is not None:
                axp.axhline(bound, color="tab:red", linestyle="--", linewidth=1)
        axp.set_ylabel(_literal(label))
        axp.grid(alpha=0.3)
    axes[-1].set_xlabel("time")
    axes[-1].set_xlim(0, horizon)
    return fig


def _literal(text: str) -> str:
    """``text`` drawn as written: matplotlib reads a pair of ``$`` as mathtext (a task named
    ``a$\\frac{$b`` failed the whole chart with a parse error); each ``$`` escaped is drawn as ``$``."""
    return str(text).replace("$", "\\$")


def _palette() -> list[str]:
    return ["#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5", "#d9d9d9",
            "#bc80bd"]


def _num(v: Any) -> str:
    if v is None:
        return "none"
    return str(int(v)) if float(v).is_integer() else "%g" % v


def save(fig: Any, path: str) -> None:
    """Write ``fig`` to ``path`` by its extension: ``.png``, ``.svg`` or ``.html`` (the SVG in a page
    of its own), through a temporary file renamed over the target (pyopl.files.safe_write).
    Raises :class:`GanttUnavailable` for another extension."""
    from ..files.safe_write import write_bytes_safely, write_text_safely

    ext = os.path.splitext(path)[1].lower()
    if ext not in (".png", ".svg", ".html", ".htm"):
        raise GanttUnavailable("a Gantt chart is written as .png, .svg or .html, not `%s`" % (ext or path))
    buf = io.BytesIO()
    fig.savefig(buf, format="png" if ext == ".png" else "svg", dpi=120)
    if ext in (".png", ".svg"):
        write_bytes_safely(path, buf.getvalue())
    else:
        svg = buf.getvalue().decode("utf-8")
        svg = svg[svg.index("<svg"):]
        write_text_safely(path, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>pyopl schedule</title>"
                                "</head>\n<body>\n%s\n</body></html>\n" % svg)
