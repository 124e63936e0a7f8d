"""Mutation testing: which of a module's promises would no test notice if they broke?

    .venv/bin/python bench/mutate.py [MODULE...] [--sample N] [--seed S]
        [--workers W] [--tests FILE...] [--narrow] [--exclude FILE...] [--mutants N,N]
        [--again DIR] [--out DIR] [--list]

(or `make mutate MODULE=companion/referee/pace.py`; no MODULE: the `MODULES` below).
MODULE is a path or a dotted name. Each mutant is one small change of the module's
code; a test that fails kills it. The operators (`OPERATORS`): a comparison negated (`<`
into `>=`, `==` into `!=`, `in` into `not in`...), a boundary shifted (`<` into `<=` and
back), a number moved by ±1 (and True into False), `and` swapped with `or`, a condition
negated, `return x` into `return None`, a statement deleted. Docstrings, annotations,
decorators, `assert`s, imports, `raise NotImplementedError`, `if TYPE_CHECKING:` blocks and lines
marked `# pragma: no mutate` are left alone.

Which tests run for a mutant: coverage with one context per test maps each line of the
module to the tests that executed it. First tier, the module's own tests: `--tests`, else
those `OWN_TESTS` lists for it (and then no second tier), else the test files that import
it (or a package that re-exports it), through their helpers. A mutant runs only the tests
that executed its lines (fastest first, stopping at the first failure); a line run as the
module is imported (module level, a class body, a function building a module-level table)
gets every test of the map, those that reached the module first: a test may read a table
and execute nothing else of its module. Second tier, for the survivors: every
other test file that can reach the module through imports (a module name in a string
counts: the game registry imports games by name), mapped the same way. `--narrow` stops
after the first tier. A mutant no test executes survives, "not reached".

A survivor is either a gap of the tests or an equivalent mutant: a change no behaviour
can show (`x >= 0` into `x > 0` where x is never 0...). Equivalents are listed, each with
why, in bench/mutation_equivalents.toml; they are left out of the score (killed /
(mutants - equivalents)), and a listed one that is killed or no longer produced is named
as stale.

How a mutant runs: a fork server imports and collects the module's tests once; a mutant
inside a function runs in a fork of it, that function's code swapped for the mutated
one (its module's caches emptied). A mutant outside any function (module level, a class
body, a default value), or on a line that ran while the module was imported (a function
that builds a module-level table), runs in a fresh pytest that imports the module
compiled from the mutated syntax tree (an import hook). The file is never touched, so
other work may go on in the same tree. Tests that start a `companion` process of their
own see the module unmutated. A mutant that breaks the module's import (in a test file
or a conftest importing it) is killed.

The report (printed, and as Markdown and JSON in --out, default .mutate/): the score, and
each survivor with file:line, the mutation, its enclosing function and the tests run.
Coverage maps are cached in --out, keyed by the contents of every source and test file.
The sample is drawn with a fixed seed (`--sample 0`: every mutant).
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import contextlib
import copy
import dataclasses
import datetime
import hashlib
import importlib.abc
import importlib.util
import json
import os
import queue
import random
import resource
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import CodeType, FunctionType, ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
EQUIVALENTS = BENCH / "mutation_equivalents.toml"

OPERATORS = ("comparison", "boundary", "constant", "and/or", "condition", "return None", "delete")
"""The mutation operators, in the report's words."""

MODULES = (
    "companion/games/passpass/rules/engine.py",
    "companion/games/passpass/rules/board.py",
    "companion/games/passpass/rules/tables.py",
    "companion/games/passpass/rules/picks.py",
    "companion/games/passpass/rules/state.py",
    "companion/games/passpass/rules/config.py",
    "companion/games/flipdone/rules/engine.py",
    "companion/games/flipdone/rules/board.py",
    "companion/games/flipdone/rules/state.py",
    "companion/games/flipdone/rules/config.py",
    "companion/games/swiped/rules/engine.py",
    "companion/games/swiped/rules/board.py",
    "companion/games/swiped/rules/state.py",
    "companion/games/swiped/rules/config.py",
    "companion/games/vnp/rules/engine.py",
    "companion/games/vnp/rules/board.py",
    "companion/games/vnp/rules/pieces.py",
    "companion/games/vnp/rules/state.py",
    "companion/games/vnp/rules/config.py",
    "companion/referee/pace.py",
    "companion/journal.py",
    "companion/web/pairing.py",
    "companion/club/link.py",
)
"""What `readme()` measures: every engine, the referee's pace, the journal, pairing and
the club link (issue 44's targets)."""

SAMPLE = 50
SEED = 44
BUDGET_FLOOR = 30.0
"""Seconds a mutant's tests may take beyond three times their time in the coverage run
before it counts as a timeout (an endless loop)."""

