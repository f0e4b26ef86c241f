"""The knowledge base of syntagm: literate exemplars (``<name>/description.md``, ``model.mod``,
``data.dat``, ``meta.json``) and ``patterns.md``.

This folder sits at the top of the repository; the build configuration (``setup.py``) installs it
as the package ``syntagm.knowledge_base`` (editable installs and the wheel alike), found with
``importlib.resources.files("syntagm.knowledge_base")``.
"""
