"""The staged strategy's stage verifiers on hand-made problem texts."""
from __future__ import annotations

from syntagm.strategies import verifiers as V

TEXT = ("A farm has 1,200 acres. Wheat earns $300 per acre and corn $250 per acre. "
        "At most 40% of the land may be corn. Field 7 is flooded and is not used. Maximize the profit.")


def test_numbers_with_thousands_separators_and_percentages():
    assert [(w, v, p) for w, v, p in V.numbers_in(TEXT)] == [
        ("1,200", 1200.0, False), ("300", 300.0, False), ("250", 250.0, False), ("40%", 40.0, True),
        ("7", 7.0, False)]


def test_every_number_used_or_set_aside():
    decl = "float land = ...; float profit[{\"wheat\", \"corn\"}] = ...; float cornShare = ...;"
    data = 'land = 1200; profit = [300, 250]; cornShare = 0.4;'
    assert V.check_numbers(TEXT, decl, data) == [
        'numbers in the problem text neither used as a parameter value nor set aside: 7 '
        '(give each a parameter, or list it in "set_aside" with a reason)']
    assert V.check_numbers(TEXT, decl, data, set_aside=[{"number": "7", "reason": "names a field"}]) == []
    # a reason is required
    assert V.check_numbers(TEXT, decl, data, set_aside=[{"number": "7", "reason": ""}]) != []


def test_data_values_not_in_the_text_need_a_justification():
    decl = "float land = ...; float yield = ...;"
    data = "land = 1200; yield = 2.5; // 300/250 is not 2.5\nx = 300; y = 250; z = 0.4; w = 7;"
    f = V.check_numbers(TEXT, decl, data)
    assert f == ['values in the data that do not appear in the problem text: 2.5 '
                 '(correct them, or list each in "justified" with a reason)']
    assert V.check_numbers(TEXT, decl, data, justified=[{"value": 2.5, "reason": "tonnes per acre, from the text"}]) == []


def test_objective_sense_against_the_goal_words():
    assert V.goal_sense(TEXT) == "maximize"
    assert V.goal_sense("Buy at least 3 units at the lowest cost.") == "minimize"  # "at least" is not a goal
    assert V.goal_sense("Plan the week.") is None
    assert V.check_objective(TEXT, "minimize", ["profit"]) == [
        "the problem text asks to maximize (its goal words say so), but the objective's sense is minimize"]
    assert V.check_objective(TEXT, "maximize", []) == [
        'name the quantities the objective sums in "quantities" (e.g. "profit per table × tables")']
    assert V.check_objective(TEXT, "max", ["p"]) == ['"sense" must be "minimize" or "maximize"']


def test_variables_need_meaning_domain_units():
    decl = "dvar float+ acres[Crops]; // acres sown\ndvar boolean open;"
    assert V.check_variables(decl, [{"name": "acres", "meaning": "acres sown", "domain": ">= 0", "units": "acres"}]) \
        == ['variable `open` has no entry in "meanings" (its meaning, domain and units)']
    assert V.check_variables("int n = 3;", []) == ["no decision variable is declared (`dvar ...;`)"]


def test_constraints_mapped_to_sentences_and_unmapped_sentences_reported():
    body = "// land\nctLand: sum(c in Crops) acres[c] <= land;\nforall (c in Crops: c == \"corn\") ctCorn: acres[c] <= 0.4*land;"
    assert V.constraint_labels(body) == ["ctLand", "ctCorn"]
    findings, unmapped = V.check_constraints(TEXT, body, [{"label": "ctLand", "sentence": "A farm has 1,200 acres."}])
    assert findings == ["constraint `ctCorn` is not mapped to the sentence of the problem it encodes",
                        "this sentence of the problem is not mapped to any constraint: 'At most 40% of the land may "
                        "be corn.' (encode it, or map it with label \"none\" and say why in \"reason\")"]
    assert unmapped == ["At most 40% of the land may be corn."]
    ok, _ = V.check_constraints(TEXT, body, [{"label": "ctLand", "sentence": "A farm has 1,200 acres."},
                                             {"label": "ctCorn", "sentence": "at most 40% of the land may be corn"}])
    assert ok == []
    bad, _ = V.check_constraints(TEXT, body, [{"label": "ctLand", "sentence": "The barn holds 9 cows."},
                                              {"label": "ctCorn", "sentence": "At most 40% of the land may be corn."}])
    assert bad == ["the sentence mapped to `ctLand` is not one of the problem's: 'The barn holds 9 cows.'"]
