"""The order in which xdist's workers take the modules (tests/scheduling.py): the costliest module first by
the CPU times of the last runs, each module's tests in their own order, and what runs unchanged."""
from __future__ import annotations

import json
from types import SimpleNamespace

from scheduling import FOLDER, costliest_first, recorded, with_committed


def items(*nodeids: str) -> list:
    return [SimpleNamespace(nodeid=nodeid) for nodeid in nodeids]


def ids(found: list) -> list[str]:
    return [item.nodeid for item in found]


def test_the_costliest_module_goes_first_with_its_tests_in_their_own_order():
    collected = items("tests/test_a.py::one", "tests/test_a.py::two", "tests/test_b.py::build[x::y]",
                      "tests/test_b.py::after", "tests/test_c.py::one")
    seconds = {"tests/test_a.py::one": 0.5, "tests/test_a.py::two": 0.5, "tests/test_b.py::build[x::y]": 12.0,
               "tests/test_b.py::after": 0.1, "tests/test_c.py::one": 3.0}
    assert ids(costliest_first(collected, seconds)) == [
        "tests/test_b.py::build[x::y]", "tests/test_b.py::after", "tests/test_c.py::one",
        "tests/test_a.py::one", "tests/test_a.py::two"]


def test_a_test_never_timed_counts_as_the_mean_and_without_times_the_order_is_by_number_of_tests():
    collected = items("tests/test_a.py::one", "tests/test_b.py::one", "tests/test_b.py::two", "tests/test_c.py::new")
    seconds = {"tests/test_a.py::one": 1.0, "tests/test_b.py::one": 0.2, "tests/test_b.py::two": 0.2}
    # the mean is 0.47 s: test_c (never timed) 0.47, test_b 0.4
    assert ids(costliest_first(collected, seconds)) == [
        "tests/test_a.py::one", "tests/test_c.py::new", "tests/test_b.py::one", "tests/test_b.py::two"]
    assert ids(costliest_first(collected, {})) == [
        "tests/test_b.py::one", "tests/test_b.py::two", "tests/test_a.py::one", "tests/test_c.py::new"]


def test_the_newest_time_of_a_test_wins_and_a_damaged_file_is_ignored(tmp_path):
    folder = tmp_path / FOLDER
    folder.mkdir()
    (folder / "gw0.json").write_text(json.dumps({"t::a": [100.0, 5.0], "t::b": [100.0, 1.0]}), encoding="utf-8")
    (folder / "gw1.json").write_text(json.dumps({"t::a": [200.0, 7.0]}), encoding="utf-8")
    (folder / "main.json").write_text('{"t::c": [300.0, 2', encoding="utf-8")
    cache = SimpleNamespace(mkdir=lambda name: tmp_path / name)
    assert recorded(cache) == {"t::a": 7.0, "t::b": 1.0}


def test_a_module_needing_the_shared_site_waits_until_the_work_before_it_covers_the_build():
    """The costliest module needing the site builds it; the others come once other work covers that build."""
    collected = [SimpleNamespace(nodeid=nodeid, fixturenames=fixtures) for nodeid, fixtures in (
        ("tests/test_search.py::one", ["built_site"]), ("tests/test_site.py::one", ["built_site"]),
        ("tests/test_parse.py::one", []), ("tests/test_server.py::one", ["tmp_path"]),
        ("tests/test_server.py::two", ["built_site"]), ("tests/test_small.py::one", []))]
    seconds = {"tests/test_search.py::one": 18.0, "tests/test_site.py::one": 6.0, "tests/test_parse.py::one": 5.0,
               "tests/test_server.py::one": 4.0, "tests/test_server.py::two": 0.5, "tests/test_small.py::one": 1.0}
    assert ids(costliest_first(collected, seconds)) == [
        "tests/test_search.py::one", "tests/test_parse.py::one", "tests/test_small.py::one",
        "tests/test_site.py::one", "tests/test_server.py::one", "tests/test_server.py::two"]
    seconds["tests/test_small.py::one"] = 9.0            # covered by the time test_small is queued
    assert ids(costliest_first(collected, seconds)) == [
        "tests/test_search.py::one", "tests/test_small.py::one", "tests/test_parse.py::one",
        "tests/test_site.py::one", "tests/test_server.py::one", "tests/test_server.py::two"]


def test_a_module_never_timed_here_takes_its_committed_cost_shared_among_its_tests():
    collected = items("tests/test_many.py::a", "tests/test_many.py::b", "tests/test_many.py::c",
                      "tests/test_one.py::costly", "tests/test_new.py::x")
    seconds = with_committed(collected, {"tests/test_many.py::a": 2.0}, {"tests/test_many.py": 9.0,
                                                                       "tests/test_one.py": 80.0})
    assert seconds == {"tests/test_many.py::a": 2.0, "tests/test_many.py::b": 4.5, "tests/test_many.py::c": 4.5,
                       "tests/test_one.py::costly": 80.0}
    assert ids(costliest_first(collected, seconds))[0] == "tests/test_one.py::costly"
