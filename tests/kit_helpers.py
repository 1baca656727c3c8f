"""Builders for the kits' tests: a school class (a group membership with its contact) and a kit."""

from catalogue.models import Location
from kits.models import Kit, KitItem
from members.models import MembershipType
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type


def make_group(card: str = "C0001", name: str = "École Jules Ferry — CE1", **type_values):
    """A school class: a group membership (quota 30, six weeks) and its teacher as contact."""
    values = {"kind": MembershipType.Kind.GROUP, "loan_quota": 30, "loan_period_days": 42} | type_values
    member = make_member(card, name, membership_type=make_membership_type(**values))
    member.contact_name = "Mme Durand"
    member.contact_phone = "0470 11 22 33"
    member.contact_email = "durand@ecole.example.org"
    member.save(update_fields=["contact_name", "contact_phone", "contact_email"])
    return member


def make_kit(
    name: str = "Malle maternelle", barcode: str = "K0001", *, games: int = 3, prefix: str = "95", **values
) -> Kit:
    """A kit of `games` copies (each of its own game, with two kinds of pieces) at the desk's site."""
    site, _ = Location.objects.get_or_create(name="Maison des Enfants")
    kit = Kit.objects.create(name=name, barcode=barcode, site=site, material="1 tapis\n2 sacs", **values)
    for number in range(games):
        game = make_game(f"Jeu {prefix}{number}", pieces=[(1, "plateau"), (10, "jetons")])
        KitItem.objects.create(kit=kit, copy=make_copy(game, f"{prefix}{number:03d}"))
    return kit
