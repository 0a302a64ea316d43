"""A tournament at the terminal played as players play it: the clock of a player who
types (R-19.72), two players at two tables each acting at his own and a line out of
turn answered with where and when (R-19.73), re-entry, rebuys and the add-on typed at
the keyboard, the host's pause and resume (R-19.74), and no English in a German or
Russian tournament with a player typing."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

import pytest

from bot.local.terminal import parse_args
from bot.local.tourney import ENTRY_WORDS, Tourney, config_from_args
from bot.local.words import Words, choose, player_phrase
from bot.poker.messages import Chips, Count, Msg, Name, Number, Rule, msg
from bot.table.clocks import ManualTime
from bot.table.ports import StorePort, open_store
from bot.table.text_actions import parse_action
from bot.words import SUPPORTED, Locale, render
from bot.words.catalog import read_catalog
from tests.test_local_terminal_tourney import _english_pieces, _run

Opened = tuple[Tourney, StorePort, io.StringIO]


async def _open(tmp_path: Path, argv: list[str], time: ManualTime | None = None) -> Opened:
    args = parse_args(["--db", str(tmp_path / "t.sqlite3"), *argv])
    words = Words(choose(args.lang))
    out = io.StringIO()
    tourney = Tourney(args, out, words, time=time)
    config = config_from_args(args, len(tourney.humans), words)
    assert not isinstance(config, str), config
    store = await open_store(str(tmp_path / "t.sqlite3"))
    await tourney.open(store, config)
    return tourney, store, out


async def _close(opened: Opened) -> None:
    tourney, store, _ = opened
    assert tourney.service is not None
    await tourney.service.stop()
    await store.close()


def _en(key: str, **params: Chips | Count | Name | Number | Msg) -> str:
    return render(msg(key, **params), "en")


async def test_R_19_72_a_player_away_is_timed_out_dealt_in_and_blinded_off(
    tmp_path: Path,
) -> None:
    """alice types nothing: each time her --clock (30 s, no time bank) runs out the
    clock checks or folds for her (R-18.1); she is never sat out: dealt in every hand
    until she is out (TDA: a player away is blinded off); the tournament ends, every
    chip in play (R-2.5)."""
    time = ManualTime()
    argv = ["--tournament", "sng", "--players", "3", "--seed", "2", "--clock", "30", "alice"]
    opened = await _open(tmp_path, argv, time)
    tourney, _, out = opened

    async def away() -> str | None:
        while True:  # the minutes go by and nothing is typed
            time.advance(31)
            await asyncio.sleep(0.01)

    try:
        for port in tourney.run.ports.values():
            assert port.table.settings.action_clock == 60  # the table's, until set
        assert await asyncio.wait_for(tourney.play(away), 300)
        state = tourney.run.st
        assert state.status == "finished" and {f.entry for f in state.finishes} >= {"alice"}
        for port in tourney.run.ports.values():
            s = port.table.settings
            assert (s.action_clock, s.time_bank) == (30, 0)
        tourney.run.check_chips()
        assert tourney.run.chips_at_tables() == 3 * 1500 == state.chips
        text = out.getvalue()
        assert text.count(_en("table.story.time_ran_out", who=Name("alice"))) >= 2
        out_at = next(
            i
            for i, ln in enumerate(text.splitlines())
            if ln.startswith("alice is out")
            or ln.startswith(_en("tournament.winner", player=Name("alice")))
        )
        heads = [
            ln for ln in text.splitlines()[:out_at] if re.match(r"\s+Hand #\d+: .*Dealt in: ", ln)
        ]
        assert len(heads) >= 3
        assert all("alice" in ln.split("Dealt in: ")[1] for ln in heads), heads
        assert Words()("prompt.left", seconds=30) in text
    finally:
        await _close(opened)


async def test_R_19_72_without_a_clock_no_time_is_shown(tmp_path: Path) -> None:
    """--clock 0: the prompt and the drawing say no time left (none runs); by default
    they say the 60 s the clock gives."""
    argv = ["--tournament", "sng", "--players", "3", "--seed", "2", "alice"]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _, text = await _run(tmp_path / "a", [*argv, "--clock", "0"], "quit\n")
    assert Words()("tourney.stopped") in text
    assert not re.search(r"\d+ s left", text), text
    _, text = await _run(tmp_path / "b", argv, "quit\n")
    assert Words()("prompt.left", seconds=60) in text and Words()("draw.left", seconds=60) in text


async def test_R_19_73_two_players_at_two_tables_each_act_at_his_own(tmp_path: Path) -> None:
    """A freezeout of 18 on two tables, alice and bob at different tables: each table
    plays on until the player who types there is to act, so both wait at once and the
    line of either acts at his table, never refused as out of turn."""
    argv = ["--tournament", "mtt", "--players", "18", "--seed", "3", "--clock", "0"]
    opened = await _open(tmp_path, [*argv, "alice", "bob"])
    tourney, _, out = opened
    both: list[dict[str, int]] = []
    n = 0

    async def lines() -> str | None:
        nonlocal n
        n += 1
        waiting = {user: number for number, _, user in tourney.humans_to_act()}
        if len(waiting) == 2:
            both.append(waiting)
        if n > 60:
            return "quit"
        # the player at the later table first: the one the old loop never waited for
        user = max(waiting, key=lambda u: waiting[u])
        return f"{user}: fold"

    try:
        tables = {tourney.run.st.seats[e][0] for e in ("alice", "bob")}
        assert len(tables) == 2, "the seed seats them at two tables"
        await tourney.play(lines)
        assert both and all(len(set(w.values())) == 2 for w in both)
        text = out.getvalue()
        assert not re.search(r"^! (alice|bob)", text, re.M), text[-3000:]
        folds = [ln for ln in text.splitlines() if re.fullmatch(r"\s+bob folds", ln)]
        assert len(folds) >= 5
    finally:
        await _close(opened)


async def test_R_19_73_a_line_out_of_turn_says_where_and_when(tmp_path: Path) -> None:
    """alice and bob at one table, bob to act: alice's `call` is refused with her table
    and who is to act, and changes nothing; once she has folded, a line of hers says
    she acts in the next hand."""
    argv = ["--tournament", "sng", "--players", "4", "--seed", "2", "--clock", "0"]
    script = "alice: call\nbob: call\nalice: fold\nalice: check\nbob: fold\nquit\n"
    code, text = await _run(tmp_path, [*argv, "alice", "bob"], script)
    assert code == 1
    turn = Words()("tourney.wait.turn", name="alice", table=1, who="bob")
    hand = Words()("tourney.wait.hand", name="alice", table=1)
    assert f"! {turn}" in text and f"! {hand}" in text
    lines = text.splitlines()
    refused = lines.index(f"! {turn}")
    assert not any(re.fullmatch(r"\s+alice calls \d+", ln) for ln in lines[: refused + 2])
    assert any(re.fullmatch(r"\s+bob calls 30", ln) for ln in lines[refused:])
    assert "It is not your turn" not in text  # the table's refusal, replaced


async def test_R_19_74_a_busted_player_re_enters_at_the_keyboard(tmp_path: Path) -> None:
    """--late-reg 3 --reentry 1: alice shoves until she is out, is asked, types
    `rebuy` and is dealt in again with a full stack (a second entry); all four entries
    placed, the pool four buy-ins, every chip in play."""
    argv = ["--tournament", "sng", "--players", "3", "--seed", "4", "--clock", "0"]
    argv += ["--late-reg", "3", "--reentry", "1", "alice"]
    opened = await _open(tmp_path, argv)
    tourney, _, out = opened

    async def lines() -> str | None:
        asked = Words()("tourney.reentry", name="alice")
        if out.getvalue().rstrip().endswith(asked):
            return "alice: rebuy"
        return "alice: all in"

    try:
        assert await tourney.play(lines)
        state = tourney.run.st
        mine = [e.entry for e in state.entries if e.player == "alice"]
        assert len(mine) == 2 and len(state.entries) == 4
        assert state.pool == 4 * 100
        assert len(state.finishes) == 4
        text = out.getvalue()
        # asked once: out again after registration closed, she is not asked
        assert text.count(Words()("tourney.reentry", name="alice")) == 1
        second = msg("results.entry", name=Name("alice"), number=Number(2))
        assert _en("tournament.reentered", player=second, count=Count(4)) in text
        assert state.chips == 4 * 1500 == tourney.run.chips_at_tables()
    finally:
        await _close(opened)


async def test_R_19_74_a_rebuy_typed_in_a_hand_is_made_when_it_is_over(tmp_path: Path) -> None:
    """--rebuys 1: alice types `rebuy`, `addon` and `rebuy` on her turn: each noted and
    made in order when her hand is over: her stack plus a starting stack (a transfer,
    R-19.43), the add-on refused before its level and the second rebuy refused, each
    with the reason."""
    argv = ["--tournament", "sng", "--players", "3", "--seed", "2", "--clock", "0"]
    opened = await _open(tmp_path, [*argv, "--rebuys", "1", "alice"])
    tourney, _, out = opened
    script = iter(["alice: rebuy", "alice: addon", "alice: rebuy", "alice: fold", "quit"])

    async def lines() -> str | None:
        return next(script, "alice: fold")

    try:
        assert not await tourney.play(lines)
        text = out.getvalue()
        assert Words()("tourney.after_hand", name="alice") in text
        assert _en("tournament.rebought", player=Name("alice"), amount=Chips(1500)) in text
        refusals = [ln for ln in text.splitlines() if ln.startswith("! alice: ")]
        assert refusals == [
            "! alice: " + _en("tournament.refuse.addon_closed"),
            "! alice: " + _en("tournament.refuse.rebuy_used", count=Count(1)),
        ], refusals
        state = tourney.run.st
        assert state.rebuys == {"alice": 1} and state.chips == 4 * 1500
        tourney.run.check_chips()
    finally:
        await _close(opened)


async def test_R_19_41_pause_and_resume_typed_by_the_host(tmp_path: Path) -> None:
    """`pause` while alice is to act: her hand is played out and no table deals until
    `resume`; the terminal says it waits for it, and her `call` meanwhile is told
    that she acts when her table deals again (R-19.73)."""
    argv = ["--tournament", "sng", "--players", "3", "--seed", "2", "--clock", "0", "alice"]
    script = "pause\nalice: fold\nalice: call\nstatus\nresume\n" + "alice: fold\n" * 3 + "quit\n"
    code, text = await _run(tmp_path, argv, script)
    assert code == 1
    paused, resumed = _en("tournament.paused"), _en("tournament.resumed")
    assert paused in text and resumed in text
    between = text.split(paused, 1)[1].split(resumed, 1)[0]
    assert Words()("tourney.paused") in between
    # a line while her table waits between hands: where, and that she acts at its deal
    assert "! " + Words()("tourney.wait.deal", name="alice", table=1) in between
    assert not re.search(r"Hand #\d+: ", between), between
    assert re.search(r"Hand #2: ", text.split(resumed, 1)[1])


def _leaks(text: str) -> list[str]:
    """The English pieces in ``text``: of the tournament's catalogues, and of the
    table's, the engine's and the input's (a player types at a table)."""
    pieces = _english_pieces()
    for domain in ("table", "engine", "input"):
        for m in read_catalog("en", domain):
            texts = m.string if isinstance(m.string, tuple) else (m.string,)
            for said in texts:
                for piece in re.split(r"\{[a-z_]+\}", str(said)):
                    piece = piece.strip(" .,:()|=!")
                    if len(piece.split()) >= 2 and len(piece) >= 8 and "`" not in piece:
                        pieces.add(piece)
    return sorted(piece for piece in pieces if piece in text)