OWN_TESTS = {
    "companion/games/passpass/rules/engine.py": ("tests/games/passpass/rules",),
    "companion/games/passpass/rules/board.py": ("tests/games/passpass/rules",),
    "companion/games/passpass/rules/tables.py": ("tests/games/passpass/rules",),
    "companion/games/passpass/rules/picks.py": ("tests/games/passpass/rules",),
    "companion/games/flipdone/rules/engine.py": ("tests/games/flipdone/rules",),
    "companion/games/flipdone/rules/board.py": ("tests/games/flipdone/rules",),
    "companion/games/flipdone/rules/state.py": ("tests/games/flipdone/rules",),
    "companion/games/swiped/rules/engine.py": ("tests/games/swiped/rules",),
    "companion/games/swiped/rules/board.py": ("tests/games/swiped/rules",),
    "companion/games/vnp/rules/engine.py": ("tests/games/vnp/rules",),
    "companion/games/vnp/rules/board.py": ("tests/games/vnp/rules",),
    "companion/games/vnp/rules/pieces.py": ("tests/games/vnp/rules",),
    "companion/games/swiped/rules/state.py": ("tests/games/swiped/rules",),
    "companion/games/swiped/rules/config.py": ("tests/games/swiped/rules",),
    "companion/games/passpass/rules/state.py": ("tests/games/passpass/rules",),
    "companion/games/passpass/rules/config.py": ("tests/games/passpass/rules",),
    "companion/games/flipdone/rules/config.py": ("tests/games/flipdone/rules",),
    "companion/games/vnp/rules/state.py": ("tests/games/vnp/rules",),
    "companion/games/vnp/rules/config.py": ("tests/games/vnp/rules",),
    **{
        f"companion/games/{game}/rules/{module}.py": (f"tests/games/{game}/rules", "tests/rules")
        for game, modules in (
            ("passpass", ("layouts", "contract", "actions", "events", "__init__")),
            ("swiped", ("deck", "contract", "actions", "events", "__init__")),
            ("flipdone", ("contract", "actions", "events", "__init__")),
            ("vnp", ("contract", "actions", "events", "__init__")),
        )
        for module in modules
    },
    "companion/referee/pace.py": (
        "tests/referee/test_timing.py", "tests/referee/test_off_mat.py",
        "tests/games/passpass/referee/test_scenarios.py", "tests/referee/test_mat_setup.py",
        "tests/referee/test_old_setup_lines.py", "tests/pi/test_pace.py",
        "tests/games/vnp/referee/test_scenarios.py", "tests/referee/test_across.py",
        "tests/referee/test_time_first.py",
    ),
    "companion/journal.py": (
        "tests/cli/test_journal_files.py", "tests/cli/test_journal_end.py",
        "tests/cli/test_journal_faults.py", "tests/cli/test_journal_not_applied.py",
        "tests/cli/test_strict_inputs.py", "tests/cli/test_replay_memory.py",
        "tests/referee/test_old_setup_lines.py", "tests/referee/test_resume.py",
        "tests/lab/test_journals.py",
    ),
    "companion/web/pairing.py": (
        "tests/web/test_browser_common.py", "tests/web/test_http.py",
        "tests/web/test_pairing_attacks.py", "tests/web/test_pairing_pace.py",
        "tests/web/test_publisher.py",
    ),
    "companion/club/link.py": (
        "tests/club/test_club_bounds.py", "tests/club/test_club_broker.py",
        "tests/club/test_club_commands.py", "tests/club/test_club_intake.py",
        "tests/club/test_club_link.py", "tests/club/test_club_night.py",
        "tests/club/test_power_cut.py",
    ),
}  # fmt: skip
"""A module's own tests, its first tier and its only one (no second tier) when no
`--tests` are given: a game's rule tests for each of its rules modules (engine, board
and the tables they read; the lab's, bots' and referee's tests reach them too, but do
not test the rules), with the engine contract's suite for the smaller ones (actions,
events, layouts, deck, the contract itself); the pace's and the journal's own tests
(some hundred files import the journal, most to write a scenario); pairing's and the
link's, the test files that import them. Any other module: the test files that import
it, then the second tier."""

MAP_ENV = "MUTATE_MAP"
"""Set for the child pytest of a coverage map: `targets|output` (targets joined by ':')."""
MUTANT_ENV = "MUTATE_MUTANT"
"""Set for the child pytest of one mutant: `module|path|index`."""

NEGATED: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt,
    ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}  # fmt: skip
BOUNDARY: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
}  # fmt: skip
DELETABLE = (
    ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Raise, ast.Delete, ast.Break,
    ast.Continue,
)  # fmt: skip


# ------------------------------------------------------------------------ the mutants


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One change of a module: the `variant`-th change of its `node`-th syntax node (in
    `ast.walk` order of the parsed file), which is how a child process makes it again."""

    index: int
    node: int
    variant: int
    operator: str
    line: int
    end_line: int
    scope: str
    """The enclosing function or class (`Class.method`), or `<module>`."""
    before: str
    after: str
    statement: int = 0
    """The first line of the statement holding it: coverage records a statement that
    spans lines (a table written over several) on one of them only."""
    module_level: bool = False
    """Outside any function (module level, a class body, a default value): it runs as its
    module is imported, whichever test first imports it."""

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What names it across unrelated edits of the module (no line number)."""
        return (self.scope, self.operator, self.before, self.after)

    def describe(self) -> str:
        return f"{self.operator}: {self.before} → {self.after}"


Change = tuple[str, Callable[[ast.AST], ast.AST]]
"""An operator's name and what it makes of (a copy of) the node."""


def _short(node: ast.AST) -> str:
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= 90 else text[:87] + "..."


def _with_op(index: int, op: type[ast.cmpop]) -> Callable[[ast.AST], ast.AST]:
    def change(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Compare)
        node.ops[index] = op()
        return node

    return change


def _constant(value: object) -> Callable[[ast.AST], ast.AST]:
    def change(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Constant)
        node.value = value
        return node

    return change


def _swap_boolop(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.BoolOp)
    node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    return node


def _negate(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.expr)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return node.operand
    return ast.copy_location(ast.UnaryOp(ast.Not(), node), node)


def _return_none(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.Return)
    node.value = ast.copy_location(ast.Constant(None), node)
    return node


def _delete(node: ast.AST) -> ast.AST:
    return ast.copy_location(ast.Pass(), node)


def _changes(node: ast.AST, parent: ast.AST | None) -> list[Change]:
    """Every change the operators make of `node` (whose parent is `parent`)."""
    out: list[Change] = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in NEGATED:
                out.append(("comparison", _with_op(i, NEGATED[type(op)])))
            if type(op) in BOUNDARY:
                out.append(("boundary", _with_op(i, BOUNDARY[type(op)])))
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            out.append(("constant", _constant(not value)))
        elif isinstance(value, int | float):
            out += [("constant", _constant(value + 1)), ("constant", _constant(value - 1))]
    elif isinstance(node, ast.BoolOp):
        out.append(("and/or", _swap_boolop))
    elif isinstance(node, ast.Return) and not _is_none(node.value):
        out.append(("return None", _return_none))
    kept = _is_docstring(node) or _is_declaration(node) or _is_abstract(node) or _is_alias(node)
    if isinstance(node, DELETABLE) and not kept:
        out.append(("delete", _delete))
    if _is_condition(node, parent):
        out.append(("condition", _negate))
    return out


def _is_none(node: ast.expr | None) -> bool:
    return node is None or isinstance(node, ast.Constant) and node.value is None


def _is_declaration(node: ast.AST) -> bool:
    """`x: int` without a value: nothing to delete; `__all__`, what `import *` and the
    linters read (the project never imports `*`)."""
    if isinstance(node, ast.Assign):
        return [ast.unparse(t) for t in node.targets] == ["__all__"]
    return isinstance(node, ast.AnnAssign) and node.value is None


