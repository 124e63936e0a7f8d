"""bench/mutate.py: the mutants it makes, and a whole campaign on a toy project that kills
what its test checks and reports what it does not."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from mutate import Project, campaign, mutants, mutated_code  # noqa: E402

NO_TIMEOUT = 600.0
"""The toy's mutants never loop: a mutant run as slow as a loaded machine makes it is still
read by its tests, not called a timeout."""

SOURCE = textwrap.dedent(
    '''
    """A toy module."""
    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        LIMIT_TYPE = 3

    LIMIT = 3


    def over(count: int, strict: bool = True) -> bool:
        """Over the limit."""
        assert count >= 0
        if strict and count in (7, 8):
            count = count - 1
        return count > LIMIT  # pragma: no mutate


    def first_even(counts: list[int]) -> int | None:
        for count in counts:
            if not count % 2:
                return count
        return None
    '''
)


def test_every_operator_makes_its_mutants_and_leaves_the_rest_alone() -> None:
    made = [(m.line, m.operator, m.before, m.after) for m in mutants(SOURCE)]
    assert sorted(made) == sorted(
        [
            (8, "delete", "LIMIT = 3", "pass"),
            (8, "constant", "3", "4"),
            (8, "constant", "3", "2"),
            (11, "constant", "True", "False"),
            (14, "condition", "strict and count in (7, 8)", "not (strict and count in (7, 8))"),
            (14, "and/or", "strict and count in (7, 8)", "strict or count in (7, 8)"),
            (14, "comparison", "count in (7, 8)", "count not in (7, 8)"),
            (14, "constant", "7", "8"),
            (14, "constant", "7", "6"),
            (14, "constant", "8", "9"),
            (14, "constant", "8", "7"),
            (15, "delete", "count = count - 1", "pass"),
            (15, "constant", "1", "2"),
            (15, "constant", "1", "0"),
            (21, "condition", "not count % 2", "count % 2"),
            (21, "constant", "2", "3"),
            (21, "constant", "2", "1"),
            (22, "return None", "return count", "return None"),
        ]
    )
    scopes = {m.line: m.scope for m in mutants(SOURCE)}
    assert scopes[8] == "<module>" and scopes[14] == "over" and scopes[22] == "first_even"


def test_a_mutant_is_compiled_into_the_module_in_place_of_the_original() -> None:
    numbered = {(m.line, m.before, m.after): m.index for m in mutants(SOURCE)}
    module: dict[str, object] = {}
    exec(mutated_code(SOURCE, "toy.py", numbered[(21, "not count % 2", "count % 2")]), module)
    first_even = module["first_even"]
    assert callable(first_even) and first_even([2, 3, 4]) == 3
    module = {}
    exec(mutated_code(SOURCE, "toy.py", numbered[(8, "3", "2")]), module)
    assert module["LIMIT"] == 2


TOY = """LIMIT = 3


def over(count: int) -> bool:
    return count > LIMIT


def echo(count: int) -> int:
    return count


def square(count: int) -> int:
    return count * count


def double(count: int) -> int:
    return count * 2


TABLE = tuple(double(n) for n in range(2))


def lookup(count: int) -> int:
    return TABLE[count]


STEPS = (
    1,
    2,
)
"""

TOY_TESTS = """from toy.limits import STEPS, TABLE, echo, lookup, over, square


def test_over_the_limit_is_strictly_more() -> None:
    assert over(4) and not over(3)


def test_echo_and_square_run() -> None:
    echo(1)
    square(1)


def test_the_table_doubles() -> None:
    assert lookup(1) == 2 and TABLE == (0, 2)


def test_the_steps_look_up_the_table() -> None:
    assert [lookup(step - 1) for step in STEPS] == [0, 2]