async def test_R_19_70_a_player_typing_in_german_or_russian_reads_no_english(
    tmp_path: Path,
) -> None:
    """--lang de and --lang ru with alice typing her language's words: the help, the
    drawings, refusals of bad input (-5, 1e9, abc, out of turn), status, pause and
    resume, a rebuy in her words (refused: none in this tournament), quit: no English
    sentence of the catalogues a player at a tournament table reads."""
    words = {
        "de": ("karten", "mitgehen", "erhöhen 40", "erhöhen auf 100", "checken", "aussteigen"),
        "ru": ("карты", "колл", "рейз 40", "рейз до 100", "чек", "фолд"),
    }
    rebuys = {"de": "nachkaufen", "ru": "ребай"}
    for lang, (cards, call, raise_by, raise_to, check, fold) in words.items():
        script = [
            "help",
            f"alice: {cards}",
            "alice: -5",
            "alice: 1e9",
            "alice: abc",
            "bob: x",
            "status",
            "table",
            f"alice: {raise_by}",
            f"alice: {rebuys[lang]}",
            f"alice: {call}",
            f"alice: {raise_to}",
            f"alice: {check}",
            "pause",
            "pause",
            f"alice: {fold}",
            "resume",
            f"alice: {fold}",
            "quit",
        ]
        argv = ["--tournament", "sng", "--players", "3", "--seed", "2", "--lang", lang, "alice"]
        (tmp_path / lang).mkdir()
        code, text = await _run(tmp_path / lang, argv, "\n".join(script) + "\n")
        assert code == 1, text[-2000:]
        say = Words(choose(lang))
        assert say("tourney.stopped") in text and say("tourney.help").splitlines()[0] in text
        assert render(msg("tournament.paused"), choose(lang)) in text
        # the rebuy in her words: refused at once in her language, not noted for later,
        # as this event sells none
        assert say("tourney.after_hand", name="alice") not in text
        closed = render(msg("tournament.refuse.rebuy_closed"), choose(lang))
        assert f"! alice: {closed}" in text
        assert not _leaks(text), (lang, _leaks(text))


