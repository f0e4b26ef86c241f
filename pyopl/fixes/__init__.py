"""Fix-its: applying a diagnostic's edits to text and files (``check --fix``), choosing the safe ones."""
