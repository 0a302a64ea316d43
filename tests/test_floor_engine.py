"""Floor review (issue 12): engine rules a card-room floor would rule differently, each
named after its rule id (R-3.2, R-3.3, R-3.5, R-4.8, R-4.9, R-5.1, R-5.7, R-7.3, R-12.2,
R-12.4, R-14.1, R-16.4 and the new rulings of §3, §4, §12, §14 and §16)."""

from __future__ import annotations

import pytest

from bot.poker.actions import AllIn, Bet, BringIn, Call, Check, Draw, Fold, RaiseTo
from bot.poker.cards import FULL_DECK, stacked_deck
from bot.poker.errors import IllegalAction
from bot.poker.events import ActionTaken, HandEnded, PotAwarded
from bot.poker.hand import Hand
from bot.poker.messages import Chips, Player, Rule, msg
from bot.poker.rules import Limit, Rules
from tests.said import said_in

# ---------------------------------------------------------------- equal blinds


def test_r3_3_equal_blinds_first_to_act_is_left_of_the_big_blind() -> None:
    """R-3.8: blinds 1/1, four players: position 2 (left of the big blind) acts first,
    not the big blind (position 1)."""
    h = Hand(Rules(blinds_or_straddles=(1, 1)), [100] * 4)
    assert h.to_act == 2


def test_r3_2_equal_blinds_big_blind_acts_last_with_the_option() -> None:
    """R-3.8: with equal blinds the big blind (by position) acts last, with his option."""
    h = Hand(Rules(blinds_or_straddles=(1, 1)), [100] * 4)
    order = []
    for _ in range(3):
        assert h.to_act is not None
        order.append(h.to_act)
        h.apply(Call(h.to_act))
    assert order == [2, 3, 0]  # the small blind completes (checks) before the big blind
    assert h.to_act == 1  # the big blind last, with his option
    legal = h.legal()
    assert {"check", "raise"} <= legal.actions
    h.apply(Check(1))
    assert h.street_index == 1 and h.to_act == 0


def test_r3_2_equal_blinds_heads_up_button_acts_first() -> None:
    """R-1.5 with equal blinds: the button (small blind) acts first, the big blind last."""
    h = Hand(Rules(blinds_or_straddles=(1, 1)), [100] * 2)
    assert h.to_act == 1
    h.apply(Call(1))
    assert h.to_act == 0 and "check" in h.legal().actions


def test_r3_3_straddle_still_acts_last_with_equal_blinds() -> None:
    h = Hand(Rules(blinds_or_straddles=(1, 1, 2)), [100] * 5)
    assert h.to_act == 3  # left of the straddle (position 2)


# ---------------------------------------------------------------- refusals


def _fixed_capped() -> Hand:
    rules = Rules(limit=Limit.FIXED, blinds_or_straddles=(1, 2), small_bet=2, big_bet=4)
    h = Hand(rules, [100] * 3)
    h.apply(RaiseTo(2, 4))
    h.apply(RaiseTo(0, 6))
    h.apply(RaiseTo(1, 8))  # the blind and three raises: capped
    return h


def test_r5_7_raise_when_capped_says_the_betting_is_capped() -> None:
    h = _fixed_capped()
    assert h.to_act == 2 and h.legal().min_to is None
    capped = msg("refuse.capped", rule=Rule("R-5.7"))
    assert h.no_raise_why() == capped
    with pytest.raises(IllegalAction) as err:
        h.apply(RaiseTo(2, 10))
    assert said_in(err.value.msg, capped), err.value.msg
    assert said_in(err.value.msg, msg("legal.call", amount=Chips(4)))


def test_r7_3_raise_not_reopened_says_why() -> None:
    """E-5: after D's incomplete all-in, B may only call or fold, and is told why."""
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [1000, 1000, 1000, 37, 1000])
    for p in (2, 3, 4, 0):
        h.apply(Call(p))
    h.apply(Check(1))  # the flop: D (position 3) has 35 left
    h.apply(Check(0))  # A
    h.apply(Bet(1, 20))  # B
    h.apply(Call(2))  # C
    h.apply(AllIn(3))  # D all in for 35 (a raise of 15)
    h.apply(Call(4))  # E
    h.apply(Call(0))  # A
    assert h.to_act == 1
    reason = msg("refuse.not_reopened", rule=Rule("R-7.3"))
    assert h.no_raise_why() == reason
    for action in (RaiseTo(1, 100), AllIn(1)):
        with pytest.raises(IllegalAction) as err:
            h.apply(action)
        assert said_in(err.value.msg, reason), err.value.msg
        assert said_in(err.value.msg, msg("legal.call", amount=Chips(15)))


