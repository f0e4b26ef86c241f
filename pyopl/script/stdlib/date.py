"""``Date`` of IBM ILOG Script (ECMAScript 3, 15.9).

A Date holds a time value: milliseconds since 1970-01-01 UTC, NaN for an invalid date.  The
calendar arithmetic is the standard's (15.9.1: Day, TimeWithinDay, YearFromTime, MakeDay,
MakeTime, TimeClip), done on Python floats as the standard does on doubles.  Local time is UTC
(LocalTZA = 0, no daylight saving time): a script gets the same dates on every machine, and
``getTimezoneOffset()`` is 0.
"""
from __future__ import annotations

import math
import re
import time

from ..language.convert import to_number, to_primitive, to_string
from ..language.values import UNDEFINED, JSObject, ScriptError, is_new

MS_PER_DAY = 86400000.0
_DAYS = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _day(t):
    return math.floor(t / MS_PER_DAY)


def _days_in_year(y):
    return 365 if (y % 4 or (y % 100 == 0 and y % 400)) else 366


def _day_from_year(y):
    return 365 * (y - 1970) + math.floor((y - 1969) / 4) - math.floor((y - 1901) / 100) + math.floor((y - 1601) / 400)


def _year_from_time(t):
    y = math.floor(t / (MS_PER_DAY * 365.2425)) + 1970
    while _day_from_year(y) * MS_PER_DAY > t:
        y -= 1
    while _day_from_year(y + 1) * MS_PER_DAY <= t:
        y += 1
    return y


def _month_starts(y):
    leap = _days_in_year(y) == 366
    lengths = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
    out, acc = [], 0
    for n in lengths:
        out.append(acc)
        acc += n
    return out


