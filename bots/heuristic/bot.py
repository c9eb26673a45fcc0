"""`heuristic[:FILE.json]`: the heuristic bot with its schema defaults, or with the parameters of a file."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from bots.heuristic.schema import SCHEMA
from bots.paramfile import read_param_file
from bots.registry import Bot, BotSpecError
from bots.schema import ParamError
from bots.tunable import make_bot


def heuristic_bot(name: str, arg: Optional[str], league: int) -> Bot:
    """The bot `name` describes: arg None plays the schema defaults, else arg is a JSON parameter file."""
    if arg is None or arg == "":
        values = SCHEMA.defaults()
        source = {"defaults": True}
    else:
        try:
            params_file = read_param_file(Path(arg))
        except ParamError as error:
            raise BotSpecError(f"bot {name!r}: {error}") from None
        if params_file.bot != "heuristic":
            raise BotSpecError(f"bot {name!r}: {arg} holds parameters of bot {params_file.bot!r}, not 'heuristic'")
        values = params_file.params  # every parameter: a parameter file is read complete
        source = {**params_file.source, "path": str(arg)}
    return make_bot("heuristic", values, name, source)