async def test_R_19_73_the_drawing_names_the_table_by_its_number(tmp_path: Path) -> None:
    """The drawing's head names the table as the director's notices do (its number),
    never by its internal id."""
    argv = ["--tournament", "mtt", "--players", "12", "--seed", "5", "--lang", "de"]
    code, text = await _run(tmp_path, [*argv, "alice", "bob"], "table\nquit\n")
    assert code == 1
    heads = [ln for ln in text.splitlines() if ln.startswith("== ")]
    named = re.escape(Words("de")("tourney.table_head", table=9)).replace("9", r"[12]")
    assert heads and all(re.match(f"== {named}: ", ln) for ln in heads), heads
    assert "tn:" not in text


async def test_R_19_73_no_prompt_a_player_cannot_answer(tmp_path: Path) -> None:
    """alice wins a hand uncontested: the table offers to show by choice (R-20.15),
    but a tournament deals the next hand at once, so the terminal asks nothing the
    keyboard cannot answer."""
    argv = ["--tournament", "sng", "--players", "3", "--seed", "2", "alice"]
    code, text = await _run(tmp_path, argv, "alice: raise 40\nalice: bet 100\nquit\n")
    assert code == 1 and re.search(r"^\s+alice bets 100$", text, re.M)
    assert re.search(r"Hand #2: ", text), "the hand is over and the next dealt"
    assert render(msg("home.show_ask.prompt", rule=Rule("R-20.15")), "en") not in text


