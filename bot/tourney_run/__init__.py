"""A tournament played on the table service: the director (:mod:`bot.tournament`, pure)
carried out over real tables.

* :mod:`~bot.tourney_run.journal` — the tournament's log in the store: each decision one
  append under an idempotency key; a restart replays it.
* :mod:`~bot.tourney_run.stakes` — the stakes source the service asks at each deal: the
  level set on each of a tournament's tables.
* :mod:`~bot.tourney_run.port` — :class:`~bot.tournament.ports.TablePort` over one of the
  service's tables (``tn:<tournament>:<n>``).
* :mod:`~bot.tourney_run.runner` — the director loop: registration, the start, after
  each hand eliminations, balancing moves, levels, hand-for-hand, the end and payouts;
  :meth:`Runner.load` recovers it all from the store.
* :mod:`~bot.tourney_run.control` — the host's pause and cancel, rebuys, the add-on
  and the chip race carried out at the tables (R-19.41 to R-19.45).
* :mod:`~bot.tourney_run.entrants` — a re-entry sits under its player's user id; which
  entry a seat is (R-19.90).
* :mod:`~bot.tourney_run.buying` — when rebuys, the add-on and a re-entry are offered,
  and the key of a purchase button's click (R-19.91).
* :mod:`~bot.tourney_run.money` — each decision's money as ledger rows of the
  tournament's own log (R-19.46).
* :mod:`~bot.tourney_run.robots` — robots playing a tournament through the service (the
  proof tests and ``python -m bench tournament``).

Tournament chips never enter the cash ledger: entrants sit, move and leave through the
tables' move commands (``move_in``/``move_out``), never a buy-in or a cash-out.
"""
