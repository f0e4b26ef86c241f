"""Grammar-constrained decoding: a GBNF grammar of the reply contract, and where to send it.

:mod:`.charsets` and :mod:`.regex_gbnf` turn a terminal's regular expression into GBNF over the
JSON-escaped form of the text; :mod:`.lark_gbnf` turns a Lark grammar (pyopl's ``opl.lark`` and
``dat.lark``, read through Lark's own compiled rules) into GBNF rules; :mod:`.contract` assembles
the grammar of the ``{"model", "data"}`` reply; :mod:`.endpoints` says which server takes it and
under which request field.
"""
from .contract import contract_grammar, MODEL_CONTRACT_TEMPLATES
from .endpoints import DecodingPlan, plan_for, request_fields

__all__ = ["contract_grammar", "MODEL_CONTRACT_TEMPLATES", "DecodingPlan", "plan_for", "request_fields"]
