"""A study's results: the trial records (`records`), trials ranked (`ranking`), the chosen bot's record and its
gauntlets (`chosen`), the chosen trial rebuilt as a bot (`picks`), bot names with `study:` (`botnames`), the
origin lines of exported files (`origin`), and the check that a study file still describes its study's search
(`same_search`). The package imports none of them, so that a command loads only what it uses (a bot name needs
neither Optuna nor pydantic)."""
