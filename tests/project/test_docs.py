"""The README and docs/ against the code, so that they cannot drift from it: every `tuner` command line they show
parses with the real command line (the quick ones run, in a scratch directory), every `python -m` module and
`python` script they name exists, and every relative link leads to a file (and heading) that exists."""
from __future__ import annotations

import argparse
import importlib.util
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tuner.cli import COMMANDS, build_parser, main

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^[ \t]*```([^\n]*)\n(.*?)^[ \t]*```[ \t]*$", re.M | re.S)
SHELL = {"", "sh", "bash", "shell", "console"}  # fenced blocks in other languages (toml, json) hold no commands
CONTROL = {"&&", "||", ";", "&", "|", "(", ")"}
KEYWORDS = {"do", "then", "else", "time", "!"}  # words of a shell line that come before a command
# Commands quick enough to run (in a scratch directory): they play a game at most and need no study.
QUICK = {"map", "params", "play", "replay", "view"}


@dataclass(frozen=True)
class Command:
    page: Path
    line: int
    argv: tuple  # after `tuner`
    block: int  # the fenced block it is in, counted in the page; -1 for inline code

    def __str__(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}: tuner {shlex.join(self.argv)}"


def without_comment(line: str) -> str:
    """The line up to a shell comment: a `#` that starts a word, outside quotes (`study:X.toml#3` is no comment)."""
    quote = None
    for i, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def shell_lines(code: str) -> list[tuple[int, str]]:
    """A fenced block's lines (offset in the block, text), continuation lines joined, comments dropped."""
    out, pending, start = [], "", 0
    for offset, raw in enumerate(code.splitlines()):
        if not pending:
            start = offset
        text = without_comment(raw).rstrip()
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        out.append((start, pending + text))
        pending = ""
    return [(offset, text) for offset, text in out if text.strip()]


def before_redirection(argv: list[str], line: str) -> list[str]:
    """A command's words up to its first redirection (`> log`, `2>&1`: the `2` is the redirection's)."""
    for i, word in enumerate(argv):
        if set(word) <= set("<>&") and set(word) & set("<>"):
            attached = i > 0 and argv[i - 1].isdigit() and f"{argv[i - 1]}{word}" in line
            return argv[:i - 1] if attached else argv[:i]
    return argv


def tuner_argvs(line: str) -> list[list[str]]:
    """The `tuner` command lines in a shell line: the words after `tuner`, each command up to a control operator
    or a redirection (`a && tuner x > log 2>&1 & done` gives ["x"])."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split, lexer.commenters = True, ""
    commands, words = [], []
    for token in [*lexer, ";"]:
        if token not in CONTROL:
            words.append(token)
            continue
        while words and words[0] in KEYWORDS:
            words.pop(0)
        if words and words[0] == "tuner":
            commands.append(before_redirection(words[1:], line))
        words = []
    return commands


def line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def commands_of(page: Path) -> list[Command]:
    text = page.read_text(encoding="utf-8")
    found, fenced = [], []
    for block, match in enumerate(FENCE.finditer(text)):
        fenced.append(match.span())
        if match.group(1).strip() not in SHELL:
            continue
        first = line_of(text, match.start(2))
        for offset, line in shell_lines(match.group(2)):
            try:
                argvs = tuner_argvs(line)
            except ValueError as error:  # an unclosed quote: the line is no command line at all
                argvs = [[f"<{error}>", line]] if "tuner" in line else []
            found += [Command(page, first + offset, tuple(argv), block) for argv in argvs]
    outside = text
    for start, end in reversed(fenced):
        outside = outside[:start] + "\n" * text.count("\n", start, end) + outside[end:]
    for match in re.finditer(r"`(tuner [^`]+)`", outside):
        found.append(Command(page, line_of(outside, match.start()), tuple(shlex.split(match.group(1))[1:]), -1))
    return found


COMMAND_LINES = [command for page in PAGES for command in commands_of(page)]


def parse_errors(argv) -> str:
    """What the command line says of a whole command line: nothing when it parses."""
    try:
        build_parser().parse_args(list(argv))
    except SystemExit as error:
        return f"exit {error.code}"
    return ""


def _subcommands(parser: argparse.ArgumentParser) -> dict:
    return next((action.choices for action in parser._actions if isinstance(action, argparse._SubParsersAction)), {})


def mention_errors(argv) -> str:
    """What is wrong with a mention of a command in the text (`tuner export --params-out`): its command (and
    action) must exist, and so must every option it names."""
    parser = build_parser()
    words = list(argv)
    while words and not words[0].startswith("-"):
        commands = _subcommands(parser)
        if not commands:
            break
        if words[0] not in commands:
            return f"no command {words[0]!r}"
        parser = commands[words.pop(0)]
    for word in words:
        if word.startswith("-") and word.split("=")[0] not in parser._option_string_actions:
            return f"{parser.prog} has no option {word}"
    return ""


@pytest.mark.parametrize("command", COMMAND_LINES, ids=str)
def test_every_command_line_parses(command, capsys):
    """A command line of a fenced block parses whole; one in the text is a mention, whose command and options
    must exist."""
    problem = parse_errors(command.argv) if command.block >= 0 else mention_errors(command.argv)
    assert not problem, f"{command}: the command line refuses it ({problem}): {capsys.readouterr().err.strip()}"


def quick_blocks() -> list[list[Command]]:
    """Fenced blocks' commands that can run: quick commands with no program (`cmd:`) and no study."""
    blocks: dict = {}
    for command in COMMAND_LINES:
        if command.block >= 0 and command.argv[0] in QUICK and not any("cmd:" in word for word in command.argv):
            blocks.setdefault((command.page, command.block), []).append(command)
    return list(blocks.values())


