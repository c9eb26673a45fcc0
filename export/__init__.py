"""The export compiler: an in-engine bot as one standalone file to paste into CodinGame.

    transpile.py   the walk both back ends share: a compiled policy and everything it calls, in one namespace
    python/        the Python back end (`emit`) and the Python file (`bot_file`)
    cpp/           the C++ back end (`emit`, `inferred_types`, `table_pack`), its hand-written `runtime` and the
                   C++ file (`bot_file`)
    exportable.py  which bots export, in which language
    standalone.py  a bot's file in the language asked for, written
    languages.py   the languages and the C++ search's time budget (no compiled code: the command line reads it)

A layer between `bots` (which it reads and never the other way) and `tuner`. This file imports nothing, so that
`tuner export --help` loads no compiled code.
"""
