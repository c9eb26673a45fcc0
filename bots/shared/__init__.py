"""Compiled helpers the policies share: choosing among cells (`cells`), the simple bots' GROW (`growth`), projected
sunlight (`sunlight`), the search bots' simulation (`simulation`), their shortlist of moves (`shortlist`) and the
planner's evaluation of a position (`evaluation`)."""
