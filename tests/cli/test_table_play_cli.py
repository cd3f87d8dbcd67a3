"""Issue 12, table play, through `ua session …` (typer's runner): NPC turns by tactics, passions
after a missed attack, several players declaring, dice that go where the GM expects, reactions
chosen and ended by the GM, one numbering, errors that help, the current session."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli.test_session_cli import SCENARIO, Ua, combatant, fight_one_round, of_type

BAR = SCENARIO.parent / "bar-brawl.toml"


@pytest.fixture
def ua(tmp_path: Path) -> Ua:
    return Ua(tmp_path)


@pytest.fixture
def duel(ua: Ua) -> Ua:
    """The knife-vs-.22 duel begun and declared: Vic (the NPC; Rosa's side is the players') to act."""
    ua.ok("session", "new", "duel", "--scenario", str(SCENARIO), "--seed", "5")
    ua.ok("session", "begin", "duel")
    assert ua.ok("session", "next", "duel")["turn"] == "Vic"
    return ua


@pytest.fixture
def bar(ua: Ua) -> Ua:
    """The bar brawl, regulars (Tommy, Dana, Otis) run by players, the crew by tactics; begun."""
    ua.ok("session", "new", "bar", "--scenario", str(BAR), "--seed", "7")
    begun = ua.ok("session", "begin", "bar")
    assert begun["turn"] is None  # round 1's declarations are open
    return ua


def fighter(state: dict, id_: str) -> dict:  # type: ignore[type-arg]
    return next(f for f in state["fight"]["fighters"] if f["id"] == id_)


# -- NPCs act by their tactics ------------------------------------------------------------------


def test_the_npc_whose_turn_it_is_acts_by_its_tactics_and_leaves_a_players_turn_alone_c2_1(duel: Ua) -> None:
    done = duel.ok("session", "npc", "duel")
    (turn,) = done["turns"]
    (attack,) = of_type(turn, "attack_resolved")
    assert (turn["npc"], attack["attacker"], attack["target"]) == ("Vic", "Vic", "Rosa")  # aggressive: attack
    assert turn["dice"][0]["roll"] == "Vic's attack" and done["turn"] == "Rosa"
    assert duel.fails("session", "npc", "duel", code=3).startswith("error: it is Rosa's turn, a player's")


def test_npc_all_acts_for_every_npc_until_a_players_turn(ua: Ua) -> None:
    ua.ok("session", "new", "bar", "--scenario", str(BAR), "--seed", "7", "--players", "otis")
    ua.ok("session", "prefer", "bar", "Otis", "initiative=default", "roll_for_me=all", "reaction=freeze")  # T-3
    ua.ok("session", "begin", "bar")
    done = ua.ok("session", "npc", "bar", "--all")
    npcs = [t["npc"] for t in done["turns"]]
    assert npcs[:5] == ["Tommy", "Dana", "Moe", "Eddie", "Sal"] and "Otis" not in npcs
    # Eddie's bat froze Otis (M2-8, the default reaction): the player never gets a turn, so the
    # NPCs fight on to the end
    assert done["turn"] is None
    state = ua.ok("session", "state", "bar")
    assert state["fight"]["phase"] == "ended" and combatant(state, "Otis")["reaction"]["kind"] == "freeze"


def test_players_are_checked_at_session_new_with_a_hint(ua: Ua) -> None:
    line = ua.fails("session", "new", "bar", "--scenario", str(BAR), "--players", "Tomy", code=2)
    assert "no combatant 'Tomy'" in line and "did you mean 'Tommy'?" in line
    assert ua.count("bar") == 0


def test_a_session_from_sheets_has_no_npcs_and_says_so(duel: Ua) -> None:
    duel.ok("session", "new", "s", "--scenario", str(SCENARIO), "--players", "Rosa,Vic")
    duel.ok("session", "begin", "s", "--init", "Rosa=default", "--init", "Vic=default")
    assert "has no NPCs" in duel.fails("session", "npc", "s", code=2)


# -- several players declare (C2-4, C2-5, C2-16) -------------------------------------------------


def test_each_player_declares_on_its_own_and_may_replace_it_until_the_first_action_c2_4(bar: Ua) -> None:
    bar.ok("session", "focus", "bar", "Tommy", "Eddie")
    bar.ok("session", "focus", "bar", "dana", "moe", "--amount", "20")  # ids in any case
    again = bar.ok("session", "focus", "bar", "Tommy", "Sal", "--amount", "30")
    assert "declares instead" in again["events"][1]["explanation"]
    state = bar.ok("session", "state", "bar")
    assert state["fight"]["phase"] == "declare"  # still open for the others
    assert fighter(state, "Tommy")["focus"] == {"target": "Sal", "amount": 30}
    assert fighter(state, "Dana")["focus"] == {"target": "Moe", "amount": 20}
    bar.ok("session", "attack", "bar", "Tommy", "Sal", "--dice", "4,7")  # the first action closes them
    line = bar.fails("session", "focus", "bar", "Otis", "Sal", code=3)
    assert "before anyone acts (C2-4)" in line and "hint:" in line


def test_keep_dodging_needs_a_dodge_last_round_c2_16(bar: Ua) -> None:
    line = bar.fails("session", "keep-dodging", "bar", "Tommy", code=3)
    assert "was not dodging last round (C2-16)" in line and "ua session dodge" in line


# -- passions after a miss (C-10) ----------------------------------------------------------------


def test_a_passion_after_a_missed_attack_rerolls_it_and_re_resolves_what_followed_c_10(duel: Ua) -> None:
    fight_one_round(duel)  # Rosa misses Vic with 5,9; her knife cuts 1 (C2-14)
    amended = duel.ok("session", "passion", "duel", "Rosa", "rage", "--dice", "1,2")
    # the reroll 12 hits: 1+2+3 = 6 instead of 1; and the amend says the passion is spent now
    assert amended["changes"] == ["Rosa: passions spent none → rage", "Vic: wounds 54 → 49 (-5)"]
    spent = [e["event"] for e in amended["new_events"] if e["type"] == "passion_spent"]
    assert spent and spent[0]["after"]["roll"] == {"tens": 1, "ones": 2, "flipped": False}
    line = duel.fails("session", "passion", "duel", "Rosa", "fear", code=3)
    assert "was already changed by a passion" in line


def test_a_passion_on_a_successful_attack_is_refused_with_the_true_reason_c_10(duel: Ua) -> None:
    duel.ok("session", "attack", "duel", "Vic", "Rosa", "--dice", "5,8")
    line = duel.fails("session", "passion", "duel", "Vic", "rage", code=3)
    assert "Vic's last roll, an attack on Rosa (command 6), was a success, not a failure" in line


# -- dice go where the GM expects -----------------------------------------------------------------


def test_the_output_says_which_faces_went_where_and_extra_faces_are_refused(duel: Ua) -> None:
    shot = duel.ok("session", "attack", "duel", "Vic", "Rosa", "--dice", "5,8")
    assert shot["dice"] == [{"roll": "Vic's attack", "faces": [5, 8]}] and shot["table_dice"] == 2
    duel.ok("session", "undo", "duel")
    before = duel.count("duel")
    line = duel.fails("session", "attack", "duel", "Vic", "Rosa", "--dice", "5,8,1,2,3", code=2)
    assert line.startswith("error: --dice: this attack reads 2 dice (Vic's attack 5,8), but 5 were given")
    assert duel.count("duel") == before  # nothing written


def test_dice_that_run_out_are_refused_off_a_terminal_unless_draw_rest(bar: Ua) -> None:
    bar.ok("session", "attack", "bar", "Tommy", "Eddie", "--dice", "4,7")
    bar.ok("session", "attack", "bar", "Dana", "Moe", "--dice", "4,4")
    bar.ok("session", "npc", "bar")  # Moe
    line = bar.fails("session", "attack", "bar", "Eddie", "Dana", "--dice", "2,9", code=2)
    assert "run out before Dana's Mind" in line and "--draw-rest" in line  # M2-8: a bat, the first time
    drawn = bar.ok("session", "attack", "bar", "Eddie", "Dana", "--dice", "2,9", "--draw-rest")
    assert [d["roll"] for d in drawn["dice"]] == ["Eddie's attack", "Dana's Mind"] and drawn["table_dice"] == 2


# -- madness at the table (M2-4, M2-7) ----------------------------------------------------------


def test_the_gm_chooses_the_reaction_to_a_check_an_attack_raises_and_calms_it_m2_4(bar: Ua) -> None:
    bar.ok("session", "attack", "bar", "Tommy", "Eddie", "--dice", "4,7")
    bar.ok("session", "attack", "bar", "Dana", "Moe", "--dice", "4,4")
    bar.ok("session", "npc", "bar")
    hit = bar.ok("session", "attack", "bar", "Eddie", "Dana", "--dice", "2,9,7,4", "--reaction", "dana=frenzy")
    (reaction,) = of_type(hit, "reaction_taken")
    assert (reaction["actor"], reaction["reaction"]) == ("Dana", "frenzy")  # not the default freeze
    calmed = bar.ok("session", "calm", "bar", "Dana")
    assert of_type(calmed, "reaction_ended")[0]["actor"] == "Dana"
    assert combatant(bar.ok("session", "state", "bar"), "Dana")["reaction"] is None
    assert "is not in the grip of a reaction" in bar.fails("session", "calm", "bar", "Dana", code=3)


# -- one numbering -------------------------------------------------------------------------------


def test_the_log_heads_each_command_with_its_number_which_state_and_fork_take(duel: Ua) -> None:
    fight_one_round(duel)
    lines = duel.ok("session", "log", "duel")["lines"]
    heads = [line["explanation"] for line in lines if line["type"] == "command_recorded"]
    assert "Command #6: Vic attack → Rosa, dice 5,8." in heads
    at_command = duel.ok("session", "state", "duel", "--at", "#6")
    assert at_command == duel.ok("session", "state", "duel", "--at", "17")  # command 6's last event
    assert "command #99 is not one that counts now" in duel.fails("session", "state", "duel", "--at", "#99")


# -- errors that help, less typing -----------------------------------------------------------------


def test_ids_match_in_any_case_and_an_unknown_one_lists_the_combatants(duel: Ua) -> None:
    shot = duel.ok("session", "attack", "duel", "vic", "ROSA", "--dice", "5,8")
    assert of_type(shot, "attack_resolved")[0]["target"] == "Rosa"
    line = duel.fails("session", "attack", "duel", "Rosa", "Vik", code=2)
    assert "no combatant 'Vik'" in line and "did you mean 'Vic'?" in line and "combatants: Rosa, Vic" in line


def test_use_sets_the_current_session_so_its_name_may_be_left_out(duel: Ua) -> None:
    assert duel.ok("session", "use", "duel") == {"current": "duel"}
    assert duel.ok("session", "state")["turn"] == "Vic"
    shot = duel.ok("session", "attack", "Vic", "Rosa", "--dice", "5,8")
    assert shot["turn"] == "Rosa"
    assert duel.ok("session", "state", "duel")["turn"] == "Rosa"  # naming it still works
    assert "no session 'nope'" in duel.fails("session", "use", "nope")


# -- state as an initiative tracker -----------------------------------------------------------------


def test_the_state_marks_who_acts_first_while_declarations_are_open_i2_2(bar: Ua) -> None:
    state = bar.ok("session", "state", "bar")
    assert (state["turn"], state["up_next"]) == (None, "Tommy")  # initiative 30, the highest (I2-2)
    shown = bar("session", "state", "bar")
    assert shown.exit_code == 0 and "declarations open (Tommy acts first)" in shown.stdout
    assert "▶" in shown.stdout


def test_ua_version_prints_the_version(ua: Ua) -> None:
    result = ua("--version")
    assert result.exit_code == 0 and result.stdout.startswith("ua ")


def test_an_amend_leads_with_what_changed_and_full_shows_every_event(duel: Ua) -> None:
    fight_one_round(duel)
    short = duel("session", "passion", "duel", "Rosa", "rage", "--dice", "1,2")
    assert short.exit_code == 0, short.stderr
    lines = short.stdout.splitlines()
    assert lines[0].startswith("amended command #7 (now #8") and lines[1].strip() == "Rosa: passions spent none → rage"
    assert lines[2].strip() == "Vic: wounds 54 → 49 (-5)"
    assert "before:" not in short.stdout
    full = duel("session", "attack", "duel", "Rosa", "Vic", "--dice", "1,3", "--amend", "8", "--full")
    assert full.exit_code == 0 and "before:" in full.stdout and "after:" in full.stdout


def test_amend_with_a_command_that_is_not_one_lists_the_command_names(duel: Ua) -> None:
    line = duel.fails("session", "amend", "duel", "6", "--command", '{"command": "stab"}', code=2)
    assert "attack" in line and "do_nothing" in line and "spend_passion" in line


def test_import_takes_the_name_first_as_export_does(duel: Ua) -> None:
    file = duel.dir / "duel.jsonl"
    assert duel("session", "export", "duel", str(file)).exit_code == 0
    assert duel("session", "import", "copy", str(file)).exit_code == 0
    assert duel.count("copy") == duel.count("duel")


# -- scenario triggers at begin (M2-8) --------------------------------------------------------------

CELLAR = SCENARIO.parent / "the-thing-in-the-cellar.toml"


def test_begin_makes_the_scenarios_madness_triggers_first_m2_8(ua: Ua) -> None:
    ua.ok("session", "new", "cellar", "--scenario", str(CELLAR), "--seed", "3")
    begun = ua.ok("session", "begin", "cellar")
    checked = [of_type(t, "madness_check_resolved")[0] for t in begun["triggers"]]
    assert [(c["actor"], c["meter"], c["rank"]) for c in checked] == [
        ("Dana", "unnatural", 4),
        ("Crane", "unnatural", 4),
    ]
    assert of_type(begun, "round_started") or of_type(begun, "ambush_started")
    assert ua.fails("session", "begin", "cellar", code=3)  # begun already; the triggers are not made twice
    log = ua.ok("session", "log", "cellar", "--type", "madness_check_resolved")["lines"]
    assert len(log) == 2


def test_begin_without_triggers_leaves_them_to_the_gm(ua: Ua) -> None:
    ua.ok("session", "new", "cellar", "--scenario", str(CELLAR), "--seed", "3")
    begun = ua.ok("session", "begin", "cellar", "--no-triggers")
    assert begun["triggers"] == [] and not of_type(begun, "madness_check_resolved")


# -- options that do not apply are refused, not dropped (C-9, C2-22) --------------------------------


def test_flipped_on_a_roll_that_may_not_flip_is_refused_c_9(bar: Ua) -> None:
    shot = bar.ok("session", "attack", "bar", "Tommy", "Eddie", "--dice", "4,7", "--flipped")  # Kung Fu: obsession
    assert of_type(shot, "attack_resolved")[0]["result"]["roll"]["flipped"] is True
    before = bar.count("bar")
    line = bar.fails("session", "attack", "bar", "Dana", "Moe", "--dice", "4,7", "--flipped", code=2)
    assert "Dana's Fighting (Body) roll may not be flip-flopped: it is not the obsession skill (C-9)" in line
    assert bar.count("bar") == before


def test_a_cherry_where_the_attack_earns_none_is_refused_c2_22(duel: Ua) -> None:
    duel.ok("session", "attack", "duel", "Vic", "Rosa", "--dice", "5,8")
    before = duel.count("duel")
    line = duel.fails("session", "attack", "duel", "Rosa", "Vic", "--dice", "4,7", "--cherry", "dazed", code=2)
    assert "--cherry dazed: Rosa's roll is not a matched success" in line and "without --cherry" in line
    assert duel.count("duel") == before
    took = duel.ok("session", "attack", "duel", "Rosa", "Vic", "--dice", "4,4", "--cherry", "dazed")
    assert of_type(took, "cherry_taken")[0]["cherry"] == "dazed"  # Fighting is Rosa's obsession


def test_a_scenarios_schema_errors_are_all_listed_and_enums_name_their_values(ua: Ua) -> None:
    text = SCENARIO.read_text(encoding="utf-8")
    text = text.replace('tactics = "aggressive"\ncherry = "more_hurt"', 'tactics = "aggressive"\ncherry = "more"')
    text = text.replace('in_hand = ".22 pistol"', 'in_hand = ".22 pistol"\nreaction = "panic"')
    shutil.copytree(SCENARIO.parent / "characters", ua.dir / "characters")
    bad = ua.dir / "bad.toml"
    bad.write_text(text, encoding="utf-8")
    line = ua.fails("scenario", "check", str(bad), code=1)
    assert "Invalid enum value 'more' (valid: big_hurt, blind, dazed" in line and "at $.combatants[0].cherry" in line
    also = "2 problems; also: Invalid enum value 'panic' (valid: flee, freeze, frenzy) at $.combatants[1].reaction"
    assert also in line


def test_a_combatant_added_mid_fight_with_tactics_is_an_npc_from_the_next_round_i2_5(bar: Ua) -> None:
    sheet = SCENARIO.parent / "characters" / "gunman.toml"
    joined = bar.ok("session", "add", "bar", "Newt", "--side", "crew", "--sheet", str(sheet), "--tactics", "aggressive")
    assert of_type(joined, "did_nothing")[0]["reinitiative"] in ("default", "roll")
    assert "Newt" not in bar.ok("session", "state", "bar")["fight"]["order"]
    assert "no tactics preset 'brave'" in bar.fails(
        "session", "add", "bar", "Nora", "--side", "crew", "--sheet", str(sheet), "--tactics", "brave"
    )