def test_r4_8_raise_nobody_can_call_says_why() -> None:
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [100, 100, 10])
    h.apply(AllIn(2))
    h.apply(Fold(0))
    assert h.to_act == 1 and h.legal().min_to is None
    reason = h.no_raise_why()
    assert reason == msg("refuse.nobody_to_raise", rule=Rule("R-4.8"))
    with pytest.raises(IllegalAction) as err:
        h.apply(RaiseTo(1, 40))
    assert said_in(err.value.msg, reason), err.value.msg


def test_r7_1_raise_without_the_chips_says_why() -> None:
    h = Hand(Rules(blinds_or_straddles=(1, 2)), [100, 10, 100])
    h.apply(RaiseTo(2, 20))
    h.apply(Call(0))
    assert h.to_act == 1
    assert h.no_raise_why() == msg("refuse.short_to_raise", rule=Rule("R-7.1"))


@pytest.mark.parametrize("limit", [Limit.NO_LIMIT, Limit.POT_LIMIT, Limit.FIXED, Limit.SPREAD])
def test_r6_6_every_refused_raise_has_a_reason_and_only_those(limit: Limit) -> None:
    """R-6.6 with R-4.8, R-5.7, R-5.9, R-7.1, R-7.3, R-7.4: in random hands, the player to
    act is given a reason exactly when no bet or raise is allowed."""
    import random

    rng = random.Random(1212)
    seen: set[str] = set()
    for k in range(150):
        rules = Rules(
            variant="draw5" if k % 3 == 0 else "holdem",
            limit=limit,
            blinds_or_straddles=(1, 2),
            small_bet=2,
            big_bet=4,
            jacks_to_open=k % 3 == 0,
            check_raise=k % 2 == 0,
            incomplete_rule="half_bet" if k % 4 == 1 else "full_bet",
        )
        n = rng.randint(2, 6)
        h = Hand(rules, [rng.choice([3, 7, 15, 40, 200]) for _ in range(n)])
        while not h.over:
            i = h.to_act
            if i is None:
                break
            legal = h.legal()
            if h.phase == "betting" and not h.bring_in_due:
                reason = h.no_raise_why()
                assert (reason is None) == (legal.min_to is not None), (k, reason, legal)
                if reason is not None:
                    seen.add(reason.key)
            acts = sorted(legal.actions)
            act = rng.choice(acts)
            if act == "draw":
                h.apply(Draw(i, tuple(rng.sample(h.hole[i], rng.randint(0, 2)))))
            elif act in ("raise", "bet", "complete") and legal.min_to is not None:
                assert legal.max_to is not None
                h.apply(RaiseTo(i, rng.randint(legal.min_to, legal.max_to)))
            elif act == "all_in":
                h.apply(AllIn(i))
            elif act == "fold":
                h.apply(Fold(i))
            elif act == "check":
                h.apply(Check(i))
            else:
                h.apply(Call(i))
    assert len(seen) >= 3, seen  # several reasons were exercised


# ---------------------------------------------------------------- jacks with blinds

DRAW5 = dict(variant="draw5", limit=Limit.FIXED, small_bet=2, big_bet=4)
# Position 0 (small blind) queen-high, 1 (big blind) nothing, 2 a pair of jacks, 3 nothing.
JACKS_DECK = stacked_deck(["Qc9d7h5s3c", "2c4d6h8sTc", "JcJd2h3s5c", "KcQd8h6s4s"])
NO_OPENERS_DECK = stacked_deck(["Qc9d7h5s3c", "2c4d6h8sTc", "JcTd2h3s5c", "KcQd8h6s4s"])


def _jacks_blinds(deck: tuple[str, ...]) -> Hand:
    rules = Rules(blinds_or_straddles=(1, 2), jacks_to_open=True, **DRAW5)  # type: ignore[arg-type]
    return Hand(rules, [100] * 4, deck)


