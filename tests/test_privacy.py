"""Privacy: a family downloads its data, old history is anonymised, a family that leaves is erased."""

import datetime
import json
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from ledger import services as ledger
from loans import services
from loans.models import Hold, Loan
from members.models import HouseholdMember, Member
from notices.models import Notice, NoticeItem
from privacy.services import history_anonymise, member_erase, months_before
from tests.ledger_helpers import charge, make_site, pay
from tests.loan_helpers import make_copy, make_family_user, make_game, make_member

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 12, 1)


def long_ago(months: int) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(months_before(TODAY, months), datetime.time(12)))


@pytest.fixture
def family(staff_user):
    """A family with a bit of everything: a game at home, an old loan, a hold, a notice, a payment."""
    member = make_member("M0100", "Alex Tartempion", email="alex@example.org")
    member.user = make_family_user("alex")
    member.address = "Rue des Jeux 1\n1050 Ixelles"
    member.save()
    catane, quarto, biblios = make_game("Catane"), make_game("Quarto"), make_game("Biblios")
    make_copy(catane, "C1")
    make_copy(quarto, "Q1")
    make_copy(biblios, "B1")
    old = services.loan_create(copy=make_copy(biblios, "B2"), member=member, staff=staff_user)
    services.loan_return(loan=old, staff=staff_user)
    services.loan_create(copy=catane.copies.get(), member=member, staff=staff_user)
    services.hold_create(game=quarto, member=member, staff=staff_user)
    notice = Notice.objects.create(
        member=member,
        channel=Notice.Channel.EMAIL,
        status=Notice.Status.SENT,
        sent_at=timezone.now(),
        language="fr",
        run_on=TODAY,
        recipient=member.email,
        subject="Biblios à rendre bientôt",
        body_text="Bonjour Alex Tartempion",
        body_html="<p>Bonjour Alex Tartempion</p>",
    )
    NoticeItem.objects.create(notice=notice, member=member, kind="due_soon", loan=old, about_date=old.due_on)
    charge(member, "2.00", staff_user)
    pay(member, "2.00", staff_user)
    return member


def test_the_export_covers_every_model_that_points_at_a_family(family):
    from privacy.export import member_data

    data = member_data(family)
    relations = {relation.get_accessor_name() for relation in Member._meta.related_objects}
    assert relations <= data.keys(), f"not exported: {relations - data.keys()}"
    assert {"contact", "account"} <= data.keys()
    for relation in relations:
        assert len(data[relation]) == getattr(family, relation).count(), relation


def test_a_family_downloads_its_data_as_json(client, family):
    client.force_login(family.user)
    response = client.get(reverse("privacy:my-data-json"))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="ludotheque-M0100-')
    data = json.loads(response.content)
    assert data["contact"]["email"] == "alex@example.org"
    assert data["contact"]["address"] == "Rue des Jeux 1\n1050 Ixelles"
    assert data["account"]["username"] == "alex"
    assert [person["first_name"] for person in data["household"]] == ["Alex"]
    assert {loan["game"] for loan in data["loans"]} == {"Biblios", "Catane"}
    assert data["holds"][0]["game"] == "Quarto" and data["holds"][0]["status"] == "ready"
    assert data["notices"][0]["body_text"] == "Bonjour Alex Tartempion"
    assert [entry["amount"] for entry in data["ledger_entries"]] == ["2.00", "2.00"]


def test_a_family_reads_its_data_on_a_page(client, family):
    client.force_login(family.user)
    html = client.get(reverse("privacy:my-data")).content.decode()
    for text in (
        "alex@example.org",
        "Rue des Jeux 1",
        "Catane",
        "Quarto",
        "Biblios à rendre bientôt",
        "2,00",
    ):
        assert text in html


def test_the_data_pages_are_for_a_family_only(client, outsider):
    assert client.get(reverse("privacy:my-data")).status_code == 302
    client.force_login(outsider)
    assert client.get(reverse("privacy:my-data")).status_code == 404
    assert client.get(reverse("privacy:my-data-json")).status_code == 404
    assert client.post(reverse("privacy:my-data-json")).status_code == 405


def test_the_privacy_page_says_how_long_and_is_linked_from_every_page(client):
    html = client.get(reverse("home")).content.decode()
    assert reverse("privacy:policy") in html
    text = client.get(reverse("privacy:policy")).content.decode()
    assert "anonymisés après 24 mois" in text


def _stats():
    """What the statistics read: loans per game and month."""
    return sorted(Loan.objects.values_list("copy__game__title", "lent_at", "returned_at"))


