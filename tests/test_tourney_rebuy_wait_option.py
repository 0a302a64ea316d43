"""The rebuy wait is the host's option (R-19.102): from 10 to 600 seconds, 60 when not
given, refused with what is allowed otherwise, through the options the platforms share
and the terminal's ``--rebuy-wait``."""

from __future__ import annotations

from bot.local.terminal import parse_args
from bot.local.tourney import config_from_args
from bot.local.words import Words
from bot.poker.messages import Msg, Number, msg
from bot.tournament.structure import REBUY_WAIT, Config
from bot.tourney_run.options import WAIT, Options, config
from bot.words import render


def test_R_19_102_the_rebuy_wait_is_an_option_within_its_bounds() -> None:
    assert WAIT == (10, 600) and REBUY_WAIT == 60
    plain = config(Options(rebuys=1, rebuy_until=2))
    assert isinstance(plain, Config) and plain.entries.rebuy_wait == REBUY_WAIT
    for seconds in (WAIT[0], 90, WAIT[1]):
        made = config(Options(rebuys=1, rebuy_until=2, rebuy_wait=seconds))
        assert isinstance(made, Config) and made.entries.rebuy_wait == seconds
    for seconds in (WAIT[0] - 1, 0, -5, WAIT[1] + 1):
        refused = config(Options(rebuys=1, rebuy_until=2, rebuy_wait=seconds))
        assert isinstance(refused, Msg) and refused.key == "entries.refuse.rebuy_wait"
        assert dict(refused.params) == {"low": Number(10), "high": Number(600)}


def test_R_19_102_the_terminal_takes_rebuy_wait() -> None:
    words = Words()
    args = parse_args(["--tournament", "sng", "--robots", "--rebuys", "1", "--rebuy-wait", "45"])
    made = config_from_args(args, 0, words)
    assert isinstance(made, Config) and made.entries.rebuy_wait == 45
    default = config_from_args(parse_args(["--tournament", "sng", "--robots"]), 0, words)
    assert isinstance(default, Config) and default.entries.rebuy_wait == REBUY_WAIT
    args = parse_args(["--tournament", "sng", "--robots", "--rebuys", "1", "--rebuy-wait", "9"])
    refused = config_from_args(args, 0, words)
    allowed = msg("entries.refuse.rebuy_wait", low=Number(10), high=Number(600))
    assert refused == render(allowed, "en")