def _is_alias(node: ast.AST) -> bool:
    """`Line = tuple[int, int, int]`: a type's name for annotations (whose parts
    `_skipped` leaves alone), not a value the code reads: a generic (a builtin or a
    CamelCase name) of types, never a table indexed (`GRIDS[players]`)."""
    if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript)):
        return False
    parts = [node.value.value, *ast.walk(node.value.slice)]
    names = [n.id if isinstance(n, ast.Name) else n.attr for n in parts
             if isinstance(n, ast.Name | ast.Attribute)]  # fmt: skip
    kinds = (ast.Name, ast.Attribute, ast.Subscript, ast.Tuple, ast.BinOp, ast.BitOr,
             ast.expr_context)  # fmt: skip
    return all(
        isinstance(n, kinds) or isinstance(n, ast.Constant) and n.value in (None, Ellipsis)
        for n in parts
    ) and all(name in BUILTIN_TYPES or name[0].isupper() and not name.isupper() for name in names)


BUILTIN_TYPES = frozenset(
    {"tuple", "list", "dict", "set", "frozenset", "type", "int", "str", "float", "bool", "bytes",
     "object", "queue"}
)  # fmt: skip


def _is_abstract(node: ast.AST) -> bool:
    """`raise NotImplementedError`: what a subclass must supply (never run)."""
    return isinstance(node, ast.Raise) and "NotImplementedError" in ast.unparse(node)


def _is_docstring(node: ast.AST) -> bool:
    """A docstring, or any other constant standing alone (`...`)."""
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)


def _is_condition(node: ast.AST, parent: ast.AST | None) -> bool:
    if isinstance(parent, ast.If | ast.While | ast.IfExp) and node is parent.test:
        return True
    return isinstance(parent, ast.comprehension) and any(node is c for c in parent.ifs)


def _skipped(node: ast.AST) -> Iterator[ast.AST]:
    """The parts of `node` no operator touches: annotations, decorators, `assert`s,
    imports, f-strings' parts, `if TYPE_CHECKING:` blocks."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield from node.decorator_list
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
        yield node.returns
    if isinstance(node, ast.arg) and node.annotation is not None:
        yield node.annotation
    if isinstance(node, ast.AnnAssign):
        yield node.annotation
    if isinstance(node, ast.Assert | ast.Import | ast.ImportFrom | ast.JoinedStr):
        yield node
    if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
        yield node


def mutants(source: str, filename: str = "<module>") -> list[Mutant]:
    """Every mutant of a module's source, in a fixed order."""
    return [m for m, _ in _walk(ast.parse(source, filename), source)]


def _walk(tree: ast.Module, source: str) -> Iterator[tuple[Mutant, Callable[[ast.AST], ast.AST]]]:
    lines = source.splitlines()
    parents: dict[int, ast.AST] = {}
    scopes: dict[int, str] = {id(tree): "<module>"}
    statements: dict[int, int] = {}
    skipped: set[int] = set()
    in_function: dict[int, bool] = {id(tree): False}
    index = 0
    for number, node in enumerate(ast.walk(tree)):
        scope = scopes[id(node)]
        inside = in_function[id(node)]
        statement = node.lineno if isinstance(node, ast.stmt) else statements.get(id(node), 0)
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
            statements[id(child)] = statement
            scopes[id(child)] = scope  # a def's defaults are the enclosing scope's
            in_function[id(child)] = inside
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            inner = node.name if scope == "<module>" else f"{scope}.{node.name}"
            scopes.update((id(statement), inner) for statement in node.body)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            in_function.update((id(statement), True) for statement in node.body)
        elif isinstance(node, ast.Lambda):
            in_function[id(node.body)] = True
        for part in _skipped(node):
            skipped.update(id(n) for n in ast.walk(part))
        if id(node) in skipped or not isinstance(node, ast.stmt | ast.expr):
            continue
        line = node.lineno
        if line <= len(lines) and "pragma: no mutate" in lines[line - 1]:
            continue
        parent = parents.get(id(node))
        for variant, (operator, change) in enumerate(_changes(node, parent)):
            after = change(copy.deepcopy(node))
            yield (
                Mutant(
                    index,
                    number,
                    variant,
                    operator,
                    line,
                    node.end_lineno or line,
                    scope,
                    _short(node),
                    _short(after),
                    statement,
                    not inside,
                ),  # fmt: skip
                change,
            )
            index += 1


def mutated_code(source: str, filename: str, index: int) -> CodeType:
    """The module compiled with its `index`-th mutant (the same numbering as `mutants`)."""
    return mutated(source, filename, index)[1]


def mutated(source: str, filename: str, index: int) -> tuple[Mutant, CodeType]:
    """The `index`-th mutant and the module compiled with it."""
    tree = ast.parse(source, filename)
    for mutant, found in _walk(tree, source):
        if mutant.index == index:
            change = found
            break
    else:
        raise LookupError(f"{filename} has no mutant {index}")
    target = next(n for i, n in enumerate(ast.walk(tree)) if i == mutant.node)
    parent = next(p for p in ast.walk(tree) if any(c is target for c in ast.iter_child_nodes(p)))
    new = change(target)
    for field, value in ast.iter_fields(parent):
        if value is target:
            setattr(parent, field, new)
        elif isinstance(value, list):
            value[:] = [new if item is target else item for item in value]
    return mutant, compile(ast.fix_missing_locations(tree), filename, "exec")


# ------------------------------------------------------------- inside the child pytest


class _MutantLoader(importlib.abc.Loader):
    def __init__(self, code: CodeType) -> None:
        self.code = code

    def exec_module(self, module: ModuleType) -> None:
        exec(self.code, module.__dict__)


class _MutantFinder(importlib.abc.MetaPathFinder):
    """Imports one module from a mutated code object instead of its file."""

    def __init__(self, name: str, path: Path, code: CodeType) -> None:
        self.name, self.path, self.code = name, path, code

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.name:
            return None
        package = [str(self.path.parent)] if self.path.name == "__init__.py" else None
        return importlib.util.spec_from_file_location(
            fullname, self.path, loader=_MutantLoader(self.code),
            submodule_search_locations=package,
        )  # fmt: skip


class _CoverageMap:
    """One coverage context per test; at the end, each target line's tests and each
    test's duration, as JSON."""

    def __init__(self, targets: list[str], output: str) -> None:
        import coverage

        self.output = output
        self.targets = set(targets)
        self.durations: dict[str, float] = {}
        self.cov = coverage.Coverage(data_file=None, include=targets, config_file=False)
        self.cov.start()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        for module in list(sys.modules.values()):  # a cached function runs for every test
            if getattr(module, "__file__", None) in self.targets:
                _clear_caches(module)
        self.cov.switch_context(item.nodeid)
        start = time.perf_counter()
        try:
            return (yield)
        finally:
            self.durations[item.nodeid] = time.perf_counter() - start
            self.cov.switch_context("")

    def pytest_sessionfinish(self) -> None:
        self.cov.stop()
        data = self.cov.get_data()
        lines = {
            path: {str(n): sorted(c) for n, c in data.contexts_by_lineno(path).items()}
            for path in data.measured_files()
        }
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        Path(f"{self.output}.{worker}").write_text(
            json.dumps({"lines": lines, "durations": self.durations})
        )


