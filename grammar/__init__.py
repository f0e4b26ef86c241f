"""The Lark grammars of pyopl (``opl.lark`` for models, ``dat.lark`` for data, ``script.lark`` for
IBM ILOG Script) and the language reference ``PyOPL.md``.

This folder sits at the top of the repository, where people and tools look for the grammar; the
build configuration (``setup.py``) installs it as the package ``pyopl.grammar``, in editable
installs and in the wheel alike, so code reads it with ``importlib.resources.files("pyopl.grammar")``.
"""
