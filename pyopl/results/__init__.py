"""A solved model's values and their views: :class:`~pyopl.results.result.Result`, numbers in
full, pandas tables, HTML for notebooks, the text report."""
