"""What any declared setup guarantees, whatever a librarian writes: the engine's side, without Django.

A declaration that passes the checks sets up every table of its range; a complete box allows every
table; a copy missing fewer pieces never allows fewer tables (as tests/test_pieces.py says of the
coded games).
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import PlayerRange, playable_with
from rules.engine.declared import parse_setup


@st.composite
def declarations(draw):
    """A declaration that passes the checks: a box, steps dealing, putting out or removing within it."""
    low = draw(st.integers(1, 4))
    high = draw(st.integers(low, 6))
    variant = draw(st.booleans())
    steps = []
    for index in range(draw(st.integers(1, 4))):
        action = draw(st.sampled_from(["each", "table", "remove"]))
        step = {"component": f"c{index}", "action": action, "count": draw(st.integers(0, 3))}
        if variant and draw(st.booleans()):
            step[draw(st.sampled_from(["variants", "unless"]))] = ["v"]
        steps.append(step)
    return {
        "players": PlayerRange(low, high),
        "setup": {
            "variants": [{"key": "v", "label": "Variante"}] if variant else [],
            # Room for the largest table: 3 each at 6 players, and as many again removed.
            "components": [
                {"key": f"c{index}", "name": f"Élément {index}", "in_box": 40} for index in range(4)
            ],
            "steps": steps,
        },
    }


@settings(max_examples=60, deadline=None)
@given(declarations(), st.data())
def test_a_declared_box_allows_every_table_complete_and_never_more_with_fewer_pieces(declared, data):
    setup = parse_setup(declared["setup"], declared["players"])
    pieces, players = setup.pieces(), declared["players"]
    full = playable_with(pieces, players, {})
    assert full.complete and full.counts() == tuple(range(players.minimum, players.highest + 1))
    more = {f"c{index}": data.draw(st.integers(0, 40)) for index in range(4)}
    fewer = {key: data.draw(st.integers(0, count)) for key, count in more.items()}
    assert set(playable_with(pieces, players, more).counts()) <= set(
        playable_with(pieces, players, fewer).counts()
    )


@settings(max_examples=60, deadline=None)
@given(declarations())
def test_every_table_and_variant_of_a_checked_declaration_sets_up_within_the_box(declared):
    setup = parse_setup(declared["setup"], declared["players"])
    players = declared["players"]
    for chosen in (frozenset(), frozenset({"v"}) if setup.variants else frozenset()):
        for count in range(players.minimum, players.highest + 1):
            result = setup.result(count, chosen)
            assert result.values["players"] == count
            assert all(0 <= component.count <= 40 for component in result.components)