_map: _CoverageMap | None = None
if os.environ.get(MAP_ENV):
    _targets, _output = os.environ[MAP_ENV].split("|")
    _map = _CoverageMap(_targets.split(":"), _output)
if os.environ.get(MUTANT_ENV):
    _name, _path, _index = os.environ[MUTANT_ENV].split("|")
    _code = mutated_code(Path(_path).read_text(), _path, int(_index))
    sys.meta_path.insert(0, _MutantFinder(_name, Path(_path), _code))


def pytest_configure(config: Any) -> None:
    """pytest's hook: the coverage map's hooks join the session (a map's child only)."""
    if _map is not None:
        config.pluginmanager.register(_map, "mutate-map")


# -------------------------------------------------------------------- the fork server

UNPATCHABLE = 99
"""A forked child's exit code: the mutant is not inside a function (module level, a class
body, a default value), so it needs a fresh import."""


def serve(name: str, path: str, files: list[str], pytest_args: list[str]) -> None:
    """The fork server (`mutate.py --serve`): import and collect the tests once, then for
    each request on stdin (a JSON line: mutant index, tests, timeout) fork, swap the
    mutated function's code in and run the tests; answer a JSON line with the outcome."""
    answer = os.fdopen(os.dup(1), "w", buffering=1)
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    pytest.main(["--collect-only", *pytest_args, *files])
    if name not in sys.modules:
        answer.write(json.dumps({"error": f"the tests did not import {name}"}) + "\n")
        return
    answer.write(json.dumps({"ready": True}) + "\n")
    source = Path(path).read_text()
    for line in sys.stdin:
        request = json.loads(line)
        status = _forked(name, path, source, request, pytest_args)
        answer.write(json.dumps({"status": status}) + "\n")


def _forked(name: str, path: str, source: str, request: dict[str, Any], args: list[str]) -> str:
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 3
        try:
            os.setpgid(0, 0)
            mutant, compiled = mutated(source, path, request["index"])
            if not _patch(sys.modules[name], compiled, mutant):
                code = UNPATCHABLE
            else:
                code = int(pytest.main([*args, "-x", *request["tests"]]))
        finally:
            os._exit(code)
    deadline = time.monotonic() + request["timeout"]
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout"
        time.sleep(0.02)
    code = os.waitstatus_to_exitcode(status)
    return "unpatchable" if code in (UNPATCHABLE, *NOT_FOUND) else _status(code, "")


NOT_FOUND = (4, 5)
"""pytest's exit codes when the tests asked for are not there (usage error, none run)."""
CONFTEST_BROKEN = "ImportError while loading conftest"
"""pytest's words (exit code 4) when a conftest's imports raise: a mutant that breaks
its module's import (a module-level name deleted) under a conftest importing it (each
game's, which imports every game) is killed, as under a test file importing it (code 2)."""


def _status(code: int, log: str) -> str:
    """killed, survived or `error: ...` from pytest's exit code."""
    if code in (1, 2):  # a test failed, or the mutant broke the import of a test file
        return "killed"
    if code == 0:
        return "survived"
    last = log.strip().splitlines()[-1] if log.strip() else ""
    return f"error: pytest exit {code}: {last}"


def _patch(module: ModuleType, compiled: CodeType, mutant: Mutant) -> bool:
    """Swap the code of the function holding `mutant` (a top-level function or a method)
    for its mutated code, and empty the module's caches. False when it is not inside a
    function, or inside one nested in another (swapping the outer one's code would not
    reach the closures it already made, such as an engine's `sample_config`)."""
    owner: Any = module
    parts = [] if mutant.scope == "<module>" else mutant.scope.split(".")
    for depth, part in enumerate(parts):
        item = vars(owner).get(part)
        if isinstance(item, type):
            owner = item
            continue
        if depth < len(parts) - 1:  # a nested function: closures made earlier keep its code
            return False
        spans = [f for f in _functions(item) if _holds(f.__code__, mutant.line)]
        if not spans:
            return False
        old = spans[0].__code__
        new = _find(compiled, old.co_qualname, old.co_firstlineno)
        if new is None or new.co_freevars != old.co_freevars:
            return False
        spans[0].__code__ = new
        _clear_caches(module)
        return True
    return False


def _functions(item: object) -> Iterator[FunctionType]:
    """The plain functions behind a module or class attribute (methods, properties,
    `functools` wrappers such as lru_cache)."""
    todo = [item]
    while todo:
        thing = todo.pop()
        if isinstance(thing, FunctionType):
            yield thing
        elif isinstance(thing, staticmethod | classmethod):
            todo.append(thing.__func__)
        elif isinstance(thing, property):
            todo += [f for f in (thing.fget, thing.fset, thing.fdel) if f is not None]
        elif hasattr(thing, "__wrapped__"):
            todo.append(thing.__wrapped__)


def _holds(code: CodeType, line: int) -> bool:
    return code.co_firstlineno <= line <= _last(code)


def _last(code: CodeType) -> int:
    lines = [line for _, _, line in code.co_lines() if line is not None]
    nested = [_last(c) for c in code.co_consts if isinstance(c, CodeType)]
    return max([code.co_firstlineno, *lines, *nested])


def _find(code: CodeType, qualname: str, first: int) -> CodeType | None:
    for const in code.co_consts:
        if isinstance(const, CodeType):
            if const.co_qualname == qualname and const.co_firstlineno == first:
                return const
            found = _find(const, qualname, first)
            if found is not None:
                return found
    return None


def _clear_caches(module: ModuleType) -> None:
    todo: list[Any] = [module]
    while todo:
        for value in vars(todo.pop()).values():
            if isinstance(value, type) and value.__module__ == module.__name__:
                todo.append(value)
            elif callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