def test_r4_9_jacks_with_blinds_no_raise_without_openers() -> None:
    """A queen-high hand may call the blind or fold, not raise it (open the pot)."""
    h = _jacks_blinds(JACKS_DECK)
    assert h.to_act == 2
    assert "raise" in h.legal().actions  # jacks: he may open
    h.apply(Call(2))  # ... but limps
    assert h.to_act == 3
    legal = h.legal()
    assert "raise" not in legal.actions and legal.min_to is None and "call" in legal.actions
    reason = h.no_raise_why()
    assert reason == msg("refuse.jacks_raise_blinds", rule=Rule("R-4.9"))
    with pytest.raises(IllegalAction) as err:
        h.apply(RaiseTo(3, 4))
    assert said_in(err.value.msg, reason), err.value.msg
    assert said_in(err.value.msg, msg("legal.call", amount=Chips(2)))
    h.apply(Call(3))
    with pytest.raises(IllegalAction):
        h.apply(RaiseTo(0, 4))  # queen high: no openers
    h.apply(Call(0))
    assert "raise" not in h.legal().actions  # the big blind's option needs openers too
    assert h.total_chips() == 400


def test_r4_9_jacks_with_blinds_opener_starts_after_the_draw() -> None:
    """The player who opened with jacks is the opener (R-12.2 shows openers) and starts
    the betting after the draw (R-16.4, R-16.6)."""
    h = _jacks_blinds(JACKS_DECK)
    h.apply(RaiseTo(2, 4))  # opens with jacks
    assert h.opener == 2
    h.apply(Call(3))
    h.apply(RaiseTo(0, 6))  # once open, anyone may raise
    h.apply(Call(1))
    h.apply(Call(2))
    h.apply(Call(3))
    assert h.phase == "draw"
    for p in (0, 1, 2, 3):
        h.apply(Draw(p, ()))
    assert h.to_act == 2  # the opener, not the small blind


def test_r4_9_jacks_with_blinds_nobody_opens_deal_thrown_in() -> None:
    """Nobody holds openers: everyone limps, the big blind checks; the deal is thrown in
    and every chip in the middle stays in the pot for the next deal (R-4.6)."""
    h = _jacks_blinds(NO_OPENERS_DECK)
    for p in (2, 3, 0):
        assert "raise" not in h.legal().actions
        h.apply(Call(p))
    h.apply(Check(1))
    assert h.over
    end = [e for e in h.events if isinstance(e, HandEnded)][-1]
    assert end.reason == "not opened" and end.carried == 8
    assert h.stacks == [98, 98, 98, 98] and h.total_chips() == 400
    assert not [e for e in h.events if isinstance(e, PotAwarded)]


def test_r4_9_a_jacks_pass_out_is_announced_under_r4_9_not_r4_6() -> None:
    """R-4.9: a deal nobody opened under jacks to open is announced citing R-4.9 (the
    rule that threw it in), with what carries; a plain all-check pass-out of an ante game
    without jacks still cites R-4.6."""
    from bot.table.notices import said

    h = _jacks_blinds(NO_OPENERS_DECK)
    for p in (2, 3, 0):
        h.apply(Call(p))
    h.apply(Check(1))
    end = [e for e in h.events if isinstance(e, HandEnded)][-1]
    # notice.end.not_opened is the ending, notice.end.passed_out the one.
    assert said(end) == msg("notice.carried", said=msg("notice.end.not_opened"), amount=Chips(8))
    antes = Rules(blinds_or_straddles=(0, 0, 0), antes=(1, 1, 1), **DRAW5)  # type: ignore[arg-type]
    plain = Hand(antes, [100] * 3)
    for p in (0, 1, 2):
        plain.apply(Check(p))
    end = [e for e in plain.events if isinstance(e, HandEnded)][-1]
    assert end.reason == "passed out"
    told = said(end)
    assert told is not None and told.get("said") == msg("notice.end.passed_out")


def test_r4_9_jacks_with_blinds_fold_to_the_big_blind_wins() -> None:
    h = _jacks_blinds(NO_OPENERS_DECK)
    for p in (2, 3, 0):
        h.apply(Fold(p))
    assert h.over and h.stacks[1] == 101 and h.total_chips() == 400


