"""Tournaments as pure data and decisions: no Discord, no store, no clock of its own.

* :mod:`~bot.tournament.structure` — blind/ante schedules (presets and custom), entry
  options (late registration, re-entry, rebuys and add-on, bounties), the configuration.
* :mod:`~bot.tournament.payouts` — the payout table by number of entrants, exact prizes,
  shared places, bounty splits (R-19.20 to R-19.24).
* :mod:`~bot.tournament.chiprace` — the chip race at a color-up (R-19.25).
* :mod:`~bot.tournament.balance` — the seat draw and the balancing planner: moves and
  table breaks following the TDA rules (R-19.26 to R-19.33).
* :mod:`~bot.tournament.places` — eliminations and places (R-19.34, R-19.35).
* :mod:`~bot.tournament.handforhand` — the hand-for-hand state machine (R-19.36).
* :mod:`~bot.tournament.log` — the event log's records (JSON-ready, replayable).
* :mod:`~bot.tournament.director` — the tournament state machine folded from the log,
  its commands and its invariants.
* :mod:`~bot.tournament.ports` — what the director needs from a table.

Every sentence a player reads is a message of the ``tournament`` catalogue.
"""
