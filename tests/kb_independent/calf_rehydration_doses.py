"""Brute force over every whole number of doses of each product (9 ** 3 combinations)."""
import itertools


def solve(d):
    products, ingredients = d["Products"], d["Ingredients"]
    best = None
    for doses in itertools.product(range(int(d["maxDoses"]) + 1), repeat=len(products)):
        ok = True
        for j, _ in enumerate(ingredients):
            total = sum(d["perDose"][i][j] * n for i, n in enumerate(doses))
            if total < d["minTotal"][j] or total > d["maxTotal"][j]:
                ok = False
                break
        if ok:
            cost = sum(d["price"][i] * n for i, n in enumerate(doses))
            best = cost if best is None or cost < best else best
    return best