def test_r4_9_jacks_to_open_refused_outside_high_draw_games() -> None:
    from bot.poker.errors import ConfigError

    for variant in ("holdem", "stud", "27single", "razz"):
        extra = {"bring_in": 1} if variant in ("stud", "razz") else {}
        with pytest.raises(ConfigError) as refused:
            Rules(variant=variant, jacks_to_open=True, **extra)  # type: ignore[arg-type]
        assert refused.value.msg == msg("config.jacks_game", game=msg(f"game.{variant}"))
    Rules(variant="draw5", jacks_to_open=True)


def test_r4_9_jacks_to_open_with_a_joker_reads_it_as_wild() -> None:
    """R-10.7 with R-4.9: a joker and a jack are openers (this crashed with a
    ValueError before: the openers check read only natural cards)."""
    from bot.poker.cards import JOKER

    full = (*FULL_DECK, JOKER)
    deck = stacked_deck(["Qc9d7h5s3c", "2c4d6h8sTc", "JcXx2h3s5c"], full=full)
    rules = Rules(
        blinds_or_straddles=(1, 2),
        jacks_to_open=True,
        wild="joker",
        **DRAW5,  # type: ignore[arg-type]
    )
    h = Hand(rules, [100] * 3, deck)
    assert h.to_act == 2 and "raise" in h.legal().actions
    h.apply(RaiseTo(2, 4))
    assert h.opener == 2


# ---------------------------------------------------------------- after the draw


def _ante_draw(opener_folds: bool) -> Hand:
    rules = Rules(blinds_or_straddles=(), antes=(1,) * 4, **DRAW5)  # type: ignore[arg-type]
    h = Hand(rules, [100] * 4, NO_OPENERS_DECK)
    h.apply(Check(0))
    h.apply(Bet(1, 2))  # position 1 opens
    h.apply(Call(2))
    h.apply(Call(3))
    h.apply(Call(0))
    assert h.phase == "draw" and h.opener == 1
    for p in (0, 1, 2, 3):
        if p == 1 and opener_folds:
            h.apply(Fold(1))
        else:
            h.apply(Draw(p, ()))
    return h


def test_r16_4_ante_draw_betting_after_the_draw_starts_with_the_opener() -> None:
    h = _ante_draw(opener_folds=False)
    assert h.phase == "betting" and h.to_act == 1  # not position 0, left of the button


def test_r16_4_opener_folded_nearest_active_player_to_his_left_starts() -> None:
    h = _ante_draw(opener_folds=True)
    assert h.phase == "betting" and h.to_act == 2


def test_r16_6_blind_draw_betting_after_the_draw_starts_left_of_the_button() -> None:
    """With blinds (no jacks), the blinds opened: the first active player left of the
    button starts after the draw, even though position 2 raised."""
    rules = Rules(blinds_or_straddles=(1, 2), **DRAW5)  # type: ignore[arg-type]
    h = Hand(rules, [100] * 4, NO_OPENERS_DECK)
    h.apply(RaiseTo(2, 4))
    for p in (3, 0, 1):
        h.apply(Call(p))
    for p in (0, 1, 2, 3):
        h.apply(Draw(p, ()))
    assert h.to_act == 0


def test_r16_6_triple_draw_every_round_after_a_draw_starts_with_the_opener() -> None:
    rules = Rules(variant="27triple", limit=Limit.FIXED, blinds_or_straddles=(), antes=(1,) * 3)
    h = Hand(rules, [100] * 3)
    h.apply(Check(0))
    h.apply(Bet(1, 2))
    h.apply(Call(2))
    h.apply(Call(0))
    for _ in range(3):
        assert h.phase == "draw"
        for p in (0, 1, 2):
            h.apply(Draw(p, ()))
        assert h.to_act == 1
        for p in (1, 2, 0):
            h.apply(Check(p))
    assert h.over


# ---------------------------------------------------------------- declare prose


def test_r13_4_both_without_a_qualifying_low_is_told_he_wins_nothing() -> None:
    from bot.poker.declare import DeclareOptions, resolve_declare
    from bot.poker.events import Pot

    result = resolve_declare(
        [Pot(100, (0, 1))],
        {0: (900, None), 1: (100, 50)},  # position 0 has the best high and no low
        {0: "both", 1: "low"},
        [0, 1],
        DeclareOptions(qualifier=True),
    )
    assert result.payouts == {1: 100}
    no_low = msg("declare.both_no_low", player=Player(0))
    out = msg("declare.both_out", rule=Rule("R-13.4"), reason=no_low)
    assert out in result.messages, result.messages


# ---------------------------------------------------------------- awards, main pot first


