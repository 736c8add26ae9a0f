"""The shared text hex map: sections of even width within 72 columns, odd rows shifted."""

from __future__ import annotations

from engine.hextext import hex_sections


def test_a_wide_map_is_cut_into_even_sections_within_72_columns() -> None:
    text = hex_sections(15, 3, lambda name: name, lambda name: "")
    headers = [line.split() for line in text.splitlines() if line.startswith("   A")]
    headers += [line.split() for line in text.splitlines() if line.startswith("   I")]
    assert headers == [list("ABCDEFGH")] * 2 + [list("IJKLMNO")] * 2
    assert max(len(line) for line in text.splitlines()) <= 72


def test_every_second_row_is_shifted_half_a_hex() -> None:
    text = hex_sections(2, 2, lambda name: name, lambda name: "x")
    lines = text.splitlines()
    assert lines[1] == " 1 A1    B1        1"
    assert lines[3] == " 2    A2    B2     2"
    assert lines[2].strip() == "x     x" and lines[4].startswith("      x")
