import pytest

from engine import rules
from engine.leagues import league
from engine.protocol import parse_command

L1, L2, L3 = league(1), league(2), league(3)


@pytest.mark.parametrize("line, kind, a, b", [
    ("WAIT", rules.WAIT, 0, 0),
    ("WAIT hello world", rules.WAIT, 0, 0),
    ("WAIT\t", rules.WAIT, 0, 0),
    ("WAIT\r", rules.WAIT, 0, 0),
    ("WAIT \x0b\x0c msg", rules.WAIT, 0, 0),
    ("GROW 7", rules.GROW, 7, 0),
    ("GROW 007 go", rules.GROW, 7, 0),
    ("COMPLETE 36", rules.COMPLETE, 36, 0),
    ("COMPLETE 37", rules.COMPLETE, 37, 0),
    ("COMPLETE 2147483647", rules.COMPLETE, 2147483647, 0),
    ("SEED 1 2", rules.SEED, 1, 2),
    ("SEED 01 002\tmsg", rules.SEED, 1, 2),
])
def test_well_formed_commands(line, kind, a, b):
    command = parse_command(line, L3)
    assert (command.kind, command.a, command.b, command.invalid) == (kind, a, b, None)


@pytest.mark.parametrize("line", [
    "", "wait", "WAITX", "JUMP 3", "GROW", "GROW  3", " GROW 3", "GROW -1", "GROW 3x", "SEED 1",
    "WAIT\u00a0msg",  # NBSP is not whitespace for Java's \s
    "GROW \u0663",  # Arabic-Indic digit: not ASCII
    "WAIT a\rb",  # Java's '.' stops at CR
])
def test_unparseable_lines_disqualify(line):
    command = parse_command(line, L3)
    assert command.kind == rules.NO_ACTION
    assert command.invalid == ("Invalid Input: Expected SEED <from> <to> | GROW <idx> | COMPLETE <idx> | WAIT "
                               f"but got '{line}'")


def test_number_overflow_is_a_java_number_format_error():
    command = parse_command("COMPLETE 99999999999", L3)
    assert command.invalid.endswith("""but got 'java.lang.NumberFormatException: For input string: "99999999999"'""")
    command = parse_command("SEED 3000000000 4000000000", L3)
    assert '"3000000000"' in command.invalid and "4000000000" not in command.invalid


def test_league_restricts_the_grammar():
    assert parse_command("GROW 3", L1).invalid == "Invalid Input: Expected COMPLETE <idx> | WAIT but got 'GROW 3'"
    assert parse_command("GROW 3", L2).kind == rules.GROW
    assert parse_command("SEED 1 2", L2).invalid.startswith("Invalid Input: Expected GROW <idx> | COMPLETE")
    assert parse_command("COMPLETE 3", L1).kind == rules.COMPLETE


def test_html_entities_are_unescaped_as_the_referee_does():
    assert parse_command("&lt;x&gt;", L3).invalid.endswith("but got '<x>'")