def test_r8_3_awards_are_told_main_pot_first() -> None:
    """R-12.6: the PotAwarded events name the main pot first (the summaries are built
    from them), though R-8.3 settles the last side pot first."""
    deck = stacked_deck(["AsAd", "KsKd", "2c7d"], "AhKh9c5s3d")
    h = Hand(Rules(blinds_or_straddles=(0, 0)), [20, 10, 30], deck)
    while not h.over:
        i = h.to_act
        assert i is not None
        legal = h.legal()
        h.apply(AllIn(i) if "all_in" in legal.actions else Call(i))
    awards = [e for e in h.events if isinstance(e, PotAwarded)]
    assert [a.pot_index for a in awards] == sorted(a.pot_index for a in awards)
    assert len({a.pot_index for a in awards}) >= 2


# ---------------------------------------------------------------- stud run-out

STUD = dict(variant="stud", limit=Limit.FIXED, bring_in=1, small_bet=2, big_bet=4)


@pytest.mark.parametrize("variant", ["stud", "stud8", "razz"])
def test_r12_4_stud_all_in_run_out_deals_seventh_street_face_up(variant: str) -> None:
    """R-12.5: everyone all in on third street: fourth to seventh street are dealt face
    up, the seventh-street card included, and the hands shown hold all seven cards."""
    rules = Rules(antes=(1, 1, 1), **{**STUD, "variant": variant})  # type: ignore[arg-type]
    h = Hand(rules, [3, 3, 3])  # 2 each after the ante: completing is all in
    while h.street_index == 0 and not h.over:
        i = h.to_act
        assert i is not None
        legal = h.legal()
        if "bring_in" in legal.actions:
            h.apply(BringIn(i))
        else:
            h.apply(AllIn(i) if "all_in" in legal.actions else Call(i))
    assert h.over and h.exposed
    from bot.poker.events import CardsDealt, HandShown

    public = [e for e in h.events if isinstance(e, CardsDealt) and e.audience is None]
    for p in range(3):
        seen = [c for e in public if e.player == p for c in e.cards]
        assert len(seen) == 5, (p, seen)  # third-street door card + four more, all public
        last_shown = [e for e in h.events if isinstance(e, HandShown) and e.player == p][-1]
        assert len(last_shown.cards) == 7
        assert set(last_shown.cards) == set(h.hole[p])
    spectator = h.visible_cards(None)
    assert all("??" not in cards for cards in spectator)


# ---------------------------------------------------------------- full bring-in


def _full_bring_in() -> Hand:
    rules = Rules(
        variant="stud", limit=Limit.FIXED, bring_in=2, small_bet=2, big_bet=4, antes=(1,) * 3
    )
    h = Hand(rules, [100] * 3)
    b = h.to_act
    assert b is not None and "bring_in" in h.legal().actions
    h.apply(BringIn(b))
    return h


def test_r3_5_bring_in_of_a_full_bet_may_be_raised() -> None:
    h = _full_bring_in()
    legal = h.legal()
    assert legal.to_call == 2
    assert "raise" in legal.actions and legal.min_to == legal.max_to == 4
    assert "complete" not in legal.actions  # there is nothing to complete
    assert h.raises == 1  # the bring-in is the round's bet


def test_r3_5_full_bring_in_keeps_his_option() -> None:
    h = _full_bring_in()
    b = h.bring_in_player
    for _ in range(2):
        assert h.to_act is not None and h.to_act != b
        h.apply(Call(h.to_act))
    assert h.to_act == b and h.street_index == 0  # his option, as a big blind's
    legal = h.legal()
    assert {"check", "raise"} <= legal.actions and legal.min_to == 4
    h.apply(Check(b))
    assert h.street_index == 1


def test_r3_9_full_bring_in_bet_word_is_the_bring_in_and_above_the_small_bet_refused() -> None:
    from bot.poker.errors import ConfigError

    rules = Rules(
        variant="razz", limit=Limit.FIXED, bring_in=2, small_bet=2, big_bet=4, antes=(1,) * 3
    )
    h = Hand(rules, [100] * 3)
    b = h.to_act
    assert b is not None
    with pytest.raises(IllegalAction) as err:
        h.apply(RaiseTo(b, 4))
    full = msg("refuse.full_bring_in", rule=Rule("R-3.9"), amount=Chips(2))
    assert said_in(err.value.msg, full), err.value.msg
    h.apply(Bet(b, 2))  # "bet 2" is the bring-in itself
    assert h.bets[b] == 2 and h.raises == 1 and h.acted_level[b] is None
    with pytest.raises(ConfigError) as refused:
        Rules(variant="stud", limit=Limit.FIXED, bring_in=3, small_bet=2, big_bet=4)
    above = msg("config.bring_in_above", rule=Rule("R-3.5"), bring_in=Chips(3), small_bet=Chips(2))
    assert refused.value.msg == above