def _fields(t):
    """(year, month 0-11, date 1-31, weekday 0-6, hours, minutes, seconds, ms) of a finite time value."""
    y = _year_from_time(t)
    d = _day(t) - _day_from_year(y)
    starts = _month_starts(y)
    m = max(i for i in range(12) if starts[i] <= d)
    ms_in_day = t - _day(t) * MS_PER_DAY
    return (y, m, int(d - starts[m] + 1), int((_day(t) + 4) % 7), int(ms_in_day // 3600000),
            int(ms_in_day // 60000 % 60), int(ms_in_day // 1000 % 60), int(ms_in_day % 1000))


def _finite(*xs):
    return all(not (x != x or math.isinf(x)) for x in xs)


def _integer(x):
    return float(math.trunc(x))


def make_day(year, month, date):
    """MakeDay (15.9.1.12): days since the epoch of ``date`` of ``month`` (any integer) of ``year``."""
    if not _finite(year, month, date):
        return math.nan
    y, m, dt = _integer(year), _integer(month), _integer(date)
    ym = y + math.floor(m / 12)
    mn = int(m % 12)
    if abs(ym) > 400000:
        return math.nan
    ym = int(ym)
    return _day_from_year(ym) + _month_starts(ym)[mn] + dt - 1


def make_time(h, m, s, ms):
    """MakeTime (15.9.1.11)."""
    if not _finite(h, m, s, ms):
        return math.nan
    return _integer(h) * 3600000.0 + _integer(m) * 60000.0 + _integer(s) * 1000.0 + _integer(ms)


def time_clip(t):
    """TimeClip (15.9.1.14): NaN past 8.64e15 ms from the epoch, else the integer part."""
    if not _finite(t) or abs(t) > 8.64e15:
        return math.nan
    return _integer(t) + 0.0


def _from_parts(args):
    nums = [to_number(a) for a in args[:7]]
    y = nums[0]
    if y == y and 0 <= _integer(y) <= 99:
        y = 1900 + _integer(y)
    part = lambda i, d: nums[i] if len(nums) > i else d
    day = make_day(y, part(1, 0.0), part(2, 1.0))
    return day * MS_PER_DAY + make_time(part(3, 0.0), part(4, 0.0), part(5, 0.0), part(6, 0.0))


_ISO = re.compile(r"\s*([+-]?\d{4,6})(?:-(\d\d)(?:-(\d\d))?)?(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,3}))?)?)?\s*(Z|[+-]\d\d:?\d\d)?\s*\Z")
_TEXT = re.compile(r"\s*(?:[A-Za-z]{3},?\s+)?([A-Za-z]{3})\s+(\d{1,2}),?\s+(-?\d{1,6})(?:\s+(\d\d):(\d\d)(?::(\d\d))?)?"
                   r"\s*(?:(?:GMT|UTC|Z)\s*([+-]\d{4})?)?(?:\s*\(.*\))?\s*\Z")
_TEXT2 = re.compile(r"\s*(?:[A-Za-z]{3},?\s+)?(\d{1,2})\s+([A-Za-z]{3})\s+(-?\d{1,6})(?:\s+(\d\d):(\d\d)(?::(\d\d))?)?"
                    r"\s*(?:(?:GMT|UTC|Z)\s*([+-]\d{4})?)?\s*\Z")


def parse_date(s: str) -> float:
    """``Date.parse`` (15.9.4.2): what ``toString``/``toUTCString`` write, and ISO dates; else NaN."""
    m = _ISO.match(s)
    if m:
        y, mo, d, h, mi, se, ms, z = m.groups()
        t = make_day(float(y), float(mo or 1) - 1, float(d or 1)) * MS_PER_DAY + make_time(
            float(h or 0), float(mi or 0), float(se or 0), float((ms or "0").ljust(3, "0")))
        if z and z != "Z":
            sign = -1 if z[0] == "-" else 1
            z = z[1:].replace(":", "")
            t -= sign * (int(z[:2]) * 3600000 + int(z[2:]) * 60000)
        return time_clip(t)
    m = _TEXT.match(s)
    m2 = None if m else _TEXT2.match(s)
    if m or m2:
        if m:
            mon, d, y, h, mi, se, off = m.groups()
        else:
            d, mon, y, h, mi, se, off = m2.groups()
        mon = mon[:1].upper() + mon[1:].lower()
        if mon not in _MONTHS:
            return math.nan
        t = make_day(float(y), float(_MONTHS.index(mon)), float(d)) * MS_PER_DAY + make_time(
            float(h or 0), float(mi or 0), float(se or 0), 0.0)
        if off:
            sign = -1 if off[0] == "-" else 1
            t -= sign * (int(off[1:3]) * 3600000 + int(off[3:5]) * 60000)
        return time_clip(t)
    return math.nan


def date_ctor(interp, this, args, span):
    """``new Date()``, ``new Date(ms or text)``, ``new Date(y, m[, d, h, mi, s, ms])``; ``Date()`` is a string."""
    new = is_new(interp)
    now = float(int(time.time() * 1000))
    if not new:
        return _to_string_of(now)
    if not args:
        t = now
    elif len(args) == 1:
        v = to_primitive(args[0])
        t = time_clip(parse_date(v) if type(v) is str else to_number(v))
    else:
        t = time_clip(_from_parts(args))
    interp.alloc(1, span)
    return JSObject(class_name="Date", proto=interp.protos["Date"], value=t)


def date_utc(interp, this, args, span):
    """``Date.UTC(y, m[, d, h, mi, s, ms])`` (15.9.4.3)."""
    return time_clip(_from_parts(list(args) + [0.0] * (2 - len(args)) if len(args) < 2 else args))


def date_parse(interp, this, args, span):
    return parse_date(to_string(args[0] if args else UNDEFINED))


def _this_time(this, span) -> float:
    if isinstance(this, JSObject) and this.class_name == "Date":
        return this.value
    raise ScriptError.type_error("this is a method of `Date` objects", span, "call it on `new Date(...)`")


def _to_string_of(t) -> str:
    if t != t:
        return "Invalid Date"
    y, m, d, wd, h, mi, s, _ = _fields(t)
    return "%s %s %02d %04d %02d:%02d:%02d GMT+0000" % (_DAYS[wd], _MONTHS[m], d, y, h, mi, s)


def _getter(i, name):
    def fn(interp, this, args, span):
        t = _this_time(this, span)
        if t != t:
            return math.nan
        return float(_fields(t)[i])
    fn.__name__ = name
    return fn


def _get_year(interp, this, args, span):
    t = _this_time(this, span)
    return math.nan if t != t else float(_fields(t)[0] - 1900)


def _set_time(interp, this, args, span):
    _this_time(this, span)
    this.value = time_clip(to_number(args[0] if args else UNDEFINED))
    return this.value


def _setter(first: int, count: int):
    """A ``set...`` method replacing fields ``first`` .. ``first+count-1`` of (year, month, date, h, mi, s, ms)."""
    def fn(interp, this, args, span):
        t = _this_time(this, span)
        if t != t and first != 0:
            return math.nan
        if t != t:
            t = 0.0
        y, m, d, _, h, mi, s, ms = _fields(t)
        parts = [float(y), float(m), float(d), float(h), float(mi), float(s), float(ms)]
        given = [to_number(a) for a in args[:count]] or [math.nan]
        for k, v in enumerate(given):
            parts[first + k] = v
        this.value = time_clip(make_day(*parts[:3]) * MS_PER_DAY + make_time(*parts[3:]))
        return this.value
    return fn


def date_methods() -> dict:
    """The functions of ``Date.prototype``, by name (``fn(interp, this, args, span)``)."""
    names = ("FullYear", "Month", "Date", "Day", "Hours", "Minutes", "Seconds", "Milliseconds")
    out = {}
    for i, n in enumerate(names):
        out["get" + n] = out["getUTC" + n] = _getter(i, n)
    for first, n, count in ((0, "FullYear", 3), (1, "Month", 2), (2, "Date", 1), (3, "Hours", 4),
                            (4, "Minutes", 3), (5, "Seconds", 2), (6, "Milliseconds", 1)):
        out["set" + n] = out["setUTC" + n] = _setter(first, count)
    out["getTime"] = out["valueOf"] = lambda interp, this, args, span: _this_time(this, span)
    out["getYear"] = _get_year
    out["setTime"] = _set_time
    out["getTimezoneOffset"] = lambda interp, this, args, span: (
        math.nan if _this_time(this, span) != _this_time(this, span) else 0.0)
    text = lambda interp, this, args, span: _to_string_of(_this_time(this, span))
    for n in ("toString", "toDateString", "toTimeString", "toLocaleString", "toLocaleDateString",
              "toLocaleTimeString", "toUTCString", "toGMTString"):
        out[n] = text
    return out
