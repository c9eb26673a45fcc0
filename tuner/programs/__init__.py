"""Program bots (`bot = "cmd:..."` with a `[parameters]` table): their description in a study file (`program`),
their tuned values written into their own source or a JSON file (`template`), and the probe that a program starts
and answers (`probe`). The package imports none of them."""

CPP_PREFIX = "cpp:"  # a C++ source the tuner builds (`tuner.programs.program_build`)
CPP_SUFFIXES = (".cpp", ".cc", ".cxx")