# ---------------------------------------------------------------- small blinds


def test_r5_10_fixed_limit_blind_below_the_small_bet_first_raise_completes() -> None:
    """Fixed limit 4/8 with blinds 1/2: the first raise completes to 4 (the small bet),
    the next ones go up by 4: 8, 12, 16 (a bet and three raises, R-5.7)."""
    rules = Rules(limit=Limit.FIXED, blinds_or_straddles=(1, 2), small_bet=4, big_bet=8)
    h = Hand(rules, [100] * 5)
    legal = h.legal()
    assert legal.to_call == 2 and legal.min_to == legal.max_to == 4
    assert "complete" in legal.actions
    assert h.no_raise_why() is None
    h.apply(RaiseTo(2, 4))
    totals = []
    while h.legal().min_to is not None:
        legal = h.legal()
        assert legal.min_to is not None
        totals.append(legal.min_to)
        h.apply(RaiseTo(legal.player, legal.min_to))
    assert totals == [8, 12, 16]
    assert h.no_raise_why() == msg("refuse.capped", rule=Rule("R-5.7"))
    kinds = [e.kind for e in h.events if isinstance(e, ActionTaken)]
    assert kinds[:2] == ["complete", "raise"]


def test_r5_10_blind_below_the_small_bet_callers_may_raise_after_the_completion() -> None:
    rules = Rules(limit=Limit.FIXED, blinds_or_straddles=(1, 2), small_bet=4, big_bet=8)
    h = Hand(rules, [100] * 4)
    h.apply(Call(2))  # calls the 2
    h.apply(RaiseTo(3, 4))  # completes
    h.apply(Call(0))
    h.apply(Call(1))
    assert h.to_act == 2
    legal = h.legal()
    assert legal.to_call == 2 and legal.min_to == 8  # a full bet came since he acted


# ---------------------------------------------------------------- the step rake


def test_r14_3_step_rake_counts_full_steps_by_default() -> None:
    from bot.poker.rules import Rake

    rake = Rake(step_chips=25, step_per=500)  # 25 cents for each $5, in cents
    assert [rake.amount(p) for p in (400, 499, 500, 999, 1000)] == [0, 0, 25, 25, 50]


def test_r14_3_step_rake_steps_begun_matches_the_reference_example() -> None:
    """The reference page: 25 cents for each $5 takes 25 cents from a $4 pot and 50 cents
    from a $5 pot."""
    from bot.poker.rules import Rake

    rake = Rake(step_chips=25, step_per=500, step_mode="begun")
    assert rake.amount(400) == 25 and rake.amount(500) == 50
    assert [rake.amount(p) for p in (0, 1, 499, 999, 1000)] == [0, 1, 25, 50, 75]
    assert Rake(step_chips=25, step_per=500, step_mode="begun", cap=50).amount(5000) == 50


def test_r14_3_step_rake_begun_in_a_hand_and_at_the_table() -> None:
    from bot.poker.rules import Rake
    from bot.table.settings import TableSettings

    rules = Rules(
        blinds_or_straddles=(1, 2),
        rake=Rake(step_chips=1, step_per=5, step_mode="begun", no_flop_no_drop=False),
    )
    h = Hand(rules, [100, 100])
    h.apply(Call(1))
    h.apply(Check(0))
    while not h.over:
        assert h.to_act is not None
        h.apply(Check(h.to_act))
    assert h.rake == 1  # a pot of 4: one step begun
    assert h.total_chips() == 200
    settings = TableSettings.of(rake_step_chips=1, rake_step_per=5, rake_step_mode="begun")
    assert settings.rules_for("holdem", "no_limit", 2, (0, 1)).rake.step_mode == "begun"


# ---------------------------------------------------------------- wild cards (siblings)