"""


def test_a_campaign_kills_what_a_test_checks_and_reports_what_none_does(tmp_path: Path) -> None:
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "__init__.py").write_text("")
    (tmp_path / "toy" / "limits.py").write_text(TOY)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "__init__.py").write_text("")
    (tmp_path / "tests" / "test_limits.py").write_text(TOY_TESTS)
    # As each game's conftest imports every game: a mutant breaking the import fails it.
    (tmp_path / "tests" / "conftest.py").write_text("from toy.limits import TABLE  # noqa: F401\n")
    project = Project(tmp_path, sources=("toy",))
    listed = {
        ("toy.limits", "square", "return None", "return count * count", "return None"): "planted",
        ("toy.limits", "over", "boundary", "count > LIMIT", "count >= LIMIT"): "wrongly",
    }
    [report] = campaign(project, ["toy/limits.py"], sample=0, out=tmp_path / "out",
                        equivalents=listed, floor=NO_TIMEOUT)  # fmt: skip
    status = {(o.mutant.line, o.mutant.after): o.status for o in report.outcomes}
    assert status == {
        (1, "pass"): "killed",  # run at import only: every test that reached the module ran
        (1, "4"): "killed",
        (1, "2"): "killed",
        (5, "count <= LIMIT"): "killed",
        (5, "count >= LIMIT"): "killed",
        (5, "return None"): "killed",
        (9, "return None"): "survived",  # the planted survivor: nothing checks what echo gives
        (13, "return None"): "equivalent",
        (17, "return None"): "killed",  # run at import only, to build TABLE: afresh
        (17, "3"): "killed",
        (17, "1"): "killed",
        (20, "pass"): "killed",  # TABLE deleted: the conftest's import fails (pytest's code 4)
        (20, "3"): "killed",
        (20, "1"): "killed",
        (24, "return None"): "killed",
        (27, "pass"): "killed",
        (28, "2"): "killed",  # coverage records the table's first line only: its tests ran
        (28, "0"): "killed",
        (29, "3"): "killed",
        (29, "1"): "killed",
    }
    forked = {o.mutant.line for o in report.outcomes if o.forked}
    assert forked == {5, 9, 13, 24}  # in a function run by tests: in a fork; else afresh
    [survivor] = report.survivors()
    assert survivor.tests == 1 and survivor.files == ("tests/test_limits.py",)
    assert report.score == 18 / 19
    assert report.stale == ["over / boundary / count > LIMIT / count >= LIMIT"]
    text = (tmp_path / "out" / "toy_limits.md").read_text()
    assert "toy/limits.py:9 `echo` return None: return count → return None — survived" in text
    assert "limits.py:13 `square` return None: return count * count → return None — planted" in text


def test_a_module_with_own_tests_runs_them_and_any_other_the_files_importing_it() -> None:
    """`make mutate MODULE=...` without --tests: the module's `OWN_TESTS` (named by path or
    dotted name), each group of modules sharing them in one campaign."""
    from mutate import OWN_TESTS, ROOT, by_own_tests

    groups = by_own_tests(
        Project(ROOT), ["companion.journal", "companion/notify.py", "companion/journal.py"]
    )
    assert groups == {
        OWN_TESTS["companion/journal.py"]: ["companion.journal", "companion/journal.py"],
        (): ["companion/notify.py"],
    }
    assert all((ROOT / f).exists() for files in OWN_TESTS.values() for f in files)


def test_a_module_only_run_at_import_is_tested_by_every_test_that_reads_it(tmp_path: Path) -> None:
    """A module of constants (events' kinds, a ruling's text): its lines run only as it is
    imported and no test executes one afterwards, yet a test reads them. Its mutants run
    every test of the map, not "not reached"."""
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "__init__.py").write_text("")
    (tmp_path / "toy" / "names.py").write_text("SIZE = 3\nKIND = 'turn'\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "__init__.py").write_text("")
    (tmp_path / "tests" / "test_names.py").write_text(
        "from toy import names\n\n\ndef test_the_size() -> None:\n"
        "    assert names.SIZE == 3 and names.KIND == 'turn'\n"
    )
    (tmp_path / "tests" / "conftest.py").write_text("from toy import names  # noqa: F401\n")
    project = Project(tmp_path, sources=("toy",))
    [report] = campaign(
        project, ["toy/names.py"], sample=0, out=tmp_path / "out", equivalents={}, floor=NO_TIMEOUT
    )
    status = {(o.mutant.line, o.mutant.after): o.status for o in report.outcomes}
    assert status and set(status.values()) == {"killed"}, status


def test_a_table_read_by_a_test_that_runs_nothing_else_of_its_module_is_tested_by_it(
    tmp_path: Path,
) -> None:
    """A module-level table (Flip Done's `LINES`) read by a test that executes no line of
    its module: coverage ties that test to no line of it, only another test calling a
    function of the module reached it. A mutant of the table runs every test of the map,
    those that reached the module first, so the reading test kills it."""
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "__init__.py").write_text("")
    (tmp_path / "toy" / "rules.py").write_text(
        "WORTH = (1, 2, 3)\n\n\ndef first() -> int:\n    return 1\n"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "__init__.py").write_text("")
    (tmp_path / "tests" / "test_rules.py").write_text(
        "from toy.rules import WORTH, first\n\n\n"
        "def test_the_first_is_one() -> None:\n    assert first() == 1\n\n\n"
        "def test_each_line_is_worth_its_number() -> None:\n    assert WORTH == (1, 2, 3)\n"
    )
    project = Project(tmp_path, sources=("toy",))
    [report] = campaign(
        project, ["toy/rules.py"], sample=0, out=tmp_path / "out", equivalents={}, floor=NO_TIMEOUT
    )
    table = [o for o in report.outcomes if o.mutant.line == 1]
    assert len(table) == 7 and all(o.mutant.module_level for o in table)
    assert {o.status for o in report.outcomes} == {"killed"}, report.survivors()
    assert all(o.tests == 2 for o in table)  # both tests, not the one that called first()


def test_a_line_run_at_import_runs_the_tests_that_reached_its_module_first() -> None:
    from mutate import Coverage

    path = Path("toy/rules.py")
    cov = Coverage(
        {str(path): {1: {""}, 5: {"t.py::calls"}}},
        {"t.py::calls": 2.0, "t.py::reads": 1.0, "t.py::other": 0.5},
    )
    [table, *_] = [m for m in mutants("WORTH = (1, 2, 3)\n") if m.after == "2"]
    assert cov.tests_for(path, table) == ["t.py::calls", "t.py::other", "t.py::reads"]
    inside = next(m for m in mutants("\n" * 3 + "def f():\n    return 1\n") if m.line == 5)
    assert not inside.module_level and cov.tests_for(path, inside) == ["t.py::calls"]


def test_a_type_alias_is_an_annotation_not_a_value_to_delete() -> None:
    """Deleting `Line = tuple[int, int, int]` changes no behaviour (annotations only name
    it), nor `__all__` (only `import *` reads it); a module-level table read by index is a
    value like any other."""
    source = (
        "Line = tuple[int, int, int]\nBus = dict[str, Sequence[int] | None]\nFIRST = GRIDS[2]\n"
        "__all__ = ['FIRST']\n"
    )
    assert [(m.line, m.after) for m in mutants(source)] == [(3, "pass"), (3, "3"), (3, "1")]


def test_a_mutant_of_a_closure_made_at_import_runs_in_a_fresh_import(tmp_path: Path) -> None:
    """An engine built at import by a factory keeps the nested function the factory made
    then (a contract's `sample_config`): swapping the factory's code in a fork would leave
    it as it was, and the mutant would survive whatever the tests check."""
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "__init__.py").write_text("")
    (tmp_path / "toy" / "made.py").write_text(
        "def make(n: int):\n    def inner() -> int:\n        return n + 1\n\n    return inner\n\n\n"
        "MADE = make(1)\n"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "__init__.py").write_text("")
    (tmp_path / "tests" / "test_made.py").write_text(
        "from toy.made import MADE\n\n\ndef test_made() -> None:\n    assert MADE() == 2\n"
    )
    project = Project(tmp_path, sources=("toy",))
    [report] = campaign(
        project, ["toy/made.py"], sample=0, out=tmp_path / "out", equivalents={}, floor=NO_TIMEOUT
    )
    inner = [o for o in report.outcomes if o.mutant.scope == "make.inner"]
    assert len(inner) == 3 and {o.status for o in inner} == {"killed"}, inner
    assert not any(o.forked for o in inner)