async def test_R_19_70_a_name_given_twice_is_refused_and_prompts_use_the_name(
    tmp_path: Path,
) -> None:
    """Names ignore case, so `Alice alice` is one player named twice: refused (exit 2)
    with the reason, not a tournament short of an entrant. The prompt names a player
    as he wrote his name."""
    argv = ["--tournament", "sng", "--players", "3", "--seed", "1", "--clock", "0"]
    code, text = await _run(tmp_path, [*argv, "Alice", "alice"], "quit\n")
    assert code == 2 and Words()("tourney.same_name", name="alice") in text, text
    code, text = await _run(tmp_path, [*argv, "Alice"], "quit\n")
    assert code == 1 and Words()("prompt.turn", name="Alice", clock="") in text, text


async def test_R_19_73_cash_table_lines_are_answered_with_what_a_tournament_takes(
    tmp_path: Path,
) -> None:
    """`leave`, `sit out`, `back`, `top up 50`, `straddle`, `rabbit`, `sit 3` (and
    their German words) at a tournament: each refused saying it is a cash table's and
    what a tournament player may type; nothing changes (her turn is still hers)."""
    lines = ["leave", "sit out", "back", "top up 50", "straddle", "rabbit", "sit 3", "bomb"]
    lines += ["aufstehen", "pause"]
    script = "".join(f"alice: {ln}\n" for ln in lines) + "alice: call\nquit\n"
    argv = ["--tournament", "sng", "--players", "3", "--seed", "2", "--clock", "0", "alice"]
    code, text = await _run(tmp_path, argv, script)
    assert code == 1
    refused = [ln for ln in text.splitlines() if ln.startswith("! alice")]
    assert len(refused) == len(lines), refused
    for line, said in zip(lines, refused, strict=True):
        assert said == "! " + Words()("tourney.cash_only", name="alice", what=line), said
    assert re.search(r"^\s+alice calls 30$", text, re.M)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_R_19_73_every_line_the_tournament_help_shows_is_understood(lang: Locale) -> None:
    """Each `alice: ...` example of the tournament's help, in each language, is an
    action the table reads or a word the tournament takes (cards, rebuy, addon)."""
    examples = re.findall(r"`alice: ([^`]+)`", Words(lang)("tourney.help"))
    assert len(examples) >= 9, examples
    for typed in examples:
        phrase = player_phrase(typed.lower())
        if phrase == "cards" or phrase in ENTRY_WORDS:
            continue
        assert parse_action(typed).kind, (lang, typed)


