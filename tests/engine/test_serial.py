"""engine.serial: typed state to plain JSON and back, with a clear error naming the field."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, ClassVar

import pytest

from engine import get_ruleset
from engine.serial import Serialisable, StateFormatError, from_json, sparse, stored_as, to_json

STORED = Path(__file__).parent / "stored"


class Colour(Enum):
    RED = "red"
    BLUE = "blue"


@dataclass
class Row:
    json_inline: ClassVar[bool] = True
    cells: tuple[str, ...]


@dataclass
class Piece:
    kind: Colour
    count: int = sparse(0)
    marks: list[str] = sparse(default_factory=list)


@dataclass
class Board(Serialisable):
    json_tag: ClassVar[dict[str, str]] = {"game": "toy"}

    rows: list[Row]
    pieces: dict[str, Piece]
    owner: str | None = None
    place: tuple[int, int] = (0, 0)
    extra: dict[str, Any] = field(default_factory=dict)
    legacy: int = stored_as("old_name", default=0)


def board() -> Board:
    return Board(
        rows=[Row(("a", "b"))],
        pieces={"z": Piece(Colour.RED, 2), "a": Piece(Colour.BLUE)},
        owner="ann",
        place=(3, 4),
        extra={"nested": [1, {"x": True}]},
        legacy=7,
    )


def test_written_json_is_plain_with_tags_sorted_keys_sparse_fields_and_renames() -> None:
    data = board().to_json()
    assert data == {
        "game": "toy",
        "rows": [["a", "b"]],
        "pieces": {"a": {"kind": "blue"}, "z": {"kind": "red", "count": 2}},
        "owner": "ann",
        "place": [3, 4],
        "extra": {"nested": [1, {"x": True}]},
        "old_name": 7,
    }
    assert list(data["pieces"]) == ["a", "z"]  # sorted, as the service stores it
    assert json.loads(json.dumps(data)) == data


def test_read_back_gives_the_same_objects() -> None:
    original = board()
    again = Board.from_json(json.loads(json.dumps(original.to_json())))
    assert again == original
    assert isinstance(again.place, tuple) and isinstance(again.rows[0].cells, tuple)
    assert again.pieces["a"].marks == [] and again.pieces["a"].count == 0


def test_any_is_copied_so_that_the_read_state_shares_nothing_with_its_input() -> None:
    data = board().to_json()
    again = Board.from_json(data)
    again.extra["nested"].append(2)
    assert data["extra"] == {"nested": [1, {"x": True}]}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["pieces"]["z"].update(count="x"), "pieces.z.count: expected a whole number"),
        (lambda d: d["pieces"]["z"].update(count=True), "pieces.z.count: expected a whole number"),
        (lambda d: d["pieces"]["a"].update(kind="green"), "pieces.a.kind: expected one of"),
        (lambda d: d.update(rows=[["a", 1]]), "rows[0][1]: expected a string"),
        (lambda d: d.update(place=[1]), "place: expected a list of 2"),
        (lambda d: d.pop("rows"), "missing field rows"),
        (lambda d: d.update(colour="red"), "unknown field colour"),
        (lambda d: d.update(game="chess"), "game: expected 'toy'"),
        (lambda d: d.update(pieces=[]), "pieces: expected an object"),
    ],
)
def test_json_that_does_not_fit_is_refused_naming_the_field(change: Any, message: str) -> None:
    data = board().to_json()
    change(data)
    with pytest.raises(StateFormatError, match=message.replace("[", r"\[").replace("]", r"\]")):
        Board.from_json(data)


def test_a_type_without_a_json_form_is_a_programming_error() -> None:
    @dataclass
    class Odd:
        keys: dict[int, str]

    with pytest.raises(TypeError, match="keyed by str"):
        from_json(Odd, {"keys": {}})
    with pytest.raises(TypeError, match="cannot write a set"):
        to_json({1, 2})


@pytest.mark.parametrize("name", sorted(p.stem for p in STORED.glob("*.json")))
def test_a_state_stored_before_the_generic_mechanism_reads_and_writes_byte_for_byte(
    name: str,
) -> None:
    """States written by the hand-made converters of 0.1 (tests/engine/stored, made by the
    bot games of that version) load and write back to the same bytes, and play on."""
    text = (STORED / f"{name}.json").read_text(encoding="utf-8")
    stored = json.loads(text)
    ruleset = get_ruleset(stored["ruleset"])
    game = ruleset.model.from_json(stored)  # type: ignore[attr-defined]
    again = json.dumps(game.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert again + "\n" == text
    seat = ruleset.seats_to_order(stored)[0]
    parsed = {seat: ruleset.parse_orders(stored, seat, ruleset.bot_orders(stored, seat, 1))}
    assert ruleset.resolve(stored, parsed, 1).state["step"] == stored["step"] + 1
