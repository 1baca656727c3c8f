"""Plain builders for the loan desk's tests: games with their pieces, copies, families; concurrent calls."""

import datetime
import threading
from itertools import count

from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone
from django.utils.text import slugify

from catalogue.models import Component, Copy, Game, Location
from members.models import HouseholdMember, Member, MembershipType

_serial = count(1)


def make_game(title: str = "Les colons de Catane", pieces: list[tuple[int, str]] | None = None) -> Game:
    game = Game.objects.create(title=title, slug=f"{slugify(title)}-{next(_serial)}")
    for position, (quantity, label) in enumerate(pieces or []):
        Component.objects.create(game=game, position=position, quantity=quantity, label=label)
    return game


def make_copy(game: Game, barcode: str, status: str = Copy.Status.ON_SHELF) -> Copy:
    location, _ = Location.objects.get_or_create(name="Maison des Enfants")
    return Copy.objects.create(game=game, cote="TEU", location=location, barcode=barcode, status=status)


def make_membership_type(**values) -> MembershipType:
    values = {
        "name": f"Famille {next(_serial)}",
        "duration_days": 365,
        "loan_quota": 3,
        "loan_period_days": 21,
        "renewals_allowed": 1,
    } | values
    return MembershipType.objects.create(**values)


def make_member(
    card: str,
    name: str = "Alex Tartempion",
    *,
    membership_type: MembershipType | None = None,
    start: datetime.date | None = None,
    expiry: datetime.date | None = None,
    user=None,
    **contact,
) -> Member:
    today = timezone.localdate()
    member = Member.objects.create(
        card_barcode=card,
        name=name,
        membership_type=membership_type or make_membership_type(),
        membership_start=start or today - datetime.timedelta(days=30),
        membership_expiry=expiry or today + datetime.timedelta(days=335),
        user=user,
        email=contact.get("email", f"{card.lower()}@example.org"),
        phone=contact.get("phone", "0470 00 00 00"),
    )
    HouseholdMember.objects.create(member=member, first_name=name.split()[0], birth_year=1985)
    return member


def make_family_user(username: str = "famille-tartempion", password: str = "motdepasse-de-test-42"):
    """A logged-in family: a site account that is not staff."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username, password=password)
    user.raw_password = password
    return user


def make_desk_world(staff_user) -> dict:
    """A small ludothèque in use: an open loan, a late one, a ready hold, an incomplete copy."""
    from loans import services
    from loans.models import Loan

    catane = make_game(
        "Les colons de Catane", pieces=[(37, "hexagones Terrains"), (95, "cartes Matières Premières")]
    )
    quarto = make_game("Quarto", pieces=[(1, "plateau de 16 cases"), (16, "pièces")])
    biblios = make_game("Biblios", pieces=[(5, "dés à six faces")])
    tartempion = make_member(
        "M0001", "Alex Tartempion", email="tartempion@example.org", phone="0470 00 00 01"
    )
    bidule = make_member("M0002", "Sam Bidule", email="bidule@example.org", phone="0470 00 00 02")
    catane_copy = make_copy(catane, "90461")
    quarto_copy = make_copy(quarto, "90468")
    quarto_other = make_copy(quarto, "90408")
    biblios_copy = make_copy(biblios, "90901")
    current = services.loan_create(copy=catane_copy, member=tartempion, staff=staff_user)
    late = services.loan_create(copy=quarto_copy, member=tartempion, staff=staff_user)
    Loan.objects.filter(pk=late.pk).update(due_on=timezone.localdate() - datetime.timedelta(days=4))
    ready = services.hold_create(game=quarto, member=bidule, staff=staff_user)  # sets 90408 aside
    broken = services.loan_create(copy=biblios_copy, member=bidule, staff=staff_user)
    services.loan_return(loan=broken, staff=staff_user, missing=[(biblios.components.get(), 2)])
    return {
        "catane": catane,
        "quarto": quarto,
        "biblios": biblios,
        "tartempion": tartempion,
        "bidule": bidule,
        "current": current,
        "late": Loan.objects.get(pk=late.pk),
        "ready": ready,
        "quarto_other": quarto_other,
        "biblios_copy": biblios_copy,
        "broken": broken,
        "missing_piece": broken.missing_pieces.get(),
    }


def run_at_once(calls) -> list:
    """Run each call in its own thread and database connection, all released together."""
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def worker(index, call):
        try:
            barrier.wait(timeout=10)
            outcomes[index] = call()
        except ValidationError as error:
            outcomes[index] = error
        except Exception as error:  # noqa: BLE001 — an unexpected error must fail the test, not hang it
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a clerk is still waiting for a lock"
    return outcomes
