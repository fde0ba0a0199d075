"""The order in which xdist's workers take the modules (tests/scheduling.py): the costliest module first by
the CPU times of the last runs, each module's tests in their own order, and what runs unchanged."""
from __future__ import annotations

import json
from types import SimpleNamespace

from scheduling import FOLDER, costliest_first, recorded


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
