"""Builders for the checkout pack's and the incomplete copies' tests: a coded game with its pieces linked."""

from catalogue.models import Component, Game
from loans import services
from members.models import HouseholdMember, Member
from rules.models import RulePage
from tests.loan_helpers import make_copy, make_game

# Seed 004's piece list of La chasse aux monstres, each line linked to the module's piece.
CHASSE_PIECES = [
    (20, "cartes monstres (avec un enfant dans son lit au verso)", "monster_cards"),
    (1, "carte placard", "cupboard_card"),
    (10, "tuiles jouet", "toy_tiles"),
    (3, "tuiles de progression des monstres", "progression_tiles"),
    (2, "tuiles pour chasseurs expert (fond bleu)", "expert_tiles"),
    (1, "règle de jeu", "accessory"),
]


def make_chasse(*, linked: bool = True) -> Game:
    """La chasse aux monstres with its rules page (the coded module) and its seed piece list."""
    game = make_game("La chasse aux monstres")
    for position, (quantity, label, key) in enumerate(CHASSE_PIECES):
        Component.objects.create(
            game=game, position=position, quantity=quantity, label=label, rules_key=key if linked else ""
        )
    RulePage.objects.create(slug="la-chasse-aux-monstres", title="La chasse aux monstres", game=game)
    return game


def make_incomplete_copy(game: Game, barcode: str, *, missing: list[tuple[str, int]], member: Member, staff):
    """A copy that came back from `member` with pieces missing (by the start of their label)."""
    copy = make_copy(game, barcode)
    loan = services.loan_create(copy=copy, member=member, staff=staff)
    pieces = [(game.components.get(label__startswith=label), count) for label, count in missing]
    services.loan_return(loan=loan, staff=staff, missing=pieces)
    copy.refresh_from_db()
    return copy


def add_household(member: Member, *first_names: str) -> None:
    HouseholdMember.objects.bulk_create(
        HouseholdMember(member=member, first_name=name, birth_year=2012 + index)
        for index, name in enumerate(first_names)
    )
