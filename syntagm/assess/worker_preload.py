"""Imported once by the compile workers' forkserver (see :mod:`syntagm.assess.sandbox`): loads pyopl and
the solver and builds the parsers, so each forked worker starts warm. Nothing else imports it."""
try:  # a broken compiler is reported by the worker itself, per request
    import pyopl

    pyopl.check("int warm_up = ...;\n", "warm_up = 1;\n")
    from pyopl.syntax.parser import prepare

    prepare()  # every lexer state's regular expression too (a parse compiles only those it reaches)
    import highspy  # noqa: F401
except Exception:  # pragma: no cover
    pass
