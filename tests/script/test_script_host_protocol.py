"""The host-object protocol of pyopl.script.language.values, exercised with small fake OPL objects:
name lookup order, for-in over host keys, indexing, member errors with suggestions, display,
`with`, constructors, and that host ints are numbers."""
from __future__ import annotations

import pytest

from pyopl.script import HostFunction, HostObject, Interpreter, ScriptError, parse_script


class FloatArray(HostObject):
    """An OPL `float w[1..n]`: for-in visits the indices, `w[i]` reads and writes items."""

    type_name = "float[]"

    def __init__(self, n):
        self.items = {i: 0.0 for i in range(1, n + 1)}

    def get_index(self, key, span):
        return self.items[int(key)]

    def set_index(self, key, value, span):
        self.items[int(key)] = value

    def iter_keys(self):
        return iter(list(self.items))

    def member_names(self):
        return ["size"]

    def get_member(self, name, span):
        if name == "size":
            return len(self.items)
        raise ScriptError.missing_member(self.type_name, name, self.member_names(), span)

    def to_display(self):
        from pyopl.script.language.convert import to_string

        return "[" + " ".join(to_string(v) for v in self.items.values()) + "]"


class Tuple(HostObject):
    type_name = "Arc"

    def __init__(self, a, b):
        self.a, self.b = a, b

    def member_names(self):
        return ["from", "to"]

    def get_member(self, name, span):
        if name == "from":
            return self.a
        if name == "to":
            return self.b
        raise ScriptError.missing_member(self.type_name, name, self.member_names(), span)

    def to_display(self):
        return '<"%s" "%s">' % (self.a, self.b)

    def __eq__(self, other):
        return isinstance(other, Tuple) and (self.a, self.b) == (other.a, other.b)

    __hash__ = None


class TupleSet(HostObject):
    type_name = "{Arc}"

    def __init__(self, items):
        self.items = items

    def iter_keys(self):
        return iter(self.items)

    def member_names(self):
        return ["size"]

    def get_member(self, name, span):
        if name == "size":
            return len(self.items)
        raise ScriptError.missing_member(self.type_name, name, self.member_names(), span)


class Model(HostObject):
    """`thisOplModel` with scalars `n` (int), `cap` (read-only), the array `w`, the set `arcs`."""

    type_name = "IloOplModel"

    def __init__(self):
        self.n = 4
        self.w = FloatArray(4)
        self.arcs = TupleSet([Tuple("a", "b"), Tuple("b", "c")])
        self.calls = []

    def member_names(self):
        return ["n", "cap", "w", "arcs", "thisOplModel", "Point", "hello"]

    def get_member(self, name, span):
        if name == "n":
            return self.n
        if name == "cap":
            return 10
        if name == "w":
            return self.w
        if name == "arcs":
            return self.arcs
        if name == "thisOplModel":
            return self
        if name == "Point":
            return HostFunction("Point", lambda interp, this, args, sp: Tuple(args[0], args[1]), constructor=True)
        if name == "hello":
            def hello(interp, this, args, sp):
                self.calls.append((this, list(args)))
                return "hi " + args[0]
            return HostFunction("hello", hello)
        raise ScriptError.missing_member(self.type_name, name, self.member_names(), span)

    def set_member(self, name, value, span):
        if name == "n":
            self.n = value
            return
        super().set_member(name, value, span)


def run(src, host=None):
    out: list = []
    host = host or Model()
    program = parse_script(src, "m.mod", 5, 3)
    assert not isinstance(program, list), [str(d) for d in program]
    Interpreter(host, out.append, file="m.mod").run(program)
    return "".join(out), host


def test_the_issue_example_fills_the_host_array():
    out, host = run("for (var i = 1; i <= n; i++) w[i] = i * 1.5;\nwriteln(w);")
    assert host.w.items == {1: 1.5, 2: 3.0, 3: 4.5, 4: 6.0}
    assert out == "[1.5 3 4.5 6]\n"


