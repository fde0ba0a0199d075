"""What an infraction result shows a judge to do: the ordinary case of its remedy (parse.remedy), read from
the real IPGs' remedy paragraphs, never their first sentence when that is an exception.

The expected openings are read off the documents by hand (2024 text: 2.1 from line 216, 2.3 on lines 348-410;
2020 HTML: 2.3)."""
from __future__ import annotations

import shutil

import pytest

from pipeline.corpus import load_corpus
from pipeline.model import DocumentInfo
from pipeline.parse import parse
from pipeline.parse.remedy import ordinary_fix
from pipeline.read import read_source
from pipeline.search.entries import entries

from conftest import CORPUS

_parsed: dict = {}


def sections(name: str) -> dict:
    if name not in _parsed:
        path = CORPUS / name
        info = DocumentInfo(id="ipg", kind="ipg", title="Infraction Procedure Guide", edition=None, source=name)
        _parsed[name] = {section.number: section for section in parse(read_source(path), info).sections}
    return _parsed[name]


@pytest.mark.parametrize("name", ["ipg-2024-09-23.txt", "ipg-2020-01-24-magicjudges.html"])
def test_hidden_card_error_is_fixed_by_the_opponent_choosing_from_the_revealed_set(name):
    # Its remedy opens with a simple backup "in cases where" and a set that "no longer exists": both exceptions.
    fix = ordinary_fix(sections(name)["2.3"])
    assert fix.startswith("If a set affected by the error contains more cards than it is supposed to contain, "
                          "the player reveals the set of cards")
    assert "opponent chooses" in fix and "simple backup" not in fix


def test_the_catch_all_paragraph_is_the_ordinary_case():
    # Missed Trigger: Auras, delayed triggers and "for all other triggered abilities, if ... previous turn" are
    # narrower than the paragraph for what "isn't covered by the previous paragraphs".
    assert ordinary_fix(sections("ipg-2024-09-23.txt")["2.1"]).startswith(
        "If the triggered ability isn’t covered by the previous paragraphs, the opponent chooses")


@pytest.mark.parametrize("number, opening", [
    ("2.4", "The player takes an additional mulligan."),
    ("3.4", "Alter the decklist to match the deck the player is actually playing."),
    ("3.5", "Locate any cards missing from the deck"),
    ("3.9", "Shuffle the appropriate portion of the deck thoroughly."),
])
def test_a_remedy_that_says_what_to_do_without_a_condition_is_that(number, opening):
    assert ordinary_fix(sections("ipg-2024-09-23.txt")[number]).startswith(opening)


def test_no_remedy_no_fix_and_no_infraction_no_fix():
    ipg = sections("ipg-2024-09-23.txt")
    assert ordinary_fix(ipg["3.2"]) == ""                 # Outside Assistance: a penalty, nothing to fix
    assert ordinary_fix(ipg["1.4"]) == ""                 # Backing Up: a section, no infraction


def test_an_infraction_is_found_by_the_names_older_editions_gave_it(tmp_path):
    for name in ("ipg-2024-09-23.txt", "ipg-2014-09-26.pdf"):
        shutil.copyfile(CORPUS / name, tmp_path / name)
    former = {entry.number: entry.former for entry in entries(load_corpus(tmp_path)) if entry.kind == "ipg"}
    assert former["2.3"] == "Drawing Extra Cards"                    # the 2014 2.3, Hidden Card Error since
    assert former["2.4"] == "Improper Drawing at Start of Game"      # Mulligan Procedure Error since
    # the 2014 3.4 was Insufficient Shuffling, which the 2024 edition has as 3.9: no former name of Decklist Problem
    assert former["3.4"] == "" and former["3.9"] == ""
    assert former["2.2"] == ""                                       # the same name: nothing to add


@pytest.mark.parametrize("snippet, repeats", [
    ("This will cover the bulk of <mark>player</mark> errors, and usually the least disruptive…", True),
    ("This will cover the bulk of player errors, and usually the least disruptive option is to leave the game as it"
     " is. Then a second sentence", True),
    ("…the opponent may choose to leave it", False),
    ("", False),
])
def test_a_snippet_that_only_repeats_the_fix_is_not_printed_under_it(snippet, repeats):
    from pipeline.cli.output import _repeats
    fix = "This will cover the bulk of player errors, and usually the least disruptive option is to leave the game as it is."
    assert _repeats(snippet, fix) is repeats
