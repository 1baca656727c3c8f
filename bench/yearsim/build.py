"""The ludothèque the year is played in: titles, copies with their pieces, families, sites, a calendar.

Written straight into the database (a librarian's years of cataloguing are not what is tested); from
then on everything goes through the site. Deterministic from the seed.
"""

import datetime
import random
from dataclasses import dataclass, field
from decimal import Decimal

WORDS = (
    "dragon trésor forêt château pirate jardin île marché rivière montagne étoile potion royaume "
    "caravane désert volcan lagune moulin tour citadelle oasis comète prairie labyrinthe phare"
).split()
KINDS = "Les Le La Mission Bataille Secret Voyage Course Duel Expédition".split()
PIECES = ["plateau", "cartes", "pions", "dés", "tuiles", "jetons", "sablier", "livret de règles"]
FIRST_NAMES = "Alex Camille Léa Noah Zoé Louis Inès Hugo Jade Nina Sacha Lucas Emma Tom Maël".split()
SITES = [
    # name, its openings (weekday, opens, closes)
    ("Ixelles", [(2, "14:00", "18:00"), (5, "10:00", "13:00")]),
    ("Etterbeek", [(5, "14:00", "17:30")]),
    ("Ludobus", [(3, "15:00", "18:00")]),
]
# Every GIANT_EVERY-th copy is a giant game: its kind (« Grand jeu ») goes out for a week against a
# deposit, one per family (loans/loan_rules.py), so the year's money holds deposits too.
GIANT_EVERY = 40
GIANT = {"name": "Grand jeu", "loan_period_days": 7, "deposit": Decimal("20.00"), "loan_quota": 1}
# Giant games families book for dates (« réservable à date »): one title per GIANT_TITLE_EVERY titles
# (two at least), two copies of the « Grand jeu » kind each, both at one site.
GIANT_TITLE_EVERY = 300
# Schools borrow kits (« malles »): one group per GROUP_EVERY families (two at least), one kit of
# KIT_GAMES copies per KIT_EVERY titles (two at least), its first copy a giant game.
GROUP_EVERY = 100
KIT_EVERY = 750
KIT_GAMES = 4
# A family's password: the same hash for all, made once (hashing 400 of them would take minutes).
PASSWORD = "simulation-only-password"


@dataclass
class World:
    """What the run knows of the ludothèque it built: ids it acts on."""

    start: datetime.date
    sites: list[int] = field(default_factory=list)
    games: list[int] = field(default_factory=list)
    copies: dict[int, dict] = field(default_factory=dict)  # copy id -> barcode, game, site, pieces, deposit
    barcodes: dict[str, int] = field(default_factory=dict)  # barcode -> copy id
    bookable: dict[int, int] = field(default_factory=dict)  # giant title booked for dates -> its copies' site
    kits: dict[int, dict] = field(default_factory=dict)  # kit id -> its site and copies
    groups: list[int] = field(default_factory=list)  # the schools: members too (in `families`), at no desk
    families: dict[int, dict] = field(default_factory=dict)  # member id -> card, login, email, type
    types: dict[int, dict] = field(default_factory=dict)  # membership type id -> prices
    clerks: list[tuple[str, str]] = field(default_factory=list)  # (username, token)


def models():
    """The family models wherever they live (a `members` app, or still `loans`)."""
    try:
        from members import models as family_models  # noqa: PLC0415
    except ImportError:
        from loans import models as family_models  # noqa: PLC0415
    return family_models


