"""The Lark grammars of pyopl (model and data), shipped as package data."""
