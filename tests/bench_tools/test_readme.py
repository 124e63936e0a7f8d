"""bench/readme.py: bench/README.md is one marked section per bench, in the generator's
order; re-running some benches keeps the others' sections as they were."""

from __future__ import annotations

import platform
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import readme  # noqa: E402


def test_the_readme_has_a_marked_section_for_every_bench_in_order() -> None:
    text = (BENCH / "README.md").read_text()
    kept = readme.sections(text)
    assert list(kept) == list(readme.SECTIONS)
    for name, body in kept.items():
        assert body.startswith(f"## {name}.py"), name


def test_every_bench_section_names_a_module_of_bench() -> None:
    for name in readme.SECTIONS:
        assert (BENCH / f"{name}.py").exists(), name


def test_a_fresh_section_replaces_its_own_and_keeps_the_others() -> None:
    first, second = readme.SECTIONS[:2]
    kept = {first: f"## {first}.py — old\n", second: f"## {second}.py — kept\n"}
    text = readme.render("# Benchmarks\n", kept, {first: f"## {first}.py — new\n"})
    again = readme.sections(text)
    assert again == {first: f"## {first}.py — new\n\n", second: f"## {second}.py — kept\n\n"}
    assert text.index(first) < text.index(second)


def test_rendering_what_was_read_changes_nothing() -> None:
    text = (BENCH / "README.md").read_text()
    first = readme.MARK.search(text)
    assert first is not None
    head = text[: first.start()]
    assert readme.render(head, readme.sections(text), {}) == text


def test_the_machine_is_named_with_its_load() -> None:
    line = readme.machine()
    assert f"CPython {platform.python_version()}" in line
    assert "cores" in line and "the load average then" in line


def test_an_unknown_bench_is_refused_in_one_line(capsys) -> None:  # type: ignore[no-untyped-def]
    assert readme.main(["no_such_bench"]) == 2
    assert capsys.readouterr().err == "no such bench section: no_such_bench (see SECTIONS)\n"


def test_prose_is_filled_and_tables_are_left_as_they_are() -> None:
    table = "| a | b |\n|---|---|\n| " + "x" * 120 + " | 1 |"
    prose = " ".join(["word"] * 40)
    items = "- " + " ".join(["item"] * 30) + "\n- short"
    text = readme.reflow(f"## title\n\n{prose}\n\n{table}\n\n{items}", width=50)
    blocks = text.split("\n\n")
    assert blocks[0] == "## title" and blocks[2] == table
    assert all(len(line) <= 50 for line in blocks[1].splitlines() + blocks[3].splitlines())
    assert " ".join(blocks[1].split()) == prose
    assert blocks[3].splitlines()[1].startswith("  item") and blocks[3].endswith("\n- short")
    code = "`.venv/bin/python bench/x.py` " + prose
    assert readme.reflow(code, width=50) != code  # a paragraph opening on a command is prose
