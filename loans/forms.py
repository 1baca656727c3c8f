"""The desk's forms: a barcode to lend, the pieces checklist of a return, a game to reserve."""

from collections import Counter
from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from catalogue.models import Copy, Game, Location
from ledger.models import Method
from ledger.services import euros
from members.models import Member
from once.forms import OnceForm

from .models import Loan, MissingPiece
from .renewals import LateFee
from .services import late_fee_due, missing_pieces_price


def copy_for_barcode(barcode: str, copies: QuerySet[Copy] | None = None) -> Copy:
    """The copy carrying `barcode` (read from `copies`, by default with its game), or a ValidationError a
    form or the API can show."""
    barcode = barcode.strip()
    if copies is None:
        copies = Copy.objects.select_related("game")
    try:
        if "\x00" in barcode:  # PostgreSQL text cannot hold a NUL byte, so no barcode has one
            raise Copy.DoesNotExist
        return copies.get(barcode=barcode)
    except Copy.DoesNotExist:
        raise ValidationError(
            _("Aucun exemplaire ne porte le code-barres « %(barcode)s »."),
            code="unknown_barcode",
            params={"barcode": barcode.replace("\x00", "\ufffd")},
        ) from None


class ScanForm(forms.Form):
    """The desk's one box: a member card, a copy barcode, or a family's name."""

    code = forms.CharField(label=_("Carte de membre, code-barres ou nom"), max_length=160)


class CalendarTokenForm(forms.Form):
    """Renew or revoke a family's calendar address."""

    RENEW = "renew"
    REVOKE = "revoke"
    action = forms.ChoiceField(choices=[(RENEW, _("Nouvelle adresse")), (REVOKE, _("Désactiver"))])


class DepositFields(forms.Form):
    """How the family pays the deposit a copy's kind asks (loans/loan_rules.py): shown once the desk
    was told one is asked (`templates/loans/includes/deposit_fields.html`)."""

    deposit_method = forms.ChoiceField(
        label=_("Caution versée en"), choices=[("", "—"), *Method.choices], required=False
    )
    deposit_cheque_number = forms.CharField(label=_("Numéro du chèque"), max_length=40, required=False)

    # The deposit's refusals (`loan_create`'s, ludotheque/answers.py) on the field they are about.
    DEPOSIT_REFUSALS = {
        "deposit_method": "deposit_method",
        "method": "deposit_method",
        "cheque_number": "deposit_cheque_number",
    }

    @property
    def offer_deposit(self) -> bool:
        """Whether the form shows the deposit's fields: a kind asks one, or they were wrong."""
        return bool(self.errors.get("deposit_method") or self.errors.get("deposit_cheque_number"))


class LendForm(DepositFields):
    barcode = forms.CharField(label=_("Code-barres du jeu à prêter"), max_length=40)
    # Shown once the desk was told the copy is incomplete but playable (loans/playable.py).
    lend_incomplete = forms.BooleanField(label=_("Prêter l'exemplaire incomplet"), required=False)

    field_order = ["barcode", "lend_incomplete"]

    def clean_barcode(self) -> Copy:
        return copy_for_barcode(self.cleaned_data["barcode"])

    # A service's refusal shown on the field it is about (ludotheque/answers.py).
    REFUSALS = {"copy": "barcode", "member": None, **DepositFields.DEPOSIT_REFUSALS}


class HoldForm(forms.Form):
    game = forms.ModelChoiceField(
        label=_("Jeu à réserver"), queryset=Game.objects.only("pk", "title").order_by("title")
    )
    # Where the family collects it (empty: its usual site, loans/holds.py `usual_site`).
    pickup_site = forms.ModelChoiceField(
        label=_("À retirer à"),
        queryset=Location.objects.filter(lends=True).order_by("name"),
        required=False,
        empty_label=_("son site habituel"),
    )
    # Sent by « Mettre de côté quand même », once the desk said a copy is on the shelf.
    set_aside = forms.BooleanField(required=False, widget=forms.HiddenInput)


