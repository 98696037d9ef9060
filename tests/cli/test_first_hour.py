"""What a new user meets first: a folder that is not a bundle, a mistyped command or option, and
examples in --help that can be followed without writing into the shipped sample (issue 35)."""

import re
import shutil
import zipfile

import pytest

NOT_A_BUNDLE = ("is not a bundle: a bundle is a folder (or a .zip of one) holding reference/, registers/ and "
                "ledgers/ (CSV files, or sheets of .xlsx workbooks); data/sample is one, and `pound template "
                "--bundle BUNDLE --out registers_2026-11.xlsx` writes the workbook of the registers to fill in")


@pytest.mark.parametrize("command", ["run", "ingest"])
def test_an_empty_folder_is_one_line_exit_2(tmp_path, run_cli, command):
    empty = tmp_path / "empty"
    empty.mkdir()
    where = ["--out", tmp_path / "o"] if command == "run" else ["--db", tmp_path / "p.duckdb"]
    code, out, err = run_cli(command, empty, *where)
    assert code == 2 and out == ""
    assert err.splitlines() == [f"{empty}: {NOT_A_BUNDLE}"]
    assert not (tmp_path / "o").exists()


def test_the_projects_docs_and_its_root_are_one_line_each(tmp_path, run_cli, sample_bundle):
    """A project's folder given by mistake, as a checkout stands after `make demo` (the demo's
    review workbook, whose sheet is a register's, in demo/): built here, not read from the
    checkout, whose other folders a test never reads."""
    from openpyxl import Workbook

    checkout = sample_bundle.parent.parent
    root = tmp_path / "project"
    shutil.copytree(checkout / "docs", root / "docs")
    for name in ("README.md", "pyproject.toml", "Makefile"):
        shutil.copyfile(checkout / name, root / name)
    (root / "demo").mkdir()
    wb = Workbook()
    wb.active.title = "finding_reviews"
    wb.active.append(["rule_id", "subject_id", "reviewed_on", "reviewed_by", "decision", "note"])
    wb.save(root / "demo" / "review_2026-10.xlsx")
    for folder in (root / "docs", root):
        code, out, err = run_cli("run", folder, "--out", tmp_path / "o")
        assert code == 2 and err.splitlines() == [f"{folder}: {NOT_A_BUNDLE}"], err[:500]
    assert not (tmp_path / "o").exists()


def test_a_zip_that_holds_no_bundle_is_named_as_the_zip(tmp_path, run_cli):
    z = tmp_path / "notes.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("minutes.txt", "the meeting")
    code, _, err = run_cli("run", z, "--out", tmp_path / "o")
    assert code == 2 and err.splitlines() == [f"{z}: {NOT_A_BUNDLE}"]


def test_twins_a_bundle_a_month_of_registers_and_a_lone_workbook_are_bundles(tmp_path, run_cli, sample_bundle, shared):
    # the sample's `pound run`, made once for the session (tests/shared.py: it stops there unless the run
    # exits 0), copied here, and what it said
    shared.run(sample_bundle, "2026-11-30", tmp_path / "o")
    assert "is not a bundle" not in shared.run_said(sample_bundle, "2026-11-30")
    # a month's registers alone (no reference/): ingest reads them into a database that has the rest
    month = tmp_path / "month"
    shutil.copytree(sample_bundle / "registers", month / "registers")
    code, _, err = run_cli("ingest", month, "--db", tmp_path / "o" / "pound.duckdb")
    assert "is not a bundle" not in err
    # a folder holding only a workbook whose sheets are registers is read as a bundle
    from openpyxl import Workbook

    lone = tmp_path / "lone"
    lone.mkdir()
    wb = Workbook()
    wb.active.title = "complaints"
    wb.active.append(["case_id", "filed_on", "outcome"])
    wb.save(lone / "book.xlsx")
    code, _, err = run_cli("ingest", lone, "--db", tmp_path / "p.duckdb")
    assert "is not a bundle" not in err and "book.xlsx [sheet complaints]" in err   # read as a register


def test_a_hidden_folder_is_not_opened(tmp_path, run_cli, sample_bundle):
    bundle = tmp_path / "b"
    shutil.copytree(sample_bundle, bundle)
    (bundle / ".git").mkdir()
    (bundle / ".git" / "notes.csv").write_text("x\n")
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "o", "--as-of", "2026-11-30")
    assert code == 0 and ".git" not in err


def test_a_mistyped_option_is_named_with_the_one_meant(run_cli):
    code, out, err = run_cli("run", "data/sample", "--otu", "o4")
    assert code == 1 and out == ""
    assert err == "pound: --otu: did you mean --out? (pound run --help lists every option, with an example)\n"
    code, _, err = run_cli("documents", "--db", "x.duckdb", "--out", "p", "--pfd")
    assert code == 1 and err.startswith("pound: --pfd: did you mean --pdf?")
    code, _, err = run_cli("run", "x", "--out", "y", "--as-of=2026-10-31", "--paramz=p.toml")
    assert code == 1 and err.startswith("pound: --paramz: did you mean --params?")
    # nothing close: named all the same, not "the following arguments are required: --out"
    code, _, err = run_cli("run", "data/sample", "--zzz", "o4")
    assert code == 1 and err.startswith("pound: --zzz is not an option of pound run")


