"""Attributes set for a benchmark run and put back after it (``bench discord`` and its
``--realistic`` mode share it)."""

from __future__ import annotations

from typing import Any


class _Patches:
    """Attributes set for the run and put back after it (what the fake's ``patch`` and
    the latency probes need of ``pytest.MonkeyPatch``, without pytest)."""

    def __init__(self) -> None:
        self._saved: list[tuple[Any, str, Any]] = []

    def setattr(self, target: Any, name: str, value: Any) -> None:
        self._saved.append((target, name, getattr(target, name)))
        setattr(target, name, value)

    def undo(self) -> None:
        while self._saved:
            target, name, value = self._saved.pop()
            setattr(target, name, value)
