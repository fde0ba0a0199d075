"""`rulekb bench --only parse --peer COMMAND`: another parser's time for the CR, taken from its own command and
set beside this checkout's parse, round by round; a command that gives no figure is a clear message."""
from __future__ import annotations

import sys

import pytest

from pipeline.bench.parsing import beside_peer, peer_figure

from conftest import FIXTURES

CR = FIXTURES / "corpus" / "cr-2026-01-16.txt"


def test_the_peer_s_last_figure_is_read_and_its_file_is_the_cr():
    command = f"{sys.executable} -c \"import sys; print('best of 5:', 12.5 if sys.argv[-1].endswith('.txt') else 0)\""
    assert peer_figure(command, CR) == 12.5


def test_beside_the_peer_the_ratio_is_ours_over_theirs(capsys):
    beside_peer(CR, f"{sys.executable} -c \"print('took'); print(1000.0)\"", rounds=1)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("cr-2026-01-16.txt: this checkout beside the peer command (1 rounds")
    parse_and_link = lines[2].split()
    assert parse_and_link[:3] == ["parse", "+", "link"]
    ours, peer, ratio = (float(figure) for figure in parse_and_link[3:6])
    assert peer == 1000.0 and 0 < ours < 1000
    assert ratio == pytest.approx(ours / peer, abs=0.006)


@pytest.mark.parametrize("command", [f"{sys.executable} -c \"print('no figure')\"",
                                     f"{sys.executable} -c \"import sys; sys.exit(3)\"",
                                     "/nonexistent/peer-parser", "unclosed 'quote"])
def test_a_peer_command_without_a_figure_is_a_message_not_a_traceback(command):
    with pytest.raises(SystemExit) as ended:
        peer_figure(command, CR)
    assert str(ended.value).startswith("bench: the peer command")
