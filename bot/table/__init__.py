"""The table service: seats, buy-ins, the button, the hand loop and the clocks (async).

What a presenter uses:

* :class:`~bot.table.service.TableService` (``service.py``): ``create(channel, host,
  settings, key=)``, ``table(channel)``, ``recover()`` at start-up, ``tick()`` /
  ``start_clocks()`` for the clocks.
* :class:`~bot.table.table.Table` (``table.py``): the commands, each with an
  idempotency ``key`` (and optionally the ``turn`` it was issued for): ``sit``,
  ``top_up``, ``sit_out``, ``sit_in``, ``stand``, ``act`` (typed text or an
  :class:`~bot.table.text_actions.ActionRequest`), ``deal``, ``choose``,
  ``change_settings``, ``remove``, ``pause``, ``close``; and the reads ``snapshot(viewer)``,
  ``deadline()``, ``hand_history(hand_no, viewer)`` (PHH, as the viewer may see it).
  Every command returns an :class:`~bot.table.table.Outcome`.
* The ports (``ports.py``): :class:`~bot.table.ports.Presenter` receives ``public``,
  ``private`` and ``error`` calls with :class:`~bot.table.ports.Notice` values;
  :class:`~bot.table.ports.StorePort` is the event log (``open_store`` opens
  ``bot.store``).

Inside: ``settings.py`` (typed settings), ``seating.py``, ``button.py`` (R-1.3 to R-1.7),
``state.py`` (the state as a fold of the log), ``recovery.py``, ``clocks.py`` (time
sources), ``notices.py`` (events in words), ``view.py`` (snapshots), ``text_actions.py``.
"""
