"""Quarto's rules (seed 002): the setup, and the referee check with the squares and beginners' variants."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game
from rules.games.quarto import CHARACTERS, SQUARES

QUARTO = get_game("quarto")
EMPTY = None


def empty_board():
    return [[EMPTY] * 4 for _row in range(4)]


def board_with(cells):
    """A board holding `{(row, column): piece}`, the other cells empty."""
    board = empty_board()
    for (row, column), piece in cells.items():
        board[row][column] = piece
    return board


def check(board, **body):
    return QUARTO.run_check({"board": board, **body})


def messages(error):
    return {path: [str(message) for message in texts] for path, texts in error.errors.items()}


def sharing_only(character, present):
    """Four distinct pieces sharing exactly one side of one character and nothing else."""
    others = [c.bit for c in CHARACTERS if c is not character]
    base = character.bit if present else 0
    # Each other bit is held by exactly two of the four pieces, so it is never shared.
    return [base, base | others[0] | others[1], base | others[1] | others[2], base | others[0] | others[2]]


# --- setup ------------------------------------------------------------------------------------------


def test_setup_puts_the_board_of_16_squares_and_the_16_pieces_between_two_players():
    result = QUARTO.run_setup({"players": 2})
    assert result.values == {"pieces": 16, "squares": 16, "winning_lines": 10}
    assert [(str(c.name), c.count) for c in result.components] == [("Plateau de 16 cases", 1), ("Pièces", 16)]
    assert "10 alignements possibles (lignes, colonnes, diagonales)" in str(result.steps[-1])


def test_setup_for_joueurs_avertis_counts_the_nine_extra_squares():
    result = QUARTO.run_setup({"players": 2, "variants": "squares"})
    assert result.values["winning_lines"] == 19
    assert "19 alignements possibles" in str(result.steps[-1])
    assert "9 carrés de 2 × 2 cases" in str(result.steps[-1])


@pytest.mark.parametrize("players", [1, 3])
def test_setup_refuses_anything_but_two_players(players):
    with pytest.raises(InvalidInput) as error:
        QUARTO.run_setup({"players": players})
    assert messages(error.value) == {"players": ["Ce jeu se joue à 2 joueurs exactement."]}


def test_quarto_has_a_setup_and_a_check_but_no_score_sheet():
    assert QUARTO.features == ["setup", "check"]


# --- the seed's rules -------------------------------------------------------------------------------


def test_the_sixteen_pieces_are_all_different():
    """« 16 pièces différentes ayant 4 caractères » : every piece has its own set of characters."""
    descriptions = {
        tuple(c.present if piece & c.bit else c.absent for c in CHARACTERS) for piece in range(16)
    }
    assert len(descriptions) == 16


@pytest.mark.parametrize(
    ("character", "present", "name"),
    [(c, True, c.present) for c in CHARACTERS] + [(c, False, c.absent) for c in CHARACTERS],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_four_pieces_sharing_any_one_of_the_eight_sides_make_a_quarto(character, present, name):
    """« une ligne de 4 claires ou 4 foncées ou 4 rondes ou 4 carrées ou 4 hautes ou 4 basses ou 4 pleines ou 4 creuses »"""
    pieces = sharing_only(character, present)
    result = check(board_with({(2, column): piece for column, piece in enumerate(pieces)}))
    assert result == {
        "quarto": True,
        "lines": [{"kind": "row", "cells": [[2, 0], [2, 1], [2, 2], [2, 3]], "shared": [name]}],
    }


def test_several_shared_characters_add_up_in_one_line():
    """« Plusieurs caractères peuvent se cumuler » : 1, 3, 5, 7 are all tall and all solid."""
    result = check(board_with({(row, 1): piece for row, piece in enumerate([1, 3, 5, 7])}))
    assert result["lines"] == [
        {"kind": "column", "cells": [[0, 1], [1, 1], [2, 1], [3, 1]], "shared": ["tall", "solid"]}
    ]


def test_both_diagonals_count():
    """« Cet alignement peut être horizontal, vertical ou diagonal. »"""
    main = check(board_with({(i, i): piece for i, piece in enumerate([8, 9, 10, 11])}))
    anti = check(board_with({(i, 3 - i): piece for i, piece in enumerate([4, 6, 12, 14])}))
    assert main["lines"] == [
        {"kind": "diagonal", "cells": [[0, 0], [1, 1], [2, 2], [3, 3]], "shared": ["light", "hollow"]}
    ]
    assert anti["lines"] == [
        {"kind": "diagonal", "cells": [[0, 3], [1, 2], [2, 1], [3, 0]], "shared": ["short", "dark"]}
    ]


def test_four_pieces_with_nothing_in_common_are_no_quarto():
    # 0 and 15 differ in everything; 3 and 12 too.
    assert check(board_with({(0, 0): 0, (0, 1): 15, (0, 2): 3, (0, 3): 12})) == {"quarto": False, "lines": []}


def test_a_line_of_three_pieces_is_not_yet_a_quarto():
    assert check(board_with({(1, 0): 1, (1, 1): 3, (1, 2): 5})) == {"quarto": False, "lines": []}


def test_an_empty_board_holds_no_quarto():
    assert check(empty_board()) == {"quarto": False, "lines": []}


def test_a_piece_completing_two_lines_reports_both():
    board = board_with({(0, 0): 1, (0, 1): 3, (0, 2): 5, (0, 3): 7, (1, 3): 15, (2, 3): 13, (3, 3): 11})
    result = check(board)
    assert [(line["kind"], line["shared"]) for line in result["lines"]] == [
        ("row", ["tall", "solid"]),
        ("column", ["tall"]),
    ]


def test_the_board_has_the_nine_squares_the_seed_announces():
    """Joueurs avertis : « Il y a alors 9 possibilités supplémentaires de faire QUARTO. »"""
    assert len(SQUARES) == 9
    assert {cell for square in SQUARES for cell in square.cells} == {
        (r, c) for r in range(4) for c in range(4)
    }


def test_a_square_counts_only_for_joueurs_avertis():
    square = board_with({(1, 1): 2, (1, 2): 3, (2, 1): 6, (2, 2): 7})  # four round, solid pieces
    assert check(square) == {"quarto": False, "lines": []}
    assert check(square, variants=["squares"]) == {
        "quarto": True,
        "lines": [
            {"kind": "square", "cells": [[1, 1], [1, 2], [2, 1], [2, 2]], "shared": ["round", "solid"]}
        ],
    }


def test_the_corners_of_the_board_are_not_a_square():
    corners = board_with({(0, 0): 2, (0, 3): 3, (3, 0): 6, (3, 3): 7})
    assert check(corners, variants=["squares"]) == {"quarto": False, "lines": []}


def test_beginners_count_only_the_characters_they_chose():
    """« en ne prenant que 1, 2 ou 3 caractères comme critères […] 4 pièces ayant la même couleur »"""
    tall_only = board_with(
        {(3, column): piece for column, piece in enumerate(sharing_only(CHARACTERS[0], True))}
    )
    assert check(tall_only, characters=["colour"]) == {"quarto": False, "lines": []}
    dark_only = board_with(
        {(3, column): piece for column, piece in enumerate(sharing_only(CHARACTERS[2], True))}
    )
    assert check(dark_only, characters=["colour"])["lines"][0]["shared"] == ["dark"]
    tall_and_solid = board_with({(0, column): piece for column, piece in enumerate([1, 3, 5, 7])})
    assert check(tall_and_solid, characters=["fill", "shape"])["lines"][0]["shared"] == ["solid"]


def test_characters_may_come_as_a_comma_separated_string():
    tall_and_solid = board_with({(0, column): piece for column, piece in enumerate([1, 3, 5, 7])})
    assert check(tall_and_solid, characters="height, fill")["lines"][0]["shared"] == ["tall", "solid"]


# --- bad input --------------------------------------------------------------------------------------


def test_a_piece_twice_on_the_board_is_refused_at_its_second_cell():
    board = board_with({(0, 1): 9, (2, 3): 9})
    with pytest.raises(InvalidInput) as error:
        check(board)
    assert messages(error.value) == {
        "board.2.3": ["La pièce 9 est déjà sur le plateau (ligne 1, colonne 2)."]
    }


def test_a_board_of_the_wrong_shape_is_refused():
    with pytest.raises(InvalidInput) as error:
        check([[None] * 4] * 3)
    assert messages(error.value) == {"board": ["Le plateau compte 4 lignes de 4 cases."]}
    with pytest.raises(InvalidInput) as error:
        check([[None] * 4, [None] * 5, [None] * 4, "abcd"])
    assert messages(error.value) == {
        "board.1": ["Chaque ligne du plateau compte 4 cases."],
        "board.3": ["Chaque ligne du plateau compte 4 cases."],
    }


def test_a_piece_that_does_not_exist_is_refused_at_its_cell():
    board = board_with({(0, 0): 16, (1, 2): "tall", (3, 3): -1})
    with pytest.raises(InvalidInput) as error:
        check(board)
    assert messages(error.value) == {
        "board.0.0": ["La valeur doit être au plus 15."],
        "board.1.2": ["Saisissez un nombre entier."],
        "board.3.3": ["La valeur doit être au moins 0."],
    }


def test_a_missing_board_is_refused():
    with pytest.raises(InvalidInput) as error:
        QUARTO.run_check({"variants": []})
    assert messages(error.value) == {"board": ["Ce champ est obligatoire."]}


def test_bad_characters_are_refused_with_their_path():
    with pytest.raises(InvalidInput) as error:
        check(empty_board(), characters=["height", "weight"])
    assert messages(error.value) == {
        "characters.1": ["Choisissez une de ces valeurs : height, shape, colour, fill."]
    }
    with pytest.raises(InvalidInput) as error:
        check(empty_board(), characters=[])
    assert messages(error.value) == {"characters": ["Choisissez au moins un caractère."]}
    with pytest.raises(InvalidInput) as error:
        check(empty_board(), characters=["fill", "fill"])
    assert messages(error.value) == {"characters.1": ["Ce caractère est déjà choisi."]}


def test_an_unknown_variant_is_refused():
    with pytest.raises(InvalidInput) as error:
        check(empty_board(), variants=["triangles"])
    assert messages(error.value) == {
        "variants": ["Variante inconnue : triangles. Variantes de ce jeu : squares."]
    }


# --- properties -------------------------------------------------------------------------------------

boards = st.tuples(st.permutations(range(16)), st.lists(st.booleans(), min_size=16, max_size=16)).map(
    lambda drawn: [[drawn[0][4 * r + c] if drawn[1][4 * r + c] else None for c in range(4)] for r in range(4)]
)
variant_sets = st.sampled_from([[], ["squares"]])
character_sets = st.sets(st.sampled_from([c.slug for c in CHARACTERS]), min_size=1).map(sorted)


@given(boards, variant_sets, character_sets)
def test_every_reported_line_is_full_and_really_shares_what_it_says(board, variants, characters):
    result = check(board, variants=variants, characters=characters)
    assert result["quarto"] == bool(result["lines"])
    for line in result["lines"]:
        pieces = [board[r][c] for r, c in line["cells"]]
        assert None not in pieces and line["shared"]
        for character in CHARACTERS:
            if character.present in line["shared"]:
                assert character.slug in characters and all(p & character.bit for p in pieces)
            if character.absent in line["shared"]:
                assert character.slug in characters and not any(p & character.bit for p in pieces)


@given(boards, boards, variant_sets)
def test_a_line_found_stays_found_whatever_the_other_cells_hold(board, others, variants):
    found = check(board, variants=variants)["lines"]
    for line in found:
        kept = {(r, c): board[r][c] for r, c in line["cells"]}
        # Any other position around it: its copies of the kept pieces leave the board.
        changed = [
            [None if others[r][c] in kept.values() else others[r][c] for c in range(4)] for r in range(4)
        ]
        for (r, c), piece in kept.items():
            changed[r][c] = piece
        assert line in check(changed, variants=variants)["lines"]


def transposed(board):
    return [[board[c][r] for c in range(4)] for r in range(4)]


def transposed_lines(lines):
    kinds = {"row": "column", "column": "row", "diagonal": "diagonal", "square": "square"}
    return {
        (kinds[line["kind"]], frozenset((c, r) for r, c in line["cells"]), tuple(line["shared"]))
        for line in lines
    }


@given(boards, variant_sets)
def test_transposing_the_board_transposes_the_lines(board, variants):
    lines = check(board, variants=variants)["lines"]
    again = check(transposed(board), variants=variants)["lines"]
    assert transposed_lines(lines) == {
        (line["kind"], frozenset(tuple(cell) for cell in line["cells"]), tuple(line["shared"]))
        for line in again
    }


@given(boards, character_sets)
def test_squares_and_more_characters_only_ever_add_lines(board, characters):
    fewer = check(board, characters=characters)["lines"]
    squares = check(board, variants=["squares"], characters=characters)["lines"]
    all_characters = check(board)["lines"]
    assert all(line in squares for line in fewer)
    cells_with_all = [line["cells"] for line in all_characters]
    assert all(line["cells"] in cells_with_all for line in fewer)