def build(*, seed: int, start: datetime.date, titles: int, copies: int, families: int, clerks: int) -> World:
    from django.db import transaction

    rng = random.Random(seed)
    world = World(start=start)
    with transaction.atomic():
        _sites_and_calendar(world, start)
        _catalogue(world, rng, titles, copies)
        _membership_types(world)
        _families(world, rng, families, start)
        _groups_and_kits(world, rng, max(2, families // GROUP_EVERY), max(2, titles // KIT_EVERY), start)
        _clerks(world, clerks)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return world


def _sites_and_calendar(world: World, start: datetime.date) -> None:
    from catalogue.models import Location
    from opening.models import Closure, OpeningHours

    for name, hours in SITES:
        site = Location.objects.create(name=name, address=f"Rue de la {name}, 1")
        world.sites.append(site.pk)
        OpeningHours.objects.bulk_create(
            OpeningHours(location=site, weekday=day, opens_at=opens, closes_at=closes)
            for day, opens, closes in hours
        )
    year = start.year
    closures = [
        ("Vacances de printemps", datetime.date(year, 4, 5), datetime.date(year, 4, 18)),
        ("Vacances d'été", datetime.date(year, 7, 20), datetime.date(year, 8, 16)),
        ("Vacances de Noël", datetime.date(year, 12, 22), datetime.date(year + 1, 1, 3)),
        ("Fête nationale", datetime.date(year, 7, 21), datetime.date(year, 7, 21)),
    ]
    Closure.objects.bulk_create(Closure(first_day=a, last_day=b, reason=reason) for reason, a, b in closures)


def _catalogue(world: World, rng: random.Random, titles: int, copies: int) -> None:
    from catalogue.models import Component, Copy, Game, ItemKind

    games = Game.objects.bulk_create(
        Game(
            title=f"{rng.choice(KINDS)} {rng.choice(WORDS)} {number}",
            slug=f"jeu-{number}",
            players_min=(low := rng.randint(1, 3)),
            players_max=low + rng.randint(1, 4),
            age_min=rng.choice([3, 4, 6, 8, 10, 12]),
            duration_minutes=rng.choice([10, 20, 30, 45, 60, 90]),
            summary=f"Un jeu de {rng.choice(WORDS)} et de {rng.choice(WORDS)}.",
        )
        for number in range(titles)
    )
    world.games = [game.pk for game in games]
    components = Component.objects.bulk_create(
        Component(
            game=game,
            position=position,
            quantity=rng.choice([1, 1, 4, 20, 60]),
            label=label,
            unit_price=Decimal(rng.choice(["0.50", "1.00", "2.00"])) if rng.random() < 0.5 else None,
        )
        for game in games
        for position, label in enumerate(rng.sample(PIECES, rng.randint(2, 4)))
    )
    pieces: dict[int, list[tuple[int, int]]] = {}
    for component in components:
        pieces.setdefault(component.game_id, []).append((component.pk, component.quantity))
    # Every title has a copy; the extra copies go to the most popular titles (the first ones).
    owners = list(range(titles)) + [
        min(int(rng.paretovariate(1.2)) - 1, titles - 1) for _ in range(copies - titles)
    ]
    giant = ItemKind.objects.create(**GIANT)
    made = Copy.objects.bulk_create(
        Copy(
            game=games[index],
            **({"kind": giant} if number % GIANT_EVERY == GIANT_EVERY - 1 else {}),
            cote=f"J{index:05d}",
            location_id=world.sites[number % len(world.sites)],
            barcode=f"S{number:06d}",
            replacement_value=Decimal(rng.choice(["15.00", "25.00", "40.00"])),
        )
        for number, index in enumerate(owners)
    )
    for copy in made:
        world.copies[copy.pk] = {
            "barcode": copy.barcode,
            "game": copy.game_id,
            "site": copy.location_id,
            "pieces": pieces[copy.game_id],
            "deposit": giant.deposit if copy.kind_id == giant.pk else None,
        }
        world.barcodes[copy.barcode] = copy.pk
    _giant_titles(world, giant, max(2, titles // GIANT_TITLE_EVERY))


def _giant_titles(world: World, giant, count: int) -> None:
    from catalogue.models import Component, Copy, Game

    for number in range(count):
        site = world.sites[number % len(world.sites)]
        game = Game.objects.create(
            title=f"Jeu géant {number}",
            slug=f"jeu-geant-{number}",
            players_min=2,
            players_max=6,
            age_min=4,
            duration_minutes=20,
            date_bookable=True,
        )
        component = Component.objects.create(game=game, position=0, quantity=1, label="structure en bois")
        world.bookable[game.pk] = site
        for index in range(2):
            copy = Copy.objects.create(
                game=game,
                cote=f"G{number:03d}",
                location_id=site,
                barcode=f"G{number:03d}{index}",
                kind=giant,
            )
            world.copies[copy.pk] = {
                "barcode": copy.barcode,
                "game": game.pk,
                "site": site,
                "pieces": [(component.pk, 1)],
                "deposit": giant.deposit,
            }
            world.barcodes[copy.barcode] = copy.pk


def _membership_types(world: World) -> None:
    family_models = models()
    for name, price, loan_fee in [("Familiale", "25.00", "0.50"), ("Solidaire", "5.00", "0.00")]:
        kind = family_models.MembershipType.objects.create(
            name=name,
            price=Decimal(price),
            loan_quota=5,
            loan_period_days=21,
            renewals_allowed=1,
            loan_fee=Decimal(loan_fee),
            late_fee_per_day=Decimal("0.10"),
            late_fee_cap=Decimal("3.00"),
            charge_missing_pieces=True,
            charge_lost_games=True,
        )
        world.types[kind.pk] = {"name": name, "price": Decimal(price), "loan_fee": Decimal(loan_fee)}


def _families(world: World, rng: random.Random, count: int, start: datetime.date) -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    family_models = models()
    password = make_password(PASSWORD)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"famille{number}", password=password) for number in range(count)
    )
    type_ids = list(world.types)
    members = []
    for number, user in enumerate(users):
        began = start - datetime.timedelta(days=rng.randint(0, 340))
        has_email = rng.random() < 0.85
        members.append(
            family_models.Member(
                card_barcode=f"C{number:05d}",
                name=f"Famille {rng.choice(FIRST_NAMES)} {number}",
                email=f"famille{number}@example.org" if has_email else "",
                address="" if has_email else f"Rue des Jeux {number}, 1050 Ixelles",
                language="en" if rng.random() < 0.15 else "fr",
                membership_type_id=type_ids[0] if rng.random() < 0.8 else type_ids[1],
                membership_start=began,
                membership_expiry=began + datetime.timedelta(days=365),
                user=user,
            )
        )
    members = family_models.Member.objects.bulk_create(members)
    family_models.HouseholdMember.objects.bulk_create(
        family_models.HouseholdMember(
            member=member, first_name=rng.choice(FIRST_NAMES), birth_year=start.year - rng.randint(3, 45)
        )
        for member in members
        for _ in range(rng.randint(1, 4))
    )
    for member, user in zip(members, users, strict=True):
        world.families[member.pk] = {
            "card": member.card_barcode,
            "login": user.username,
            "email": member.email,
            "language": member.language,
            "type": member.membership_type_id,
            "home": world.sites[member.pk % len(world.sites)],
            # How keen the family is: the chance it comes to an opening of its site.
            "keen": rng.choice([0.2, 0.35, 0.5, 0.7]),
            # Some never come back: their membership lapses.
            "lapses": rng.random() < 0.12,
        }


def _groups_and_kits(world: World, rng: random.Random, groups: int, kits: int, start: datetime.date) -> None:
    from catalogue.models import Copy, ItemKind
    from kits.models import Kit, KitItem

    family_models = models()
    school = family_models.MembershipType.objects.create(
        name="Collectivité",
        kind=family_models.MembershipType.Kind.GROUP,
        price=Decimal("0.00"),
        loan_quota=30,
        loan_period_days=42,
        renewals_allowed=0,
        loan_fee=Decimal("0.00"),
        late_fee_per_day=Decimal("0.00"),
        late_fee_cap=None,
    )
    world.types[school.pk] = {"name": school.name, "price": school.price, "loan_fee": school.loan_fee}
    for number in range(groups):
        group = family_models.Member.objects.create(
            card_barcode=f"E{number:04d}",
            name=f"École {rng.choice(WORDS)} {number} — classe de CE1",
            contact_name=f"Mme {rng.choice(FIRST_NAMES)}",
            email=f"ecole{number}@example.org",
            membership_type=school,
            membership_start=start - datetime.timedelta(days=30),
            membership_expiry=start + datetime.timedelta(days=400),
        )
        world.groups.append(group.pk)
        world.families[group.pk] = {
            "card": group.card_barcode,
            "login": None,
            "email": group.email,
            "language": "fr",
            "type": school.pk,
            "home": None,
            "keen": 0,
            "lapses": False,
            "group": True,
        }
    giant = ItemKind.objects.get(name=GIANT["name"])
    for number in range(kits):
        site = world.sites[number % len(world.sites)]
        kit = Kit.objects.create(
            name=f"Malle {number}", barcode=f"K{number:04d}", site_id=site, material="1 caisse"
        )
        copies = []
        for index in range(KIT_GAMES):
            game = rng.choice(world.games)
            copy = Copy.objects.create(
                game_id=game,
                cote=f"MAL{number}",
                location_id=site,
                barcode=f"K{number:04d}{index}",
                **({"kind": giant} if index == 0 else {}),
            )
            KitItem.objects.create(kit=kit, copy=copy)
            pieces = list(copy.game.components.order_by("position").values_list("pk", "quantity"))
            world.copies[copy.pk] = {
                "barcode": copy.barcode,
                "game": game,
                "site": site,
                "pieces": pieces,
                "deposit": giant.deposit if index == 0 else None,
                "kit": kit.pk,
            }
            world.barcodes[copy.barcode] = copy.pk
            copies.append(copy.pk)
        world.kits[kit.pk] = {"site": site, "copies": copies}


def _clerks(world: World, count: int) -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from rest_framework.authtoken.models import Token

    password = make_password(PASSWORD)
    for number in range(count):
        user = get_user_model().objects.create(username=f"benevole{number}", password=password, is_staff=True)
        world.clerks.append((user.username, Token.objects.create(user=user).key))