def test_for_in_over_a_host_array_visits_its_indices_and_over_a_set_its_elements():
    out, _ = run("var s = 0; for (var i in w) s += i; writeln(s);\n"
                 "for (var a in arcs) writeln(a.from, '->', a.to, ' ', a);")
    assert out == '10\na->b <"a" "b">\nb->c <"b" "c">\n'


def test_host_ints_are_numbers():
    out, _ = run("writeln(n + 1, ' ', n / 8, ' ', typeof n, ' ', String(n), ' ', n === 4, ' ', n == '4');")
    assert out == "5 0.5 number 4 true true\n"


def test_with_the_model_reads_and_writes_its_elements():
    out, host = run("with (thisOplModel) { n = 7; writeln(n * 2); }")
    assert host.n == 7 and out == "14\n"


def test_assignment_to_an_undeclared_name_the_host_has_goes_to_the_host():
    _, host = run("n = 9;")
    assert host.n == 9


def test_a_script_var_shadows_a_host_name():
    out, host = run("var n = 100; writeln(n);")
    assert host.n == 4 and out == "100\n"


def test_assignment_to_a_new_name_creates_a_script_global():
    out, host = run("fresh = 3; writeln(fresh + n);")
    assert out == "7\n"


def test_host_method_receives_this_and_arguments():
    out, host = run('writeln(thisOplModel.hello("x"));')
    assert out == "hi x\n"
    assert host.calls == [(host, ["x"])]


def test_new_on_a_host_constructor():
    out, _ = run('var p = new Point("u", "v"); writeln(p.to, p);')
    assert out == 'v<"u" "v">\n'


def test_host_tuples_compare_by_value():
    out, _ = run('writeln(new Point("a", "b") == new Point("a", "b"), new Point("a", "b") === new Point("a", "c"));')
    assert out == "truefalse\n"


def test_missing_member_names_the_type_and_suggests():
    with pytest.raises(ScriptError) as e:
        run("writeln(w.sise);")
    d = e.value.to_diagnostic()
    assert d.code == "OPL1004" and d.message == "`float[]` has no member `sise`" and d.help == "did you mean `size`?"
    assert (d.line, d.column, d.end_column) == (5, 13, 17)  # the name after the dot; script starts at (5, 3)


def test_missing_member_lists_what_the_type_has_when_nothing_is_near():
    with pytest.raises(ScriptError) as e:
        run("writeln(arcs.first());")
    assert e.value.help == "a `{Arc}` has `size`"


def test_undefined_name_suggests_a_host_name():
    with pytest.raises(ScriptError) as e:
        run("writeln(caps);")
    assert e.value.code == "OPL1001" and e.value.help == "did you mean `cap`?"


def test_read_only_host_member_is_a_diagnostic():
    with pytest.raises(ScriptError) as e:
        run("thisOplModel.cap = 3;")
    d = e.value.to_diagnostic()
    assert d.code == "OPL1010" and d.message == "`cap` of a `IloOplModel` cannot be assigned"
    assert (d.line, d.column) == (5, 16)


def test_script_catches_a_host_error_as_an_exception():
    out, _ = run("try { w.nothing; } catch (e) { writeln(e.name, ': ', e.message); }")
    assert out == "TypeError: `float[]` has no member `nothing`\n"


def test_host_can_override_writeln():
    class Printer(HostObject):
        def member_names(self):
            return ["writeln"]

        def get_member(self, name, span):
            return HostFunction("writeln", lambda interp, this, args, sp: interp.output("HOST:" + str(len(args))))

    out, _ = run("writeln(1, 2);", Printer())
    assert out == "HOST:2"


def test_step_counter_is_shared_across_runs():
    interp = Interpreter(None, max_steps=60)
    interp.run(parse_script("var i = 0; while (i < 5) i++;"))
    first = interp.steps
    assert first > 0
    with pytest.raises(ScriptError) as e:
        interp.run(parse_script("var j = 0; while (j < 5) j++;"))
    assert e.value.code == "OPL1007"
    interp.steps = 0  # a host may give each block its own budget
    interp.run(parse_script("var k = 0; while (k < 5) k++;"))
    assert interp.steps == first