@pytest.mark.parametrize("block", quick_blocks(), ids=lambda block: str(block[0]))
def test_the_quick_commands_run(block, tmp_path, monkeypatch, capsys):
    """A block's quick commands run in order in a scratch directory (`tuner play --trace game.jsonl` before
    `tuner replay game.jsonl`), each exiting 0."""
    monkeypatch.chdir(tmp_path)
    for command in block:
        status = main(list(command.argv))
        captured = capsys.readouterr()
        assert status == 0, f"{command}: exit {status}: {captured.err.strip()}"
        assert captured.out.strip(), f"{command}: printed nothing"


def test_the_docs_show_commands_and_run_some():
    """The extraction finds what the pages hold: the README's two set-up commands' `tuner` parts, every
    command of the CLI somewhere, and quick commands to run (else the tests above would pass on nothing)."""
    readme = [c.argv for c in COMMAND_LINES if c.page.name == "README.md" and c.block >= 0]
    assert ("tune", "studies/quickstart.toml", "--jobs", "all") in readme
    assert ("export", "studies/quickstart.toml", "--lang", "cpp", "--time-ms", "90", "-o",
            "bots/tuned/quickstart.cpp") in readme
    assert {c.argv[0] for c in COMMAND_LINES if c.block >= 0} == set(COMMANDS)
    ran = {c.argv[0] for block in quick_blocks() for c in block}
    assert {"map", "params", "play", "replay", "view"} <= ran


def test_the_checks_catch_broken_command_lines():
    """The extraction and the checks themselves: a broken command line or mention is refused."""
    assert tuner_argvs("x && tuner match heuristic greedy --games 10 > out.txt 2>&1 & done") == [
        ["match", "heuristic", "greedy", "--games", "10"]]
    assert tuner_argvs('tuner match "cmd:python3 a.py" study:s.toml#3') == [
        ["match", "cmd:python3 a.py", "study:s.toml#3"]]
    assert shell_lines("tuner gauntlet A \\\n  --against B   # comment\n") == [(0, "tuner gauntlet A    --against B")]
    assert parse_errors(["match", "A", "B", "--games", "10"]) == ""
    assert parse_errors(["match", "A", "B", "[--games", "1000]"])  # a bracketed synopsis does not parse
    assert parse_errors(["gauntlet", "A", "--against"])
    assert mention_errors(["storage", "export-plain"]) == mention_errors(["export", "--params-out"]) == ""
    assert mention_errors(["export", "--param-out"]) and mention_errors(["storage", "export"])
    assert mention_errors(["--help"]) == "" and mention_errors(["tunes"])


