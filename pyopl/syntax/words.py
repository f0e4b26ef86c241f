"""Words of the language: reserved words and how to name tokens in messages."""
from __future__ import annotations

#: Reserved words of OPL that cannot name a declaration (OPL manual, "Reserved words"; the Quick
#: Reference's summary table: `initial` and `template` are reserved for future use, `struct` is deprecated).
KEYWORDS = frozenset("""
all and assert boolean constraint constraints CP CPLEX diff div dexpr dvar else execute false float forall
from if in include infinity int inter key main maximize maxint minimize mod not or ordered piecewise prepare
range reversed setof sorted stepwise string subject symdiff to true tuple union using with dvar invoke
initial template struct
""".split())

_TERMINAL_WORDS = {
    "SEMICOLON": "`;`", "COMMA": "`,`", "COLON": "`:`", "LPAR": "`(`", "RPAR": "`)`", "LSQB": "`[`",
    "RSQB": "`]`", "LBRACE": "`{`", "RBRACE": "`}`", "EQUAL": "`=`", "NAME": "a name", "NUMBER": "a number",
    "STRING": "a string", "CMP": "a comparison (`==`, `<=`, `>=`, `!=`, `<`, `>`)", "ADDOP": "`+` or `-`",
    "MULOP": "`*` or `/`", "MINUS": "`-`", "PLUS": "`+`", "BANG": "`!`", "ELLIPSIS": "`...`",
    "LESSTHAN": "`<`", "MORETHAN": "`>`", "DOT": "`.`", "__ANON_0": "`..`", "QMARK": "`?`",
    "SENSE": "`minimize` or `maximize`", "AGG_SUM": "`sum`/`min`/`max`/`union`", "AGG_LOGIC": "`and`/`or` over an index", "AGG_PROD": "`prod`/`inter`", "$END": "the end of the file",
    "INT": "`int`", "INTP": "`int+`", "FLOAT": "`float`", "FLOATP": "`float+`", "STRING_T": "`string`",
    "BOOLEAN": "`boolean`", "SCRIPT_BODY": "a script block `{ ... }`", "SETOP": "a set operator",
    "VBAR": "`|`", "CIRCUMFLEX": "`^`", "REST": "text",
}


def describe_terminal(name: str) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    if name.isupper() and name.isalpha():
        return "`%s`" % name.lower()
    return "`%s`" % name


#: Terminals that only exist for the grammar's own bookkeeping: never offered as "expected".
_HIDDEN = {"CONNECTION_WORD", "REST", "SCRIPT_BODY", "PARAM"}


def describe_expected(names) -> str:
    """``{"SEMICOLON", "COMMA"}`` -> "`,` or `;`" (sorted, at most 8 shown)."""
    words = sorted({describe_terminal(n) for n in names
                    if n not in _HIDDEN and (not n.startswith("__ANON") or n in _TERMINAL_WORDS)})
    if not words:
        return "something else"
    if len(words) > 8:
        words = words[:8] + ["..."]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def short_token(tok) -> str:
    """The token as a message quotes it: a catch-all token (the data lexer's ``REST``, which runs to the
    next `;`) is cut to its first lexeme, and anything longer than 30 characters is shortened."""
    import re

    text = str(tok)
    if tok.type == "REST" or "\n" in text or len(text) > 30:
        m = re.match(r'\s*("[^"\n]*"?|[A-Za-z_]\w*|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|:=|\S)', text)
        text = m.group(1) if m else text.strip()
    return text if len(text) <= 30 else text[:27] + "..."


def token_text(tok) -> str:
    if tok.type == "$END":
        return "the end of the file"
    return "`%s`" % short_token(tok)


#: Characters that word processors and PDFs put where OPL has ASCII: each -> (OPL's spelling, its name).
TYPOGRAPHIC = {"\u2013": ("-", "an en dash"), "\u2014": ("-", "an em dash"), "\u2212": ("-", "a minus sign"),
               "\u2010": ("-", "a hyphen"), "\u2011": ("-", "a non-breaking hyphen"),
               "\u201c": ('"', "a curly quote"), "\u201d": ('"', "a curly quote"), "\u201e": ('"', "a low quote"),
               "\u00d7": ("*", "a multiplication sign"), "\u2264": ("<=", "a less-than-or-equal sign"),
               "\u2265": (">=", "a greater-than-or-equal sign"), "\u2260": ("!=", "a not-equal sign"),
               "\u00a0": (" ", "a no-break space"), "\u2009": (" ", "a thin space"), "\u202f": (" ", "a no-break space"),
               "\u2192": ("->", "an arrow"), "\u21d2": ("=>", "an implication arrow")}