class Server:
    """The campaign's end of a fork server (`serve`) for one module and test files."""

    def __init__(self, project: Project, name: str, path: Path, files: Sequence[Path]) -> None:
        command = [sys.executable, str(BENCH / "mutate.py"), "--serve", name, str(path)]
        self.process = subprocess.Popen(
            [*command, *map(str, files)], cwd=project.root, env=project.env(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.ok = self._read().get("ready", False)

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        return json.loads(line) if line else {}

    def run(self, index: int, tests: list[str], timeout: float) -> str | None:
        """The mutant's outcome, or None when it must run in a fresh pytest instead."""
        if not self.ok:
            return None
        assert self.process.stdin is not None
        request = {"index": index, "tests": tests, "timeout": timeout}
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            self.ok = False
            return None
        status = self._read().get("status")
        if status is None:
            self.ok = False
        return None if status in (None, "unpatchable") else str(status)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


# ------------------------------------------------------------------- the campaign side


@dataclasses.dataclass
class Project:
    """Where the sources and tests are, and how a child pytest is started there."""

    root: Path
    sources: tuple[str, ...] = ("companion",)
    tests: str = "tests"
    pytest_args: tuple[str, ...] = ("-p", "no:cacheprovider", "--hypothesis-seed=0")

    def python_files(self) -> list[Path]:
        files: list[Path] = []
        for top in (*self.sources, self.tests):
            files += sorted((self.root / top).rglob("*.py"))
        return files

    def module_name(self, path: Path) -> str:
        parts = list(path.relative_to(self.root).with_suffix("").parts)
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    def resolve(self, module: str) -> Path:
        """A module given as a path or a dotted name, as a file of the project."""
        path = self.root / module
        if path.suffix == ".py" and path.is_file():
            return path.resolve()
        base = self.root.joinpath(*module.split("."))
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate.resolve()
        raise SystemExit(f"no module {module} under {self.root}")

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """A child's environment: the project's modules and ours (bench/) importable."""
        paths = [str(self.root), str(BENCH), os.environ.get("PYTHONPATH", "")]
        return os.environ | (extra or {}) | {"PYTHONPATH": os.pathsep.join(p for p in paths if p)}

    def pytest(
        self, args: Sequence[str], env: dict[str, str], timeout: float | None
    ) -> tuple[int | None, str]:
        """Run pytest in a child (our plugin loaded); its exit code (None: timed out)."""
        child_env = self.env(env)
        command = [sys.executable, "-m", "pytest", "-p", "mutate", *self.pytest_args, *args]
        try:
            done = subprocess.run(
                command, cwd=self.root, env=child_env, capture_output=True, text=True,
                timeout=timeout, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return None, ""
        code = done.returncode
        if code == 4 and CONFTEST_BROKEN in done.stderr:
            code = 2  # the mutant broke an import a conftest makes: as for a test file's
        return code, done.stdout[-3000:] + done.stderr[-3000:]


def imports_of(path: Path, project: Project, known: set[str]) -> set[str]:
    """The project modules a file imports (anywhere in it, lazily too), and those it
    names in a string (imported by name elsewhere)."""
    name = project.module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)
    found = {m for m in out if m in known}
    # importing a.b.c runs a/__init__ and a.b/__init__ too
    return found | {p for m in found for p in _parents(m) if p in known}


def _parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def test_tiers(project: Project, target: Path) -> tuple[list[Path], list[Path]]:
    """The module's own test files (importing it, or a package that re-exports it,
    themselves or through test helpers), and the other test files that reach it."""
    files = project.python_files()
    names = {project.module_name(f): f for f in files}
    graph = {name: imports_of(f, project, set(names)) for name, f in names.items()}
    module = project.module_name(target)
    exporters = {module} | {p for p in _parents(module) if module in graph.get(p, ())}
    tests_root = project.root / project.tests

    def closure(start: str, through: Callable[[str], bool]) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    if through(nxt):
                        todo.append(nxt)
        return seen

    tests = project.tests.replace("/", ".")
    own: list[Path] = []
    reach: list[Path] = []
    for name, f in names.items():
        if not (f.is_relative_to(tests_root) and f.name.startswith("test_")):
            continue
        if closure(name, lambda m: m.startswith(f"{tests}.")) & exporters:
            own.append(f)
        elif module in closure(name, lambda m: True):
            reach.append(f)
    return own, reach


@dataclasses.dataclass
class Coverage:
    """Which tests executed each line of each target, and how long each test took."""

    lines: dict[str, dict[int, set[str]]]
    durations: dict[str, float]

    def reached(self, path: Path) -> set[str]:
        """Every test that executed any line of the file."""
        return {t for tests in self.lines.get(str(path), {}).values() for t in tests} - {""}

    def tests_for(self, path: Path, mutant: Mutant) -> list[str]:
        """The tests to run for a mutant, fastest first: those that executed its lines;
        for a line run as its module was imported (module level, or a function building
        a module-level table), every test of the map, those that reached the module
        first: a test may read a table (`LINES`, an event's kind) and execute nothing
        else of its module, so coverage never ties it to the module. None if not run."""
        ran = self._ran(path, mutant)
        if not ran:
            return []
        if not (mutant.module_level or "" in ran):
            return sorted(ran, key=lambda t: (self.durations.get(t, 0.0), t))
        first = ran | self.reached(path)
        return sorted(
            set(self.durations) | (ran - {""}),
            key=lambda t: (t not in first, self.durations.get(t, 0.0), t),
        )

    def at_import(self, path: Path, mutant: Mutant) -> bool:
        """Whether a line of the mutant ran while the module was imported (a function
        that builds a module-level table): swapping its code after the import would
        leave the table as it was, so the mutant needs a fresh import."""
        return "" in self._ran(path, mutant)

    def _ran(self, path: Path, mutant: Mutant) -> set[str]:
        """The tests (and "" for the import) that executed the mutant's lines, else its
        statement's first line (the only one coverage records of some statements)."""
        by_line = self.lines.get(str(path), {})
        lines = range(mutant.line, mutant.end_line + 1)
        if not any(n in by_line for n in lines):
            lines = range(mutant.statement, mutant.statement + 1)
        return set().union(*(by_line.get(n, set()) for n in lines))


def _mapped(cached: Path) -> list[str]:
    return list(json.loads(cached.read_text()).get("targets", []))


def coverage_map(project: Project, targets: list[Path], files: list[Path], cache: Path) -> Coverage:
    """Run `files` once under coverage with a context per test (cached by the contents of
    every source and test file and the files run; a map of more targets serves too)."""
    if not files:
        return Coverage({}, {})
    digest = hashlib.sha256()
    for f in project.python_files():
        digest.update(str(f).encode() + f.read_bytes())
    digest.update(repr(sorted(map(str, files))).encode())
    cached = cache / f"coverage-{digest.hexdigest()[:16]}.json"
    if cached.exists() and not set(map(str, targets)) <= set(_mapped(cached)):
        cached.unlink()
    if not cached.exists():
        cache.mkdir(parents=True, exist_ok=True)
        output = cache / "coverage-run"
        for old in cache.glob("coverage-run.*"):
            old.unlink()
        env = {MAP_ENV: ":".join(map(str, targets)) + "|" + str(output)}
        print(f"  coverage map: {len(files)} test files...", file=sys.stderr, flush=True)
        code, log = project.pytest([str(f) for f in files], env, timeout=None)
        if code not in (0, 1):
            raise SystemExit(f"the coverage run failed (exit {code}):\n{log}")
        merged: dict[str, Any] = {"lines": {}, "durations": {}, "targets": list(map(str, targets))}
        for part in cache.glob("coverage-run.*"):
            data = json.loads(part.read_text())
            merged["durations"] |= data["durations"]
            for path, by_line in data["lines"].items():
                mine = merged["lines"].setdefault(path, {})
                for n, tests in by_line.items():
                    mine[n] = sorted(set(mine.get(n, [])) | set(tests))
            part.unlink()
        cached.write_text(json.dumps(merged))
    data = json.loads(cached.read_text())
    lines = {
        path: {int(n): set(tests) for n, tests in by_line.items()}
        for path, by_line in data["lines"].items()
    }
    return Coverage(lines, data["durations"])


@dataclasses.dataclass
class Outcome:
    mutant: Mutant
    status: str
    """killed, timeout (killed: it never finished), survived, not reached, equivalent."""
    tests: int = 0
    tier: int = 0
    files: tuple[str, ...] = ()
    why: str = ""
    forked: bool = False
    """Run in a fork of the fork server (else in a fresh pytest)."""


def run_mutant(
    project: Project,
    name: str,
    path: Path,
    mutant: Mutant,
    tests: list[str],
    cov: Coverage,
    scratch: Path,
    server: Server | None = None,
    floor: float = BUDGET_FLOOR,
) -> tuple[str, bool]:
    """killed, timeout, survived (or `error: ...` when pytest could not run the tests),
    and whether it ran in a fork of `server` (a mutant inside a function) rather than in
    a fresh pytest. A run longer than `floor` seconds plus three times its tests' time
    in the coverage run is a timeout."""
    budget = floor + 3 * sum(cov.durations.get(t, 1.0) for t in tests)
    if cov.at_import(path, mutant):
        server = None
    status = server.run(mutant.index, tests, budget) if server is not None else None
    if status is not None:
        return status, True
    args = scratch / f"tests-{os.getpid()}-{mutant.index}.txt"
    args.write_text("\n".join(tests) + "\n")
    try:
        env = {MUTANT_ENV: f"{name}|{path}|{mutant.index}"}
        code, log = project.pytest(["-x", f"@{args}"], env, timeout=budget)
        if code in NOT_FOUND:  # the mutant changed the tests' parameters: run their files
            args.write_text("\n".join(sorted({t.split("::")[0] for t in tests})) + "\n")
            code, log = project.pytest(["-x", f"@{args}"], env, timeout=budget)
    finally:
        args.unlink()
    return ("timeout" if code is None else _status(code, log)), False


def load_equivalents(path: Path = EQUIVALENTS) -> dict[tuple[str, ...], str]:
    """The listed equivalent mutants: (module, scope, operator, before, after) -> why."""
    if not path.exists():
        return {}
    entries = tomllib.loads(path.read_text()).get("equivalent", [])
    return {
        (e["module"], e["scope"], e["operator"], e["before"], e["after"]): e["why"] for e in entries
    }


@dataclasses.dataclass
class Report:
    module: str
    path: str
    total: int
    outcomes: list[Outcome]
    seconds: float
    cpu_seconds: float
    stale: list[str]

    def count(self, *statuses: str) -> int:
        return sum(o.status in statuses for o in self.outcomes)

    @property
    def killed(self) -> int:
        return self.count("killed", "timeout")

    @property
    def scored(self) -> int:
        return len(self.outcomes) - self.count("equivalent")

    @property
    def score(self) -> float:
        return self.killed / self.scored if self.scored else 1.0

    def survivors(self) -> list[Outcome]:
        """The mutants no test killed (and those pytest could not run: `error: ...`)."""
        return [
            o for o in self.outcomes
            if o.status in ("survived", "not reached") or o.status.startswith("error")
        ]  # fmt: skip


def campaign(
    project: Project,
    modules: Sequence[str],
    sample: int = SAMPLE,
    seed: int = SEED,
    workers: int = 1,
    own_tests: Sequence[str] = (),
    narrow: bool = False,
    exclude: Sequence[str] = (),
    only: Sequence[int] = (),
    again: Path | None = None,
    out: Path | None = None,
    equivalents: dict[tuple[str, ...], str] | None = None,
    progress: Callable[[str], None] = lambda line: None,
    floor: float = BUDGET_FLOOR,
) -> list[Report]:
    """Mutate each module and run its tests for each mutant (see the module's doc)."""
    out = out or project.root / ".mutate"
    out.mkdir(parents=True, exist_ok=True)
    equivalents = load_equivalents() if equivalents is None else equivalents
    paths = [project.resolve(m) for m in modules]
    tiers = {p: test_tiers(project, p) for p in paths}
    if own_tests:
        tiers = {p: ([project.root / t for t in own_tests], r) for p, (_, r) in tiers.items()}
    dropped = {(project.root / f).resolve() for f in exclude}
    tiers = {
        p: ([f for f in own if f not in dropped], [f for f in reach if f not in dropped])
        for p, (own, reach) in tiers.items()
    }
    first = sorted({f for own, _ in tiers.values() for f in own})
    cov1 = coverage_map(project, paths, first, out)
    unseen = [str(p) for p in paths if tiers[p][0] and str(p) not in cov1.lines]
    if unseen:
        raise SystemExit(f"no test imported {', '.join(unseen)} from {project.root}")
    cov2: Coverage | None = None
    reports = []
    for path in paths:
        start, cpu = time.perf_counter(), _children_cpu()
        name = project.module_name(path)
        every = mutants(path.read_text(), str(path))
        chosen = every if not sample or sample >= len(every) else _sample(every, sample, seed)
        if only:
            chosen = [m for m in every if m.index in only]
        if again is not None:  # the survivors of an earlier report, by what they change
            earlier = again / f"{name.replace('.', '_')}.json"
            keys = {o.mutant.key for o in load_report(earlier).survivors()}
            chosen = [m for m in every if m.key in keys]
        outcomes = _run_tier(
            project, name, path, chosen, cov1, 1, workers, equivalents, progress, out, floor
        )
        if not narrow and any(o.status in ("survived", "not reached") for o in outcomes):
            if cov2 is None:
                second = sorted({f for _, reach in tiers.values() for f in reach})
                cov2 = coverage_map(project, paths, second, out)
            again = [o.mutant for o in outcomes if o.status in ("survived", "not reached")]
            redone = _run_tier(
                project, name, path, again, cov2, 2, workers, equivalents, progress, out, floor
            )
            done = {o.mutant.index: o for o in redone if o.status != "not reached"}
            outcomes = [done.get(o.mutant.index, o) for o in outcomes]
        listed = {k[1:]: why for k, why in equivalents.items() if k[0] == name}
        made = {m.key for m in every}
        killed = {o.mutant.key for o in outcomes if o.status in ("killed", "timeout")}
        stale = [" / ".join(k) for k in listed if k not in made or k in killed]
        report = Report(
            name, str(path.relative_to(project.root)), len(every), outcomes,
            time.perf_counter() - start, _children_cpu() - cpu, stale,
        )  # fmt: skip
        reports.append(report)
        write_report(report, out, seed, sample, project.root)
    return reports


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _sample(every: list[Mutant], n: int, seed: int) -> list[Mutant]:
    return sorted(random.Random(seed).sample(every, n), key=lambda m: m.index)


def _run_tier(
    project: Project,
    name: str,
    path: Path,
    chosen: list[Mutant],
    cov: Coverage,
    tier: int,
    workers: int,
    equivalents: dict[tuple[str, ...], str],
    progress: Callable[[str], None],
    scratch: Path,
    floor: float,
) -> list[Outcome]:
    reached = sorted({t.split("::")[0] for t in cov.reached(path) or cov.durations})
    idle: queue.SimpleQueue[Server] = queue.SimpleQueue()
    servers: list[Server] = []

    def one(mutant: Mutant) -> Outcome:
        why = equivalents.get((name, *mutant.key))
        tests = cov.tests_for(path, mutant)
        files = tuple(sorted({t.split("::")[0] for t in tests}))
        forked = False
        if not tests:
            status = "not reached"
        else:
            try:
                server = idle.get_nowait()
            except queue.Empty:
                server = Server(project, name, path, [project.root / f for f in reached])
                servers.append(server)
            status, forked = run_mutant(
                project, name, path, mutant, tests, cov, scratch, server, floor
            )
            idle.put(server)

        if why is not None and status in ("survived", "not reached"):
            status = "equivalent"  # listed: no test could show it, reached or not
        progress(f"  {path.name}:{mutant.line} {mutant.describe()}: {status} ({len(tests)} tests)")
        return Outcome(mutant, status, len(tests), tier, files, why or "", forked)

    try:
        with concurrent.futures.ThreadPoolExecutor(max(1, workers)) as pool:
            return list(pool.map(one, chosen))
    finally:
        for server in servers:
            server.close()


def commit_of(root: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    dirty = subprocess.run(
        ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    commit = done.stdout.strip() or "unknown"
    return commit + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def summary_row(report: Report) -> str:
    """One line of the table: module, mutants, killed, equivalent, survived, score, time."""
    return (
        f"| {report.path} | {report.total} | {len(report.outcomes)} | {report.killed} | "
        f"{report.count('equivalent')} | {len(report.survivors())} | "
        f"{report.score:.0%} | {report.seconds / 60:.1f} min ({report.cpu_seconds / 60:.1f} "
        f"CPU) |"
    )


SUMMARY_HEAD = (
    "| module | mutants | run | killed | equivalent | survived | score | time (wall, CPU) |\n"
    "|---|---|---|---|---|---|---|---|"
)


def survivor_lines(report: Report) -> list[str]:
    lines = []
    for o in report.survivors():
        m = o.mutant
        ran = f"{o.tests} tests of {', '.join(o.files)}" if o.tests else "no test reaches it"
        lines.append(f"- {report.path}:{m.line} `{m.scope}` {m.describe()} — {o.status}: {ran}")
    return lines


def equivalent_lines(report: Report) -> list[str]:
    return [
        f"- {report.path}:{o.mutant.line} `{o.mutant.scope}` {o.mutant.describe()} — {o.why}"
        for o in report.outcomes
        if o.status == "equivalent"
    ]


def write_report(report: Report, out: Path, seed: int, sample: int, root: Path = ROOT) -> None:
    """The module's report as Markdown and JSON in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    stem = report.module.replace(".", "_")
    head = (
        f"# Mutants of {report.path}\n\n{datetime.date.today()}, commit "
        f"{commit_of(root)}; sample {sample or 'all'}, seed "
        f"{seed}; operators: {', '.join(OPERATORS)}.\n\n{SUMMARY_HEAD}\n{summary_row(report)}\n"
    )
    parts = [head, "## Survivors\n", *survivor_lines(report), "\n## Equivalent\n"]
    parts += equivalent_lines(report)
    if report.stale:
        parts += ["\n## Stale equivalents (killed, or no longer made)\n"]
        parts += [f"- {s}" for s in report.stale]
    (out / f"{stem}.md").write_text("\n".join(parts) + "\n")
    rows = [
        dataclasses.asdict(o.mutant) | {"status": o.status, "tests": o.tests, "tier": o.tier,
                                        "files": o.files, "why": o.why,
                                        "forked": o.forked}
        for o in report.outcomes
    ]  # fmt: skip
    data = {
        "module": report.module, "path": report.path, "total": report.total, "seed": seed,
        "sample": sample, "score": report.score, "seconds": report.seconds,
        "cpu_seconds": report.cpu_seconds, "stale": report.stale, "mutants": rows,
    }  # fmt: skip
    (out / f"{stem}.json").write_text(json.dumps(data, indent=1))


def load_report(path: Path) -> Report:
    """A report as `write_report` saved it (JSON)."""
    data = json.loads(path.read_text())
    names = {f.name for f in dataclasses.fields(Mutant)}
    outcomes = [
        Outcome(
            Mutant(**{k: v for k, v in row.items() if k in names}),
            row["status"],
            row["tests"],
            row["tier"],
            tuple(row["files"]),
            row["why"],
            row.get("forked", False),
        )  # fmt: skip
        for row in data["mutants"]
    ]
    return Report(
        data["module"], data["path"], data["total"], outcomes, data["seconds"],
        data["cpu_seconds"], data["stale"],
    )  # fmt: skip


def equivalent_entry(report: Report, outcome: Outcome) -> str:
    """The TOML entry that would list a survivor as equivalent (its `why` to be written)."""
    m = outcome.mutant
    return (
        f'[[equivalent]]\nmodule = "{report.module}"\nscope = "{m.scope}"\n'
        f'operator = "{m.operator}"\nbefore = {json.dumps(m.before)}\n'
        f'after = {json.dumps(m.after)}\nwhy = ""\n'
    )


BEFORE = """on commit 3893bed (2026-11-28), 50 mutants a module, seed 44, the first
tier `tests/rules` alone: the PassPass engine 90 %, Flip Done's 98 %, Swiped's 96 %, VNP's
94 % (equivalents left out); after them, 100 % each (the survivors run again). The pace,
the journal, pairing and the club link on commit 790b028 (2026-11-29, their own tests, 50
mutants each): 85 % (49 run), 86 %, 100 %, 93 %; after their tests, 100 %, 98 %, 100 %,
98 % (the survivors run again). Issue 44 was filed with 98 %, 91 %, 86 %, 67 %."""
"""The same campaign before issue 44's tests (history, not re-run)."""


def by_own_tests(project: Project, modules: Sequence[str]) -> dict[tuple[str, ...], list[str]]:
    """The modules (paths or dotted names) grouped by their `OWN_TESTS` (() for a module
    without), in order."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for module in modules:
        path = str(project.resolve(module).relative_to(project.root))
        groups.setdefault(OWN_TESTS.get(path, ()), []).append(module)
    return groups


def readme(quick: bool) -> str:
    """bench/README.md's section: the campaign over `MODULES` (first tier `OWN_TESTS`,
    alone where given; quick: 20 mutants a module, first tier only), the survivors, the
    equivalents and why, the figures before."""
    sample = 20 if quick else SAMPLE
    started = time.perf_counter()
    reports = []
    for own, modules in by_own_tests(Project(ROOT), MODULES).items():
        reports += campaign(
            Project(ROOT), modules, sample, SEED, own_tests=own, narrow=quick or bool(own),
            progress=lambda line: print(line, file=sys.stderr, flush=True),
        )  # fmt: skip
    minutes = (time.perf_counter() - started) / 60
    rows = "\n".join(summary_row(r) for r in reports)
    survivors = "\n".join(line for r in reports for line in survivor_lines(r)) or "None."
    equivalent = "\n".join(line for r in reports for line in equivalent_lines(r)) or "None."
    stale = [f"- {r.path}: {s}" for r in reports for s in r.stale]
    stale_text = (
        "\n\nListed as equivalent but killed or no longer made:\n" + "\n".join(stale)
        if stale
        else ""
    )
    return f"""## mutate.py — mutation scores: what would no test notice?

`.venv/bin/python bench/mutate.py [MODULE...]` (or `make mutate MODULE=...`) changes one
module's code one small way at a time (operators: {", ".join(OPERATORS)}) and runs, for
each mutant, only the tests that coverage says execute the changed lines: first the
module's own test files, then, for the survivors, every other test file that reaches it.
A test that fails kills the mutant. A survivor is a gap of the tests or an equivalent
mutant (no behaviour can show it); equivalents are listed with why in
bench/mutation_equivalents.toml and left out of the score (killed / (run - equivalent)).
This run: commit {commit_of(ROOT)}, {datetime.date.today()}, {sample} mutants a module
drawn with seed {SEED}{", first tier only (`--quick`)" if quick else ""}; 1 worker on this
shared 2-core machine, {minutes:.0f} minutes in all (wall-clock times are those of a busy
machine; CPU is the tests' processes' own).

{SUMMARY_HEAD}
{rows}

Survivors (a gap of the tests, to close):

{survivors}

Equivalent survivors (left out of the score):

{equivalent}{stale_text}

Before issue 44's tests (history, not re-run): {BEFORE}
"""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[1:]),
    )  # fmt: skip
    parser.add_argument(
        "modules", nargs="*", default=MODULES, metavar="MODULE",
        help="a path or dotted name (default: every engine, the pace, journal, pairing, link)",
    )  # fmt: skip
    parser.add_argument("--sample", type=int, default=SAMPLE, help="mutants a module (0: all)")
    parser.add_argument("--seed", type=int, default=SEED, help="the sample's seed")
    parser.add_argument("--workers", type=int, default=1, help="mutants run at once")
    parser.add_argument(
        "--tests", nargs="*", default=(),
        help="the first tier's test files (default: the module's OWN_TESTS, no second tier; "
        "else the files importing it)",
    )  # fmt: skip
    parser.add_argument("--narrow", action="store_true", help="no second tier")
    parser.add_argument("--exclude", nargs="*", default=(), help="test files never run")
    parser.add_argument(
        "--mutants", type=lambda text: [int(i) for i in text.split(",")], default=(),
        help="only these mutants (numbers as --list shows them, e.g. 3,17), not a sample",
    )  # fmt: skip
    parser.add_argument("--root", type=Path, default=ROOT, help="the project (default: ours)")
    parser.add_argument("--out", type=Path, help="reports and coverage maps (.mutate/)")
    parser.add_argument(
        "--again", type=Path, metavar="DIR",
        help="only the survivors of the reports in DIR (an earlier --out), not a sample",
    )  # fmt: skip
    parser.add_argument("--list", action="store_true", help="only list the mutants")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:  # MODULE is: the module's name, its path, the test files
        name, path, *files = args.modules
        serve(name, path, files, list(Project(Path.cwd()).pytest_args))
        return 0
    project = Project(args.root.resolve())
    if args.list:
        for module in args.modules:
            path = project.resolve(module)
            for m in mutants(path.read_text(), str(path)):
                print(f"{path.relative_to(project.root)}:{m.line} #{m.index} {m.describe()}")
        return 0
    groups = {tuple(args.tests): list(args.modules)}
    if not args.tests:
        groups = by_own_tests(project, args.modules)
    reports = []
    for own, modules in groups.items():
        reports += campaign(
            project, modules, args.sample, args.seed, args.workers, own,
            args.narrow or bool(own), args.exclude, args.mutants, args.again, args.out,
            progress=lambda line: print(line, file=sys.stderr, flush=True),
        )  # fmt: skip
    print(SUMMARY_HEAD)
    for report in reports:
        print(summary_row(report))
    for report in reports:
        for line in survivor_lines(report):
            print(line)
        for stale in report.stale:
            print(f"- stale equivalent of {report.path}: {stale}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
