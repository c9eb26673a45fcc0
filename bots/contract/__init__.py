"""The plug-in contract: what a bot declares (`plugin`, its parameters' `schema`), the seat compiled code plays it
in (`seat`, with `perturbation` for NAME~J and `budget`, a search's budget hook), bot names as users write them
(`names`) and parameter files (`paramfile`). Nothing here imports a bot."""
