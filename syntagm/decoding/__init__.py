"""Grammar-constrained decoding: a GBNF grammar of the reply contract, and where to send it.

:mod:`.charsets` and :mod:`.regex_gbnf` turn a terminal's regular expression into GBNF over the
JSON-escaped form of the text; :mod:`.lark_gbnf` turns a Lark grammar (pyopl's ``opl.lark`` and
``dat.lark``, read through Lark's own compiled rules) into GBNF rules; :mod:`.contract` assembles
the grammar of the ``{"model", "data"}`` reply; :mod:`.endpoints` says which server takes it and
under which request field. Import the submodules themselves (this package imports nothing, so
that reading the CLI flags does not load Lark).
"""
