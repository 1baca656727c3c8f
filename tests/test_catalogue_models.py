"""The catalogue's integrity rules (clear French messages, enforced by the database too) and its queries."""

import datetime

import pytest
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction

from catalogue.models import Category, Component, Copy, Game, Location, Tag
from loans.models import Loan
from members.models import Member, MembershipType


@pytest.fixture
def site(db) -> Location:
    return Location.objects.create(name="Maison des Enfants")


def make_game(title: str, **fields) -> Game:
    fields.setdefault("slug", title.lower().replace(" ", "-"))
    return Game.objects.create(title=title, **fields)


def make_copy(game: Game, barcode: str, location: Location, **fields) -> Copy:
    return Copy.objects.create(game=game, cote="ABC", barcode=barcode, location=location, **fields)


def open_loan(copy: Copy, staff_user) -> Loan:
    membership = MembershipType.objects.get_or_create(name="Annuelle")[0]
    member = Member.objects.create(
        card_barcode=f"C{copy.pk}",
        name="Famille Test",
        membership_type=membership,
        membership_expiry=datetime.date.today() + datetime.timedelta(days=365),
    )
    return Loan.objects.create(
        copy=copy,
        member=member,
        lent_by=staff_user,
        due_on=datetime.date.today() + datetime.timedelta(days=21),
    )


def messages(error: ValidationError, field: str = NON_FIELD_ERRORS) -> list[str]:
    return [message for item in error.error_dict[field] for message in item.messages]


# --- Constraints: a clear message from full_clean(), and the database refuses anyway ------------


def test_a_duplicate_barcode_gets_a_clear_message_on_the_barcode_field(site):
    game = make_game("Quarto")
    make_copy(game, "90468", site)
    duplicate = Copy(game=game, cote="BLA", barcode="90468", location=site)
    with pytest.raises(ValidationError) as error:
        duplicate.full_clean()
    assert messages(error.value, "barcode") == ["Un autre exemplaire porte déjà ce code-barres."]


def test_the_database_refuses_a_duplicate_barcode(site):
    game = make_game("Quarto")
    make_copy(game, "90468", site)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_copy(game, "90468", site)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"players_min": 5, "players_max": 2},
            "Le nombre minimum de joueurs ne peut pas dépasser le nombre maximum.",
        ),
        ({"age_min": 12, "age_max": 8}, "L'âge minimum ne peut pas dépasser l'âge maximum."),
        ({"duration_minutes": 0}, "La durée moyenne doit être d'au moins une minute."),
        ({"players_min": 0, "players_max": 4}, "Il faut au moins un joueur."),
    ],
)
def test_impossible_game_figures_get_a_clear_message_and_are_refused_by_the_database(db, fields, message):
    game = Game(title="Jeu impossible", slug="jeu-impossible", **fields)
    with pytest.raises(ValidationError) as error:
        game.full_clean()
    assert messages(error.value) == [message]
    with pytest.raises(IntegrityError), transaction.atomic():
        game.save()


def test_a_game_with_one_bound_missing_is_valid(db):
    game = Game(title="Martian Dice", slug="martian-dice", players_min=2, age_min=8)
    game.full_clean()


def test_a_piece_needs_a_positive_quantity(db):
    piece = Component(game=make_game("Biblios"), quantity=0, label="cartes")
    with pytest.raises(ValidationError) as error:
        piece.full_clean()
    assert messages(error.value) == ["La quantité doit être d'au moins 1."]


def test_a_tag_name_is_unique_whatever_its_case(db):
    Tag.objects.create(name="Jeux à deux", slug="jeux-a-deux")
    with pytest.raises(ValidationError) as error:
        Tag(name="jeux à deux", slug="jeux-a-deux-2").full_clean()
    assert messages(error.value) == ["Ce mot-clé existe déjà."]


def test_a_copy_keeps_a_section_that_differs_from_its_notice(site):
    strategy = Category.objects.create(code="A 406", label="jeu de stratégie", family="jeu de règles")
    language = Category.objects.create(code="A 410", label="jeu de langue")
    game = make_game("Les colons de Catane", category=strategy)
    copy = make_copy(game, "90461", site, section=language)
    copy.full_clean()
    assert (copy.game.category.code, copy.section.code) == ("A 406", "A 410")


# --- Queries that read like English ------------------------------------------------------------


@pytest.fixture
def shelf(db):
    return {
        "quarto": make_game(
            "Quarto", players_min=2, players_max=2, age_min=8, age_max=99, duration_minutes=15
        ),
        "catane": make_game(
            "Catane", players_min=3, players_max=4, age_min=10, age_max=99, duration_minutes=75
        ),
        "monstres": make_game(
            "Monstres", players_min=1, players_max=5, age_min=5, age_max=7, duration_minutes=10
        ),
        "dice": make_game("Martian Dice", players_min=2, players_max=99, age_min=8, duration_minutes=10),
    }


def titles(queryset) -> list[str]:
    return sorted(queryset.values_list("title", flat=True))


def test_games_for_a_number_of_players(shelf):
    assert titles(Game.objects.for_players(2)) == ["Martian Dice", "Monstres", "Quarto"]
    assert titles(Game.objects.for_players(4)) == ["Catane", "Martian Dice", "Monstres"]
    assert titles(Game.objects.for_players(7)) == ["Martian Dice"]


def test_games_for_an_age_treat_a_missing_maximum_as_no_limit(shelf):
    assert titles(Game.objects.for_age(6)) == ["Monstres"]
    assert titles(Game.objects.for_age(40)) == ["Catane", "Martian Dice", "Quarto"]


def test_games_playable_by_a_table_need_room_for_everyone_and_the_youngest(shelf):
    assert titles(Game.objects.playable_by(ages=[9, 38])) == ["Martian Dice", "Quarto"]
    assert titles(Game.objects.playable_by(ages=[10, 12, 40])) == ["Catane", "Martian Dice"]


def test_games_shorter_than_a_time(shelf):
    assert titles(Game.objects.shorter_than(15)) == ["Martian Dice", "Monstres", "Quarto"]
    assert titles(Game.objects.for_players(2).shorter_than(10)) == ["Martian Dice", "Monstres"]


def test_a_copy_is_available_only_on_the_shelf_and_without_an_open_loan(site, staff_user):
    game = make_game("Quarto")
    on_shelf = make_copy(game, "90468", site)
    lent = make_copy(game, "90408", site)
    in_repair = make_copy(game, "90409", site, status=Copy.Status.IN_REPAIR)
    loan = open_loan(lent, staff_user)

    assert set(Copy.objects.lendable()) == {on_shelf, lent}
    assert list(Copy.objects.on_loan()) == [lent]
    assert list(Copy.objects.available()) == [on_shelf]
    assert in_repair not in Copy.objects.available()

    loan.returned_at = datetime.datetime.now(datetime.UTC)
    loan.returned_by = staff_user
    loan.return_check = Loan.ReturnCheck.COMPLETE
    loan.save()
    assert set(Copy.objects.available()) == {on_shelf, lent}