def test_twin_an_option_written_whole_or_abridged_is_taken(tmp_path, run_cli):
    code, _, err = run_cli("run", tmp_path / "nothing", "--out", tmp_path / "o", "--as", "2026-10-31")
    assert code == 1 and err == f"pound: bundle folder {tmp_path / 'nothing'} does not exist\n"


def test_a_mistyped_command_is_named_with_the_one_meant(run_cli):
    code, out, err = run_cli("reprot", "--db", "x")
    assert code == 1 and out == ""
    assert err == "pound: reprot: did you mean report? (pound --help lists every command, with an example)\n"
    code, _, err = run_cli("--debug", "synht", "--out", "x")
    assert err.startswith("pound: synht: did you mean synth?")
    # nothing close: argparse lists the commands
    code, _, err = run_cli("xyzzy")
    assert code == 1 and "invalid choice: 'xyzzy' (choose from 'run'" in err


def test_twin_a_command_written_right_is_not_questioned(run_cli):
    code, out, err = run_cli("report", "--help")
    assert code == 0 and "did you mean" not in out + err


WRITES = ("--out", "--db", "--bundle")


def _examples(text: str) -> list[list[str]]:
    import shlex

    return [shlex.split(line.strip().split("  ")[0]) for line in text.splitlines() if line.strip().startswith("pound ")]


def test_no_example_in_any_help_writes_into_the_sample(run_cli):
    from pipeline.cli import build_parser

    pages = [run_cli("--help")[1]] + [run_cli(c, "--help")[1] for c in build_parser().commands]
    examples = [e for page in pages for e in _examples(page)]
    assert len(examples) >= 20
    for ex in examples:
        for opt, value in zip(ex, ex[1:], strict=False):
            if opt in WRITES:
                assert not value.startswith("data/sample"), ex
        # pound verify and pound close name a bundle's folder: never the sample's
        assert not any(re.match(r"data/sample/closes", t) for t in ex), ex


def test_twin_the_check_of_the_examples_sees_a_write_into_the_sample():
    ex = _examples('  pound close --db out/pound.duckdb --month 2026-10 --by "DM" --bundle data/sample\n')
    assert ex and any(o in WRITES and v.startswith("data/sample") for o, v in zip(ex[0], ex[0][1:], strict=False))


def _readme_commands(text: str) -> list[list[str]]:
    """The `pound` commands of the README's code blocks (continued lines joined), lines with placeholders (<...>, [...]) left out."""
    import shlex

    out, block = [], False
    for line in text.replace("\\\n", " ").splitlines():
        if line.startswith("```"):
            block = not block
            continue
        words = line.split("#")[0].strip()
        if block and words.startswith(("pound ", ".venv/bin/pound ")) and not any(c in words for c in "<[|"):
            out.append(shlex.split(words)[1:])
    return out


def test_every_command_the_readme_shows_is_one_pound_takes(sample_bundle, capsys):
    from pipeline.cli import _parse, build_parser

    text = (sample_bundle.parent.parent / "README.md").read_text(encoding="utf-8")
    commands = _readme_commands(text)
    assert ["synth", "--out", "district", "--district", "Ballari", "--pounds", "20", "--months", "24", "--seed",
            "7"] in commands
    assert ["template", "--bundle", "mysuru", "--out", "registers_2026-11_P01.xlsx", "--pound", "P01"] in commands
    for argv in commands:
        try:
            _parse(build_parser(), argv)
        except SystemExit:
            pytest.fail(f"pound {' '.join(argv)}: {capsys.readouterr().err}")


def test_twin_a_readme_command_with_a_typo_is_seen(capsys):
    from pipeline.cli import _parse, build_parser

    (argv,) = _readme_commands("```\npound synth --otu district \\\n    --seed 7\n```\n")
    assert argv == ["synth", "--otu", "district", "--seed", "7"]
    with pytest.raises(SystemExit):
        _parse(build_parser(), argv)
    assert "--otu: did you mean --out?" in capsys.readouterr().err


def test_a_command_of_pound_s_own_reads_no_package_s_entry_points(monkeypatch):
    import pipeline.cli as cli

    def forbidden():
        raise AssertionError("entry points read")

    monkeypatch.setattr(cli, "plugged_in", forbidden)
    assert "run" in cli.build_parser(cli.command_named(["--debug", "run", "data/sample"])).commands


def test_twin_the_desk_and_the_list_of_commands_are_found_by_their_entry_point():
    import pipeline.cli as cli

    assert "desk" in cli.build_parser(cli.command_named(["desk", "--bundle", "b"])).commands
    assert "desk" in cli.build_parser(cli.command_named(["--help"])).commands
