"""The README and docs/*.md say what can be checked truly: every file, folder and module of the project
they name exists; every `pound` command they show is one pound takes (a command line in a code block
parses whole; a command named in the text is a command, and each option named with it is one of its
own, as its --help lists them); and the README's suite time is the one `make test` last wrote
(tests/suite_time.txt, pipeline/tools/suite_time.py). No build: the texts and the parser only."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
import shlex
import sys

import pytest

from pipeline.core.paths import PACKAGE_DIR, ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# where a path the docs name is looked for: from the repository, the package, its SQL, the tests
BASES = [ROOT, PACKAGE_DIR, PACKAGE_DIR / "sql", ROOT / "tests"]
# the first folder of a path of the project (else it is a user's folder or an output: mysuru/, demo/)
PROJECT = {"pipeline", "tests", "docs", "notebooks", "data", "expectations", *(p.name for p in PACKAGE_DIR.iterdir()
                                                                                if p.is_dir()),
           *(p.name for p in (PACKAGE_DIR / "sql").iterdir() if p.is_dir())}
CODE = (".py", ".sql", ".j2", ".md")
# what a command or make target writes, under a name a folder of the project also has
OUTPUTS = re.compile(r"desk/bundle|reports/\d{4}-\d\d")
PLACEHOLDER = re.compile(r"[<>*{}\[\]$]|\.\.\.|[A-Z]{3,}")


def _named() -> list[tuple[str, str]]:
    out = []
    for doc in DOCS:
        for token in re.findall(r"`([^`\s]+)`", doc.read_text(encoding="utf-8")):
            out.append((doc.name, token.rstrip(".,;:")))
    return out


def _path_exists(token: str) -> bool:
    if token.startswith("pipeline.") and "/" not in token:
        return importlib.util.find_spec(token.removesuffix(".py")) is not None
    if any((base / t).exists() for base in BASES for t in (token, f"{token}.sql")):
        return True
    module, _, attr = token.rpartition(".")
    if "/" in module and attr.isidentifier() and not token.endswith(CODE):   # close/seal.figures_id_of
        files = [base / f"{module}.py" for base in BASES if (base / f"{module}.py").is_file()]
        return any(re.search(rf"^(def |class )?{attr}\b", f.read_text(encoding="utf-8"), re.M) for f in files)
    # a bare file name of the code (`select.py`) is one of the project's files
    return "/" not in token and any(ROOT.glob(f"pipeline/**/{token}")) or any(ROOT.glob(f"tests/**/{token}")) \
        or any(ROOT.glob(f"notebooks/{token}"))


def _checked(token: str) -> bool:
    """Whether a token names a path or module of the project (not a user's folder, nor an output)."""
    if PLACEHOLDER.search(token) or OUTPUTS.match(token):
        return False
    if re.fullmatch(r"pipeline(\.\w+)+", token):
        return True
    if "/" in token:
        return token.split("/")[0] in PROJECT
    return token.endswith(CODE) and token != ".py"


def test_every_path_and_module_the_docs_name_exists():
    missing = [f"{doc}: {token}" for doc, token in _named() if _checked(token) and not _path_exists(token)]
    assert missing == []


def test_twin_a_path_or_module_that_is_not_there_is_seen():
    assert _path_exists("core/whole.py") and _path_exists("marts/page_one") and _path_exists("close/seal.figures_id_of")
    assert not _path_exists("core/nothing.py") and not _path_exists("pipeline/params.py")
    assert not _path_exists("close/seal.no_such_function") and not _path_exists("pipeline.no_such")


def _commands() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The `pound` command lines of the code blocks (continued lines joined), and the commands named
    in the text, each with its document."""
    lines, named = [], []
    for doc in DOCS:
        block = False
        for line in doc.read_text(encoding="utf-8").replace("\\\n", " ").splitlines():
            if line.startswith("```"):
                block = not block
                continue
            if block:
                words = line.split(" #")[0].strip()
                if words.startswith(("pound ", ".venv/bin/pound ")):
                    lines.append((doc.name, words))
            else:
                named += [(doc.name, t) for t in re.findall(r"`((?:\.venv/bin/)?pound [^`]+)`", line)]
    return lines, named


def _parser():
    from pipeline.cli import build_parser

    return build_parser()


def test_every_command_line_the_docs_show_parses():
    from pipeline.cli import _parse

    lines, _ = _commands()
    assert len(lines) > 10
    failed = []
    for doc, words in lines:
        if any(c in words for c in "<[|") or "..." in words:
            continue
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err):
                _parse(_parser(), shlex.split(words)[1:])
        except SystemExit:
            failed.append(f"{doc}: {words}: {err.getvalue().strip().splitlines()[-1]}")
    assert failed == []


def test_every_command_the_docs_name_takes_the_options_named_with_it():
    lines, named = _commands()
    commands = _parser().commands
    wrong = []
    for doc, words in lines + named:
        argv = shlex.split(words.replace("'", " ").replace('"', " "))[1:]
        if not argv or argv[0].startswith("-") or "..." in argv[0]:
            continue
        command = commands.get(argv[0])
        if command is None:
            wrong.append(f"{doc}: {words}: no command {argv[0]}")
            continue
        options = set(command.long_options) | {"--help"}
        wrong += [f"{doc}: {words}: {argv[0]} takes no {o}" for o in argv[1:]
                  if o.startswith("--") and o.split("=")[0] not in options]
    assert wrong == []


def test_the_readme_states_the_suite_time_make_test_last_wrote():
    from pipeline.tools.suite_time import recorded

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    words = recorded().readme_words()
    assert words in " ".join(readme.split()), (f"make test recorded a new time on a quiet machine "
                                               f"(tests/suite_time.txt): put it in the README: {words}")


@pytest.mark.parametrize("load, written", [(0.2, True), (0.9, False)])
def test_a_suite_time_is_recorded_only_from_a_quiet_start_and_a_pass(tmp_path, monkeypatch, capsys, load, written):
    from pipeline.tools import suite_time

    monkeypatch.setattr(suite_time.os, "getloadavg", lambda: (load, load, load))
    record = tmp_path / "suite_time.txt"
    ok = [sys.executable, "-c", "print('3 passed in 0.1s')"]
    assert suite_time.main(["--record", "--", *ok], record_to=record) == 0
    assert record.exists() == written and ("not recorded" in capsys.readouterr().out) != written
    if written:
        assert record.read_text(encoding="utf-8").startswith("0 min 0 s, 3 tests, ")
    # a run that failed writes nothing, quiet or not
    record.unlink(missing_ok=True)
    assert suite_time.main(["--record", "--", sys.executable, "-c", "print('1 failed in 0.1s'); exit(1)"],
                           record_to=record) == 1
    assert not record.exists()


@pytest.mark.parametrize("line, ok", [("10 min 12 s, 1,313 tests, 6 Dec 2026, load 1.0", True),
                                      ("ten minutes", False)])
def test_a_suite_time_is_read_back_as_written(line, ok):
    from pipeline.tools.suite_time import parse

    if ok:
        assert parse(line).line() == line
    else:
        with pytest.raises(ValueError):
            parse(line)


def _environment_settings(text: str) -> set[str]:
    """The POUND_ settings a piece of code reads from the environment by name."""
    return set(re.findall(r"""(?:(?:environ\.get|getenv|now|setdefault)\(|environ\[)\s*["'](POUND_[A-Z_]+)["']""", text)
               + re.findall(r"""^[A-Z_]+ = ["'](POUND_[A-Z_]+)["']""", text, re.M))


def test_every_setting_the_tool_reads_from_the_environment_is_in_the_developers_guide():
    read = set()
    for path in PACKAGE_DIR.rglob("*.py"):
        read |= _environment_settings(path.read_text(encoding="utf-8"))
    assert {"POUND_THREADS", "POUND_TODAY", "POUND_DB_HELD"} <= read, read      # the reading is seen
    guide = (ROOT / "docs" / "guide-developers.md").read_text(encoding="utf-8")
    assert sorted(s for s in read if f"`{s}`" not in guide and f"`{s}=" not in guide) == []


def test_twin_a_setting_read_is_seen_by_each_way_of_reading_it():
    assert _environment_settings('os.environ.get("POUND_A")\nos.getenv("POUND_B")\nnow("POUND_C")\n'
                                 'HELD = "POUND_D"\nos.environ["POUND_E"]') == {f"POUND_{c}" for c in "ABCDE"}


def test_the_readme_names_every_stage_the_desk_says():
    from pipeline.desk.looked import SAID
    from pipeline.steps.state import STAGES

    text = re.sub(r"\s+", " ", (ROOT / "README.md").read_text(encoding="utf-8"))
    said = text[text.index("The page always says where the month stands"):]
    said = said[:said.index(". ")]
    assert [s for s in (SAID.get(stage, stage) for stage in STAGES) if f"{s};" not in said and f"{s} (" not in said] == []
