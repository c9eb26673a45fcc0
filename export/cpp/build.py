"""How CodinGame builds a C++ bot: g++ in C++17 and no -O flag, which is why an exported file carries its own
optimisation pragmas. The export's usage line, the tests and the benchmarks all build with it, so that their
figures are the ones a player gets."""
from __future__ import annotations

CODINGAME_FLAGS = ("-std=c++17",)
WARNINGS = ("-Wall", "-Wextra")  # added by the tests and benchmarks: an export compiles without any


def codingame_build(source: str, binary: str, *extra: str, compiler: str = "g++") -> list[str]:
    """The command that builds `source` into `binary` as CodinGame does (`extra`: flags such as WARNINGS)."""
    return [compiler, *CODINGAME_FLAGS, *extra, "-o", binary, source]
