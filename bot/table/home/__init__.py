"""The home-game options at the table (docs/RULES.md §20), beside the engine's
:mod:`bot.poker.home`: what the table asks and says for them. ``runtwice``: the sealed
run-it-twice question (R-20.1): its private prompt, the clock's answer, the typed and
clicked answers."""