class ReturnForm(forms.Form):
    """The checklist of a return: only a piece with a number missing needs the clerk's attention.

    A line left at 0 missing counts as all there, so an untouched checklist is a complete return; the
    « Tout est complet » button (its name is ALL_COMPLETE) returns the copy complete whatever was typed.
    """

    ALL_COMPLETE = "all_complete"

    playable_anyway = forms.BooleanField(
        label=_("Jouable quand même : laisser l'exemplaire en rayon malgré les pièces manquantes"),
        required=False,
    )

    def __init__(self, *args, loan: Loan, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.all_complete = self.is_bound and self.ALL_COMPLETE in self.data
        membership_type = loan.member.membership_type
        # The fees the return proposes (the membership type's; none by default), which the clerk may waive.
        self.late_fee = late_fee_due(loan, membership_type)
        if self.late_fee:
            self.fields["waive_late_fee"] = forms.BooleanField(
                label=_("Remettre les frais de retard : ne pas les facturer"), required=False
            )
        known_missing = list(
            MissingPiece.objects.still_missing().filter(copy=loan.copy).select_related("component")
        )
        already = Counter()
        for piece in known_missing:
            already[piece.component_id] += piece.quantity
        self.lines = []
        for component in loan.copy.game.components.all():
            expected = component.quantity - already[component.pk]
            missing = f"missing_{component.pk}"
            self.fields[missing] = forms.IntegerField(
                label=_("combien manquent"), min_value=0, max_value=expected, initial=0, required=False
            )
            self.lines.append(
                {
                    "component": component,
                    "unit_price": missing_pieces_price(component, 1, membership_type),
                    "expected": expected,
                    "already_missing": already[component.pk],
                    "missing": self[missing],
                }
            )
        self.recovered_lines = []
        for piece in known_missing:
            name = f"recovered_{piece.pk}"
            self.fields[name] = forms.BooleanField(label=_("de retour dans la boîte"), required=False)
            self.recovered_lines.append({"piece": piece, "field": self[name]})
        if known_missing:
            # The librarian already found this copy playable without these pieces.
            self.fields["playable_anyway"].initial = True
        if any(line["unit_price"] for line in self.lines):
            self.fields["waive_missing_pieces"] = forms.BooleanField(
                label=_("Remettre le prix des pièces manquantes : ne pas le facturer"), required=False
            )

    def clean(self) -> dict:
        cleaned = super().clean()
        if self.all_complete:
            # « Tout est complet »: every count is 0, even one typed by mistake (or out of range).
            for line in self.lines:
                name = line["missing"].name
                cleaned[name] = 0
                self.errors.pop(name, None)
        return cleaned

    def missing(self) -> list[tuple]:
        return [
            (line["component"], self.cleaned_data.get(f"missing_{line['component'].pk}") or 0)
            for line in self.lines
        ]

    def recovered(self) -> list[MissingPiece]:
        return [line["piece"] for line in self.recovered_lines if self.cleaned_data.get(line["field"].name)]


class LostForm(forms.Form):
    """Confirm that a family lost a game; its replacement value, if charged, may be waived."""

    def __init__(self, *args, price, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if price:
            self.fields["waive_charge"] = forms.BooleanField(
                label=_("Remettre la valeur de remplacement : ne pas la facturer"), required=False
            )


class RenewForm(OnceForm):
    """Renew a loan at the desk; a late one's fee is charged or waived first, with the clerk's reason."""

    late_fee = forms.ChoiceField(label=_("Frais de retard"), choices=LateFee.choices, required=False)
    reason = forms.CharField(label=_("Raison"), max_length=200, required=False)

    def __init__(self, *args, fee: Decimal, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["late_fee"].widget = forms.RadioSelect(
            choices=[
                (LateFee.CHARGE, _("Facturer les %(amount)s de retard") % {"amount": euros(fee)}),
                (LateFee.WAIVE, _("Annuler le retard")),
            ]
        )


class LanguageForm(forms.ModelForm):
    """The language a family's notices are written in."""

    class Meta:
        model = Member
        fields = ["language"]


class _DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self):
        super().__init__(format="%Y-%m-%d")


class DateBookingDatesForm(forms.Form):
    """The days of a date booking, both included: a family's form on its page."""

    starts_on = forms.DateField(label=_("Du (jour du retrait)"), widget=_DateInput())
    ends_on = forms.DateField(label=_("Au (jour du retour)"), widget=_DateInput())


class DateBookingForm(DateBookingDatesForm):
    """The desk books for a family: a title (a free copy is picked) or a copy by its barcode."""

    card = forms.CharField(label=_("Carte de la famille"), max_length=40)
    game = forms.ModelChoiceField(
        label=_("Jeu réservable à date"),
        queryset=Game.objects.filter(date_bookable=True).only("pk", "title").order_by("title"),
        required=False,
    )
    barcode = forms.CharField(label=_("ou code-barres d'un exemplaire"), max_length=40, required=False)
    note = forms.CharField(label=_("Note (pour quoi, pour qui)"), max_length=200, required=False)

    field_order = ["card", "game", "barcode", "starts_on", "ends_on", "note"]

    def clean_card(self) -> Member:
        card = self.cleaned_data["card"].strip()
        member = Member.objects.select_related("membership_type").filter(card_barcode__iexact=card).first()
        if member is None:
            raise ValidationError(
                _("Aucune famille ne porte la carte « %(card)s »."),
                code="unknown_card",
                params={"card": card},
            )
        return member

    def clean_barcode(self) -> Copy | None:
        barcode = self.cleaned_data["barcode"].strip()
        return copy_for_barcode(barcode) if barcode else None

    def clean(self) -> dict:
        cleaned = super().clean()
        if not self.has_error("barcode") and bool(cleaned.get("game")) == bool(cleaned.get("barcode")):
            self.add_error(
                "game", ValidationError(_("Choisissez un jeu ou scannez un exemplaire."), code="one_of")
            )
        return cleaned
