"""Running bots: the compiled dispatch from a seat to its bot's policy (`dispatch`, written by `generate` from the
registry), the arena's compiled batches of games (`arena`), bots as players of the text-protocol referee
(`player`) and the staged compile of all of it (`warmup`)."""
