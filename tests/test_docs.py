"""The documents a user reads are in the repository and agree with the code.

README.md and the help texts point to docs/; those files must exist, the example
configuration must pass `companion config check` as shipped, every ruling the code and the
tests cite must be explained in docs/rulings.md, and nothing a user reads may point outside
the repository (a user of the project has no team folders next to it).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLE = DOCS / "companion.example.toml"
RULING = re.compile(r"\b(?:PTI|PHI|FD|SW|VNP)-[0-9]+\b")
DOC_PATH = re.compile(r"docs/[A-Za-z0-9_.\-/]*[A-Za-z0-9_]")
OUTSIDE = ("../shared", "shared/design", "shared/rules")


def _files(*roots: Path, suffixes: tuple[str, ...] = (".py", ".md", ".toml", ".txt")) -> list[Path]:
    found: list[Path] = []
    for root in roots:
        if root.is_file():
            found.append(root)
        else:
            found.extend(p for p in sorted(root.rglob("*")) if p.is_file() and p.suffix in suffixes)
    return found


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_the_example_configuration_passes_config_check(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COMPANION_DATA", raising=False)
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    code = main(["config", "check", "--config", str(EXAMPLE)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "configuration OK" in out.out


def test_the_example_says_where_window_and_settle_are_explained() -> None:
    text = _text(EXAMPLE)
    assert "docs/table.md" in text
    assert re.search(r"^window = ", text, re.M) and re.search(r"^settle = ", text, re.M)


def test_every_docs_path_mentioned_exists() -> None:
    sources = _files(ROOT / "README.md", ROOT / "companion", DOCS)
    mentioned: dict[str, list[str]] = {}
    for source in sources:
        for match in DOC_PATH.findall(_text(source)):
            mentioned.setdefault(match, []).append(str(source.relative_to(ROOT)))
    assert "docs/journal.md" in mentioned and "docs/table.md" in mentioned
    missing = {path: where for path, where in mentioned.items() if not (ROOT / path).exists()}
    assert not missing, f"docs paths mentioned but not in the repository: {missing}"


def test_the_readme_points_to_every_document() -> None:
    readme = _text(ROOT / "README.md")
    for name in ("journal.md", "table.md", "rulings.md", "companion.example.toml"):
        assert f"docs/{name}" in readme


def test_the_readme_keeps_its_two_set_up_commands() -> None:
    readme = _text(ROOT / "README.md")
    block = re.search(r"## Set up[^\n]*\n+```sh\n(.*?)```", readme, re.S)
    assert block is not None
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert commands == ["make demo", "make test"]


def test_every_cited_ruling_is_in_rulings_md() -> None:
    cited: dict[str, str] = {}
    for source in _files(ROOT / "companion", ROOT / "tests"):
        for ruling in RULING.findall(_text(source)):
            cited.setdefault(ruling, str(source.relative_to(ROOT)))
    assert "PTI-7" in cited and "PHI-2" in cited
    explained = set(re.findall(r"\*\*((?:PTI|PHI|FD|SW|VNP)-[0-9]+)\b", _text(DOCS / "rulings.md")))
    missing = {ruling: where for ruling, where in cited.items() if ruling not in explained}
    assert not missing, f"rulings cited but not explained in docs/rulings.md: {missing}"


def test_every_ruling_of_rulings_md_is_explained_once() -> None:
    explained = re.findall(r"\*\*((?:PTI|PHI|FD|SW|VNP)-[0-9]+)\b", _text(DOCS / "rulings.md"))
    assert len(explained) == len(set(explained))
    for prefix, last in (("PTI", 15), ("PHI", 5), ("FD", 10), ("SW", 6), ("VNP", 7)):
        assert {f"{prefix}-{n}" for n in range(1, last + 1)} <= set(explained)


def test_nothing_a_user_reads_points_outside_the_repository() -> None:
    sources = _files(ROOT / "README.md", DOCS, ROOT / "companion")
    found = [
        f"{source.relative_to(ROOT)}:{number}: {line.strip()}"
        for source in sources
        for number, line in enumerate(_text(source).splitlines(), start=1)
        if any(marker in line for marker in OUTSIDE)
    ]
    assert not found, "\n".join(found)