def test_old_closed_loans_holds_and_notices_lose_their_family_and_keep_their_counts(family, staff_user):
    old = family.loans.returned().get()
    Loan.objects.filter(pk=old.pk).update(lent_at=long_ago(30), returned_at=long_ago(25))
    Notice.objects.update(created_at=long_ago(25))
    luxor = make_game("Luxor")
    make_copy(luxor, "L1")
    cancelled = services.hold_create(game=luxor, member=family, staff=staff_user)
    services.hold_cancel(hold=cancelled)
    Hold.objects.filter(pk=cancelled.pk).update(closed_at=long_ago(25))
    before = _stats()

    report = history_anonymise(today=TODAY)

    assert "1 loan(s), 1 hold(s), 1 notice(s)" in report
    assert _stats() == before
    assert Loan.objects.get(pk=old.pk).member is None
    assert Hold.objects.get(pk=cancelled.pk).member is None
    notice = Notice.objects.get()
    assert notice.member is None and notice.recipient == "" and "Alex" not in notice.body_text
    assert NoticeItem.objects.get().member is None
    # What is recent or still running keeps its family.
    assert family.loans.open().count() == 1
    assert family.holds.active().count() == 1
    # Idempotent: a second run finds nothing more.
    assert history_anonymise(today=TODAY).startswith("0 loan(s), 0 hold(s), 0 notice(s)")


def test_recent_history_is_kept(family):
    assert history_anonymise(today=TODAY).startswith("0 loan(s)")
    assert family.loans.count() == 2


def test_the_daily_run_anonymises(family, capsys):
    Loan.objects.filter(member=family, returned_at__isnull=False).update(
        lent_at=long_ago(30), returned_at=long_ago(25)
    )
    call_command("run_daily", date=TODAY)
    assert "anonymise_history: 1 loan(s)" in capsys.readouterr().out
    assert family.loans.count() == 1


