"""Diagnostics: the one :class:`Diagnostic` record with its spans and fix-its (``diagnostic.py``),
the registry of codes (``registry.py``, filled by the tables of ``codes/``), the reporter that collects
them, and the text, JSON and documentation renderers.

May import: nothing of pyopl but the leaves (``limits.py``, ``lazy_names.py``, ``sparse_order.py``); every other stage
imports it.
"""