def _joker_stud(wild: str) -> Hand:
    from bot.poker.cards import JOKER

    full = (*FULL_DECK, JOKER)
    deck = stacked_deck(["AsKsXxQd", "AdKd2c3d", "AhKh9c9d"], full=full)
    rules = Rules(wild=wild, antes=(1,) * 3, **STUD)  # type: ignore[arg-type]
    return Hand(rules, [100] * 3, deck)


def test_r3_10_joker_showing_never_brings_in() -> None:
    """R-3.10 (R-3.5 with R-10.7): a joker door card crashed the bring-in (KeyError 'X'); it
    ranks above the ace, so the deuce brings in."""
    h = _joker_stud("joker")
    assert h.to_act == 1 and "bring_in" in h.legal().actions


@pytest.mark.parametrize(("wild", "opener"), [("joker", 0), ("joker_bug", 2)])
def test_r16_7_joker_showing_counts_as_wild_or_as_an_ace(wild: str, opener: int) -> None:
    """R-16.7: A wild joker with a queen shows a pair of queens (beats the nines); a bug is an
    ace (ace-queen, below the nines)."""
    h = _joker_stud(wild)
    h.apply(BringIn(1))
    h.apply(Call(2))
    h.apply(Call(0))
    assert h.street_index == 1 and h.to_act == opener


def test_r10_7_omaha_with_a_joker_reaches_the_showdown() -> None:
    """Omaha with a wild joker crashed at the showdown (ValueError 'Xx'): the evaluator
    had Omaha wild-card functions the showdown never used."""
    from bot.poker.cards import JOKER

    full = (*FULL_DECK, JOKER)
    deck = stacked_deck(["XxAsKd2c", "QhQd7s8s"], "AhAc5d9s3h", full=full)
    h = Hand(Rules(variant="omaha", wild="joker"), [100, 100], deck)
    h.apply(Call(1))
    h.apply(Check(0))
    while not h.over:
        assert h.to_act is not None
        h.apply(Check(h.to_act))
    assert h.stacks == [102, 98]  # four aces with the joker beat two pair


@pytest.mark.parametrize("variant", ["27single", "27triple", "badugi", "shortdeck"])
def test_r10_7_wild_cards_refused_where_no_ranking_reads_them(variant: str) -> None:
    from bot.poker.errors import ConfigError

    with pytest.raises(ConfigError) as refused:
        Rules(variant=variant, wild="joker")
    assert refused.value.msg == msg("config.no_wild", game=msg(f"game.{variant}"))


# ---------------------------------------------------------------- mucked hands


def test_r9_2_a_mucked_hand_never_wins_a_pot_a_shown_hand_contests() -> None:
    """Manual showdown: the best hand (position 0) mucks; the side pot only he and
    position 3 contest, both mucked, is decided by their cards, which are then shown
    (R-12.5: nothing is won with cards the table never saw). Before the fix, deciding
    that pot let position 0's mucked aces win the main pot and the first side pot too."""
    from bot.poker.actions import Muck, Show
    from bot.poker.events import HandShown

    deck = stacked_deck(["AsAd", "KsKd", "QsQd", "2c7h"], "AhKhQc3d4s")
    h = Hand(Rules(blinds_or_straddles=(1, 2), showdown="manual"), [100, 10, 5, 100], deck)
    h.apply(AllIn(2))  # 5
    h.apply(Call(3))
    h.apply(Call(0))
    h.apply(AllIn(1))  # 10
    h.apply(Call(3))
    h.apply(Call(0))
    for _ in range(2):  # flop and turn
        h.apply(Check(0))
        h.apply(Check(3))
    h.apply(Bet(0, 10))
    h.apply(Call(3))
    # the top side pot's players (0, 3) are asked first, then 1, then 2.
    h.apply(Muck(0))
    h.apply(Muck(3))
    h.apply(Show(1))
    h.apply(Show(2))
    assert h.over
    won = {k: e for k, e in ((e.pot_index, e) for e in h.events if isinstance(e, PotAwarded))}
    assert won[0].winners == (1,) and won[1].winners == (1,)  # kings, the best shown hand
    assert won[2].winners == (0,)  # the side pot of the two mucked hands: cards speak
    shown = {e.player for e in h.events if isinstance(e, HandShown)}
    assert 0 in shown  # ... and the winning cards are shown
    assert "??" not in h.visible_cards(None)[0]
    assert h.total_chips() == 215