async def test_R_19_72_a_turn_carried_over_a_restart_gets_its_clock_again(
    tmp_path: Path,
) -> None:
    """alice quits on her turn and comes back after her clock would have run out: her
    turn is hers for a full --clock again (nobody could type while the terminal was
    stopped), and her line, typed at once, is taken, not timed out."""
    time = ManualTime()
    argv = ["--tournament", "sng", "--players", "3", "--seed", "2", "--clock", "30", "alice"]
    first = await _open(tmp_path, argv, time)
    script = iter(["alice: call", "quit"])

    async def typed() -> str | None:
        return next(script)

    assert not await first[0].play(typed)
    await _close(first)
    time.advance(600)
    again = await _open(tmp_path, argv, time)
    tourney, _, out = again
    try:
        (number, table, user), *_ = tourney.humans_to_act()
        assert user == "alice" and tourney.deadline(number, table) == time.now() + 30
        assert Words()("draw.left", seconds=30) in tourney.drawing(table)
        script = iter(["alice: check", "quit"])
        assert not await tourney.play(typed)
        text = out.getvalue()
        assert re.search(r"^\s+alice checks$", text, re.M), text
        assert _en("table.story.time_ran_out", who=Name("alice")) not in text
    finally:
        await _close(again)


async def test_R_19_74_the_add_on_typed_once_its_level_comes(tmp_path: Path) -> None:
    """--rebuys 1 (rebuys through level 3): alice folds until level 3, then types
    `addon`: made when her hand is over, a starting stack more (R-19.38, R-19.43);
    typed again it is refused with the reason. Chips in play count it (R-2.5)."""
    argv = ["--tournament", "sng", "--players", "4", "--seed", "6", "--clock", "0"]
    opened = await _open(tmp_path, [*argv, "--rebuys", "1", "alice"])
    tourney, _, out = opened
    said = 0

    async def lines() -> str | None:
        nonlocal said
        st = tourney.run.st
        if said < 2 and st.config.schedule.level_number(st.level) >= 3:
            said += 1
            return "alice: addon"
        return "quit" if said >= 2 and "alice" in st.addons else "alice: fold"

    try:
        await tourney.play(lines)
        state = tourney.run.st
        assert "alice" in state.addons and state.chips == 5 * 1500
        text = out.getvalue()
        assert _en("tournament.addon_bought", player=Name("alice"), amount=Chips(1500)) in text
        assert "! alice: " + _en("tournament.refuse.addon_closed") in text
        tourney.run.check_chips()
    finally:
        await _close(opened)


async def test_R_19_74_a_player_out_cannot_buy_the_add_on(tmp_path: Path) -> None:
    """--rebuys 1, alice and bob: alice shoves until she is out (no re-entry: nobody
    asks her); her `addon` then is refused with the director's reason, nothing bought."""
    argv = ["--tournament", "sng", "--players", "4", "--seed", "4", "--clock", "0"]
    opened = await _open(tmp_path, [*argv, "--rebuys", "1", "alice", "bob"])
    tourney, _, out = opened
    asked = 0

    async def lines() -> str | None:
        nonlocal asked
        st = tourney.run.st
        if "alice" not in st.seats:
            asked += 1
            return "alice: addon" if asked == 1 else "quit"
        waiting = [user for _, _, user in tourney.humans_to_act()]
        return "alice: all in" if "alice" in waiting else "bob: fold"

    try:
        await tourney.play(lines)
        state = tourney.run.st
        assert asked and "alice" not in state.seats and "alice" not in state.addons
        assert Words()("tourney.reentry", name="alice") not in out.getvalue()
        refused = "! alice: " + _en("tournament.refuse.not_playing")
        assert refused in out.getvalue()
        tourney.run.check_chips()
    finally:
        await _close(opened)


def _asked(out: io.StringIO) -> bool:
    """The last line is the rebuy question (R-19.48)."""
    last = out.getvalue().rstrip().rsplit("\n", 1)[-1]
    return last.startswith("alice: ") and last.endswith("(yes/no)")


