"""A small family catalogue built explicitly for the search, API and game-page tests."""

import datetime
from dataclasses import dataclass
from itertools import count

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.text import slugify

from catalogue.models import (
    Author,
    Authorship,
    Category,
    Copy,
    Game,
    Location,
    Publisher,
    PublisherCredit,
    Tag,
)
from loans.models import Loan
from members.models import Member, MembershipType

_serial = count(1)


def category(code: str, label: str, family: str = "jeu de règles") -> Category:
    return Category.objects.get_or_create(code=code, defaults={"label": label, "family": family})[0]


def tag(name: str) -> Tag:
    return Tag.objects.get_or_create(slug=slugify(name), defaults={"name": name})[0]


def site(name: str) -> Location:
    return Location.objects.get_or_create(name=name)[0]


def make_game(
    title: str,
    *,
    authors: tuple[str, ...] = (),
    publishers: tuple[str, ...] = (),
    tags: tuple[str, ...] = (),
    category: Category | None = None,
    **fields,
) -> Game:
    """A notice with its credits and tags, written the way the admin and the import write them."""
    fields.setdefault("slug", slugify(title) or f"jeu-{next(_serial)}")
    game = Game.objects.create(title=title, category=category, **fields)
    for position, name in enumerate(authors):
        author = Author.objects.get_or_create(name=name)[0]
        Authorship.objects.create(game=game, author=author, position=position)
    for position, name in enumerate(publishers):
        place, _, publisher_name = name.rpartition(" : ")
        publisher = Publisher.objects.get_or_create(name=publisher_name, place=place)[0]
        PublisherCredit.objects.create(game=game, publisher=publisher, position=position)
    game.tags.add(*[tag(name) for name in tags])
    return game


def make_copy(game: Game, barcode: str, *, where: str = "Maison des Enfants", **fields) -> Copy:
    fields.setdefault("cote", game.title[:3].upper())
    fields.setdefault("section", game.category)
    return Copy.objects.create(game=game, barcode=barcode, location=site(where), **fields)


def librarian():
    return get_user_model().objects.get_or_create(
        username="bibliothecaire-recherche", defaults={"is_staff": True}
    )[0]


def family(card: str = "C0001") -> Member:
    membership = MembershipType.objects.get_or_create(name="Famille")[0]
    return Member.objects.get_or_create(
        card_barcode=card,
        defaults={
            "name": "Famille Martin",
            "membership_type": membership,
            "membership_expiry": timezone.localdate() + datetime.timedelta(days=300),
        },
    )[0]


def lend(
    copy: Copy, *, due_on: datetime.date | None = None, days_ago: int = 3, returned: bool = False
) -> Loan:
    """A loan of `copy`, open unless `returned`, started `days_ago` days ago."""
    lent_at = timezone.now() - datetime.timedelta(days=days_ago)
    loan = Loan(
        copy=copy,
        member=family(),
        lent_at=lent_at,
        lent_by=librarian(),
        due_on=due_on or (lent_at + datetime.timedelta(days=21)).date(),
    )
    if returned:
        loan.returned_at = lent_at + datetime.timedelta(days=7)
        loan.returned_by = librarian()
        loan.return_check = Loan.ReturnCheck.COMPLETE
    loan.save()
    return loan


@dataclass
class Catalogue:
    catane: Game
    chateau: Game
    chasse: Game
    biblios: Game
    quarto: Game
    wonders: Game


def family_catalogue() -> Catalogue:
    """Six games with what a family searches on: players, ages, minutes, categories, tags, copies."""
    strategy = category("A 406", "jeu de stratégie")
    chance = category("A 407", "jeu de hasard")
    catane = make_game(
        "Les colons de Catane",
        authors=("Klaus Teuber",),
        publishers=("Kosmos",),
        tags=("Commerce", "Stratégie"),
        category=strategy,
        players_min=3,
        players_max=4,
        age_min=10,
        age_max=99,
        duration_minutes=75,
        summary="Des colons s'installent sur une île et échangent leurs ressources.",
    )
    chateau = make_game(
        "Le Château des Dragons",
        authors=("Anne Dupont",),
        publishers=("Iello",),
        tags=("Dragons", "Coopératif"),
        category=chance,
        players_min=2,
        players_max=5,
        age_min=6,
        duration_minutes=30,
        summary="Ensemble, les chevaliers défendent la forteresse.",
    )
    chasse = make_game(
        "La chasse aux monstres",
        authors=("Antoine Bauza",),
        publishers=("Le Scorpion Masqué",),
        tags=("Coopératif", "Mémoire"),
        category=chance,
        players_min=1,
        players_max=5,
        age_min=5,
        age_max=7,
        duration_minutes=10,
        summary="Les enfants chassent les monstres cachés sous le lit.",
    )
    biblios = make_game(
        "Biblios",
        authors=("Steve Finn",),
        publishers=("Iello",),
        tags=("Enchères",),
        category=chance,
        players_min=2,
        players_max=4,
        age_min=10,
        age_max=99,
        duration_minutes=30,
        summary="Un abbé se constitue la plus belle bibliothèque du Moyen Âge.",
    )
    quarto = make_game(
        "Quarto",
        authors=("Blaise Müller",),
        publishers=("Wimereux : Gigamic SARL",),
        tags=("Jeux à deux",),
        category=strategy,
        players_min=2,
        players_max=2,
        age_min=8,
        age_max=99,
        duration_minutes=15,
        summary="Aligner quatre pièces ayant un caractère commun.",
    )
    wonders = make_game(
        "7 Wonders",
        authors=("Antoine Bauza", "Bruno Cathala"),
        publishers=("Repos Production",),
        tags=("Cartes", "Stratégie"),
        category=strategy,
        players_min=2,
        players_max=7,
        age_min=10,
        age_max=99,
        duration_minutes=30,
        summary="Chaque joueur développe une cité antique et bâtit sa merveille.",
    )
    make_copy(catane, "90461", section=category("A 410", "jeu de langue"))
    make_copy(chateau, "70001", where="Médiathèque")
    lend(make_copy(chateau, "70002"))
    make_copy(chasse, "91684")
    make_copy(chasse, "91025", where="Médiathèque")
    make_copy(biblios, "90901", status=Copy.Status.IN_REPAIR)
    make_copy(quarto, "90468")
    make_copy(quarto, "90408")
    lend(make_copy(wonders, "91233"))
    return Catalogue(catane, chateau, chasse, biblios, quarto, wonders)


def add_games(count: int) -> None:
    """`count` more games alike (Partie 000, 001…), each with one copy: for query-count tests."""
    strategy = category("A 406", "jeu de stratégie")
    for _ in range(count):
        game = make_game(
            f"Partie {Game.objects.count():03d}",
            players_min=2,
            players_max=4,
            age_min=6,
            duration_minutes=30,
            category=strategy,
            tags=("Famille", "Dés"),
        )
        make_copy(game, f"B{game.pk:05d}")


def titles(response) -> list[str]:
    """The titles of an API list response, in order."""
    return [game["title"] for game in response.json()["results"]]
