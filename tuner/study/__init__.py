"""Studies: the study file (`file`, and the modules it names), the search space, bot names (with `study:`),
trials ranked and rebuilt as bots, and the origin lines of exported files. The package imports none of them, so
that a command loads only what it uses (a bot name needs neither Optuna nor pydantic)."""