async def test_R_19_48_a_busted_player_says_yes_to_the_rebuy_question(tmp_path: Path) -> None:
    """--rebuys 1: alice shoves until she busts; she is asked (the chips, the price, the
    seconds left), types yes, sits again with a starting stack and plays on; her rebuy
    spent, her next bust puts her out. Every entry placed, every chip in play."""
    time = ManualTime()
    argv = ["--tournament", "sng", "--players", "3", "--seed", "4", "--clock", "0"]
    opened = await _open(tmp_path, [*argv, "--rebuys", "1", "alice"], time)
    tourney, _, out = opened
    asked = 0

    async def lines() -> str | None:
        nonlocal asked
        if _asked(out):
            asked += 1
            return "alice: yes"
        return "alice: all in"

    try:
        assert await tourney.play(lines)
        state = tourney.run.st
        question = _en(
            "tournament.ask_rebuy", amount=Chips(1500), price=Chips(100), count=Count(60)
        )
        assert out.getvalue().count(f"alice: {question}") == asked == 1
        assert state.rebuys["alice"] == 1 and len(state.entries) == 3
        assert (
            _en("tournament.rebought", player=Name("alice"), amount=Chips(1500)) in out.getvalue()
        )
        assert len(state.finishes) == 3 and state.status == "finished"
        assert state.chips == (3 + sum(state.rebuys.values())) * 1500  # robots' rebuys too
        assert tourney.run.taken_at_end == state.chips
    finally:
        await _close(opened)


async def test_R_19_48_a_busted_player_says_no_and_is_out(tmp_path: Path) -> None:
    """alice says no: out at once, placed, never asked again; no re-entry offered."""
    time = ManualTime()
    argv = ["--tournament", "sng", "--players", "3", "--seed", "4", "--clock", "0"]
    opened = await _open(tmp_path, [*argv, "--rebuys", "1", "alice"], time)
    tourney, _, out = opened

    async def lines() -> str | None:
        return "alice: no" if _asked(out) else "alice: all in"

    try:
        assert await tourney.play(lines)
        state = tourney.run.st
        assert "alice" not in state.rebuys and "alice" in {f.entry for f in state.finishes}
        assert _en("tournament.no_rebuy", player=Name("alice")) in out.getvalue()
        assert Words()("tourney.reentry", name="alice") not in out.getvalue()
        tourney.run.check_chips()
    finally:
        await _close(opened)


async def test_R_19_49_the_rebuy_question_runs_out_with_the_wait(tmp_path: Path) -> None:
    """Nobody answers alice's question: when her wait has run out she is out (placed)
    and the robots play on to the end."""
    time = ManualTime()
    argv = ["--tournament", "sng", "--players", "3", "--seed", "4", "--clock", "0"]
    opened = await _open(tmp_path, [*argv, "--rebuys", "1", "alice"], time)
    tourney, _, out = opened

    async def lines() -> str | None:
        if _asked(out):
            time.advance(61)
            await asyncio.sleep(0.4)  # the question looks at the clock meanwhile
            return "alice: yes"  # too late: never read as an answer
        return "alice: all in"

    try:
        assert await tourney.play(lines)
        state = tourney.run.st
        assert "alice" not in state.waiting and "alice" not in state.rebuys
        assert "alice" in {f.entry for f in state.finishes}
        assert _en("tournament.no_rebuy", player=Name("alice")) in out.getvalue()
        assert state.status == "finished" and tourney.run.taken_at_end == state.chips
    finally:
        await _close(opened)


async def test_R_19_48_a_decline_heads_up_ends_the_tournament_at_once(tmp_path: Path) -> None:
    """Two entrants: alice folds every hand until the blinds take her last chip, is
    asked, says no: her decline makes the robot the winner, and the terminal ends the
    tournament there (no stuck table, no traceback)."""
    time = ManualTime()
    argv = ["--tournament", "sng", "--players", "2", "--seed", "4", "--clock", "0"]
    # Rebuys sold through level 30 (the late-registration level): she busts in time.
    opened = await _open(tmp_path, [*argv, "--late-reg", "30", "--rebuys", "1", "alice"], time)
    tourney, _, out = opened

    async def lines() -> str | None:
        return "alice: no" if _asked(out) else "alice: fold"  # blinded off, then asked

    try:
        assert await tourney.play(lines)
        state = tourney.run.st
        assert state.status == "finished" and state.winner != "alice"
        assert [f.first for f in state.finishes if f.entry == "alice"] == [2]
        assert _en("tournament.no_rebuy", player=Name("alice")) in out.getvalue()
        assert tourney.run.taken_at_end == state.chips
    finally:
        await _close(opened)