SCRIPT = re.compile(r"\bpython3? (?:-m ([\w.]+)|((?:[\w-]+/)*[\w-]+\.py)\b)")
WRITTEN = {c.argv[i + 1] for c in COMMAND_LINES for i, word in enumerate(c.argv[:-1]) if word in ("-o", "--output")}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_the_scripts_named_exist(page):
    """`python -m MODULE` and `python path/to/script.py` in a page name modules and files of the project (or
    files that a command of the docs writes, such as an exported bot)."""
    for module, script in SCRIPT.findall(page.read_text(encoding="utf-8")):
        if module:
            assert importlib.util.find_spec(module) is not None, f"{page.name}: no module {module}"
        else:
            assert (ROOT / script).is_file() or script in WRITTEN, f"{page.name}: no file {script}"


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them."""
    out = set()
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    for heading in re.findall(r"^#{1,6} +(.+?) *$", text, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.replace("`", "").lower()).replace(" ", "-")
        out.add(slug)
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(page):
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    links = re.findall(r"!?\[[^\]]*\]\(([^)\s]+)\)", text)
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        assert target.exists(), f"{page.name}: the link {link} leads to no file"
        if anchor and target.suffix == ".md":
            assert anchor in anchors(target), f"{page.name}: the link {link} leads to no heading of {target.name}"


README = ROOT / "README.md"
COMMIT_HASH = re.compile(r"(?<![0-9a-zA-Z_./-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![0-9a-zA-Z_-])")


def paragraphs(text: str) -> list[list[str]]:
    """The prose paragraphs of a Markdown text: runs of lines outside code blocks, tables, lists' items apart."""
    found: list[list[str]] = []
    current: list[str] = []
    in_code = False
    for line in text.splitlines() + [""]:
        if line.startswith("```"):
            in_code = not in_code
        starts_item = bool(re.match(r"\s*([-*]|\d+\.)\s", line))
        if in_code or line.startswith(("```", "|", "#")) or not line.strip() or starts_item:
            if current:
                found.append(current)
            current = [line] if starts_item and not in_code else []
        else:
            current.append(line)
    return found


def readme_shape_problems(text: str) -> list[str]:
    problems = []
    lines = text.splitlines()
    if len(lines) > 130:
        problems.append(f"{len(lines)} lines (at most 130)")
    problems += [f"a commit hash: {match.group()}" for match in COMMIT_HASH.finditer(text)]
    problems += [f"a paragraph of {len(p)} lines (at most 8): {p[0][:40]}..." for p in paragraphs(text) if len(p) > 8]
    return problems


def test_the_readme_is_a_short_guide():
    """At most 130 lines, no commit hash, no paragraph over 8 lines: a guide a player reads in five minutes."""
    assert readme_shape_problems(README.read_text(encoding="utf-8")) == []


def test_the_readme_checks_catch_a_long_readme_a_hash_and_a_long_paragraph():
    assert readme_shape_problems("# A guide\n\nRun `tuner tune`.\n") == []
    assert readme_shape_problems("line\n\n" * 70) == ["140 lines (at most 130)"]
    assert readme_shape_problems("measured at commit 0fb2e05 on a VM\n") == ["a commit hash: 0fb2e05"]
    assert readme_shape_problems("colour ffffff, seed 1234567, `tuner export`\n") == []
    long = "\n".join(["words"] * 9)
    assert readme_shape_problems(long) == ["a paragraph of 9 lines (at most 8): words..."]
    assert readme_shape_problems("- item\n" + "\n".join(["  more"] * 7) + "\n- next\n") == []


def test_ci_runs_the_readmes_test_command():
    """`.ci/run` runs exactly the README's test command (then the slow step)."""
    readme = README.read_text(encoding="utf-8")
    command = next(line for line in readme.splitlines() if line.startswith("python3 -m venv")
                   and line.endswith("&& pytest"))
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
