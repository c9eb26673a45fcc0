"""The tuning run: workers on a study, trials against an opponent pool, samplers and pruning, progress, Ctrl-C."""