@pytest.mark.postgresql
def test_the_database_refuses_to_give_a_loan_to_another_family_or_to_cut_an_open_one(family):
    other = make_member("M0200", "Sam Bidule")
    closed = family.loans.returned().get()
    with pytest.raises(IntegrityError, match="only ever changes to anonymise it"), transaction.atomic():
        Loan.objects.filter(pk=closed.pk).update(member=other)
    with pytest.raises(IntegrityError), transaction.atomic():
        Loan.objects.filter(pk=family.loans.open().get().pk).update(member=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hold.objects.filter(member=family).update(member=other)


def test_a_family_with_a_game_at_home_cannot_be_erased(family, staff_user):
    with pytest.raises(ValidationError) as error:
        member_erase(member=family, staff=staff_user)
    assert error.value.code == "games_at_home"
    assert "a encore 1 jeu à la maison" in error.value.messages[0]


def _return_all(member, staff_user):
    for loan in member.loans.open():
        services.loan_return(loan=loan, staff=staff_user)


def test_a_family_that_owes_money_cannot_be_erased(family, staff_user):
    _return_all(family, staff_user)
    charge(family, "3.50", staff_user)
    with pytest.raises(ValidationError) as error:
        member_erase(member=family, staff=staff_user)
    assert error.value.code == "money_owed"
    assert "3,50" in error.value.messages[0]


def test_a_family_whose_deposit_is_held_cannot_be_erased(family, staff_user):
    _return_all(family, staff_user)
    ledger.deposit_receive(
        member=family, amount=Decimal("20"), method="cash", staff=staff_user, site=make_site()
    )
    with pytest.raises(ValidationError) as error:
        member_erase(member=family, staff=staff_user)
    assert error.value.code == "deposit_held"


def test_erasing_a_family_keeps_its_history_without_it(family, staff_user):
    _return_all(family, staff_user)
    user = family.user
    before = _stats()

    member_erase(member=family, staff=staff_user)

    family.refresh_from_db()
    assert family.erased_at is not None
    assert (family.name, family.email, family.phone, family.address) == ("—", "", "", "")
    assert family.card_barcode.startswith("EFFACEE-")
    assert not family.membership_is_valid()  # no notice of a membership ending, no loan
    assert not HouseholdMember.objects.filter(member=family).exists()
    assert not family.loans.exists() and not family.holds.exists() and not family.notices.exists()
    assert Hold.objects.get(game__title="Quarto").status == Hold.Status.CANCELLED
    assert _stats() == before
    assert "Alex" not in Notice.objects.get().body_text
    # The ledger keeps its entries, on the emptied row.
    assert family.ledger_entries.count() == 2
    user.refresh_from_db()
    assert not user.is_active and user.email == "" and not user.has_usable_password()
    with pytest.raises(ValidationError) as error:
        member_erase(member=family, staff=staff_user)
    assert error.value.code == "already_erased"


def test_erasing_a_family_empties_its_ledger_notes_and_keeps_the_amounts(family, staff_user):
    _return_all(family, staff_user)
    charge(family, "6.00", staff_user, note="Alex Tartempion, 3 rue des Lilas : boîte mouillée")
    pay(family, "6.00", staff_user, note="payé par sa voisine, Mme Dupont")
    member_erase(member=family, staff=staff_user)
    entries = family.ledger_entries.order_by("pk")
    assert [entry.note for entry in entries] == ["", "", "", ""]
    assert [entry.amount for entry in entries] == [
        Decimal("2.00"),
        Decimal("2.00"),
        Decimal("6.00"),
        Decimal("6.00"),
    ]
    assert entries.balance() == Decimal("0.00")


@pytest.mark.postgresql
def test_the_database_lets_an_entrys_note_be_emptied_and_nothing_else_change(family, staff_user):
    entry = charge(family, "3.50", staff_user, note="Carton abîmé")
    with pytest.raises(IntegrityError, match="refused"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE ledger_entry SET note = 'autre chose' WHERE id = %s", [entry.pk])
    with connection.cursor() as cursor:
        cursor.execute("UPDATE ledger_entry SET note = '' WHERE id = %s", [entry.pk])
    with pytest.raises(IntegrityError, match="refused"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE ledger_entry SET amount = 1 WHERE id = %s", [entry.pk])
    entry = family.ledger_entries.get(pk=entry.pk)
    assert (entry.note, entry.amount) == ("", Decimal("3.50"))


def test_an_erased_familys_waiting_e_mails_and_letters_go_out_no_more(family, staff_user):
    _return_all(family, staff_user)
    notice = Notice.objects.get()
    waiting = {"language": "fr", "run_on": TODAY, "subject": "Rappel", "body_text": "Bonjour Alex"}
    Notice.objects.create(member=family, channel="email", status="pending", recipient=family.email, **waiting)
    Notice.objects.create(
        member=family, channel="letter", status="to_print", recipient="Rue des Jeux 1", **waiting
    )
    assert Notice.objects.to_send().count() == 1 and Notice.objects.to_print().count() == 1
    member_erase(member=family, staff=staff_user)
    assert not Notice.objects.to_send().exists() and not Notice.objects.to_print().exists()
    assert Notice.objects.count() == 3 and not Notice.objects.exclude(recipient="").exists()
    assert Notice.objects.get(pk=notice.pk).status == Notice.Status.SENT


def test_the_desk_erases_a_family_after_confirming(client, family, staff_user):
    client.force_login(staff_user)
    url = reverse("privacy:member-erase", args=[family.pk])
    assert "a encore 1 jeu à la maison" in client.get(url).content.decode().replace("\xa0", " ")
    response = client.post(url)
    assert response.status_code == 302 and response.url == family.get_absolute_url()
    _return_all(family, staff_user)
    page = client.get(url).content.decode()
    assert "Effacer définitivement" in page and "Sa réservation en cours sera annulée." in page
    response = client.post(url)
    assert response.status_code == 302 and response.url == reverse("loans:desk")
    assert Member.objects.get(pk=family.pk).erased_at is not None
    assert client.get(url).status_code == 404


def test_only_a_librarian_erases(client, family, outsider):
    url = reverse("privacy:member-erase", args=[family.pk])
    client.force_login(outsider)
    assert client.post(url).status_code == 403
    assert Member.objects.get(pk=family.pk).erased_at is None


def test_the_desk_page_offers_the_erasure(client, family, staff_user):
    client.force_login(staff_user)
    html = client.get(family.get_absolute_url()).content.decode()
    assert reverse("privacy:member-erase", args=[family.pk]) in html


def test_an_erased_familys_desk_page_offers_no_renewal_loan_or_hold(client, family, staff_user):
    _return_all(family, staff_user)
    member_erase(member=family, staff=staff_user)
    client.force_login(staff_user)
    renew = reverse("ledger:membership-renew", args=[family.pk])
    for page in (family.get_absolute_url(), reverse("ledger:family", args=[family.pk])):
        html = client.get(page).content.decode()
        assert "Renouveler l'adhésion" not in html and renew not in html
    html = client.get(family.get_absolute_url()).content.decode()
    assert "Famille effacée le" in html
    assert reverse("loans:hold-create", args=[family.pk]) not in html
    assert 'name="barcode"' not in html  # no lend box
    assert reverse("privacy:member-erase", args=[family.pk]) not in html
    assert client.get(renew).status_code == 404
    with pytest.raises(ValidationError) as error:
        ledger.membership_renew(
            member=family, membership_type=family.membership_type, staff=staff_user, site=make_site()
        )
    assert error.value.code == "member_erased"
