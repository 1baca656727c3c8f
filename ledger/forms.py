"""The desk's money forms: a payment, a charge, a deposit, a reversal, a renewal, a till closure.

The forms read the input; the rules (a cheque has a number, a payment does not exceed what is owed…)
live once, in ledger/services.py, whose refusals come back on the field they are about.
"""

from decimal import Decimal

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from catalogue.models import Location
from ludotheque.money import MoneyField
from members.models import MembershipType
from once.forms import OnceForm

from .models import Kind, Method

SESSION_SITE = "desk_site"
# A service's refusal about one of its arguments goes on the form field of the same name.
REFUSAL_FIELDS = {
    name: name for name in ("amount", "method", "cheque_number", "note", "kind", "cash_counted", "float_kept")
}


def desk_site(request: HttpRequest) -> Location | None:
    """The site this desk works at: the one last chosen in this session, else the first by name."""
    if not hasattr(request, "_desk_site"):
        sites = Location.objects.order_by("name")
        chosen = request.session.get(SESSION_SITE)
        # Read once per request, however many forms ask.
        request._desk_site = (chosen and sites.filter(pk=chosen).first()) or sites.first()
    return request._desk_site


def chosen_desk_site(request: HttpRequest) -> int | None:
    """The site a clerk chose for this desk (the till's or the transfers' page), or None if none was
    chosen: a return there of another site's copy sends it home or keeps it (loans/transfers.py)."""
    return request.session.get(SESSION_SITE) or None


def remember_site(request: HttpRequest, site: Location) -> None:
    request.session[SESSION_SITE] = site.pk
    request._desk_site = site


class SiteForm(OnceForm):
    """Every entry is recorded at a site (for its till); the desk remembers the last one chosen."""

    site = forms.ModelChoiceField(
        label=_("Site"), queryset=Location.objects.order_by("name"), empty_label=None
    )

    def __init__(self, *args, request: HttpRequest, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if "site" not in self.initial:
            site = desk_site(request)
            self.initial["site"] = site.pk if site else None


class MoneyForm(SiteForm):
    """Money changing hands: how much, how, the cheque's number."""

    amount = MoneyField(label=_("Montant (€)"))
    method = forms.ChoiceField(label=_("Mode de paiement"), choices=Method.choices, initial=Method.CASH)
    cheque_number = forms.CharField(label=_("Numéro du chèque"), max_length=40, required=False)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)

    field_order = ["amount", "method", "cheque_number", "note", "site"]


class ChargeForm(SiteForm):
    """A charge typed at the desk (memberships are charged by their renewal)."""

    kind = forms.ChoiceField(
        label=_("Nature"),
        choices=[
            (kind.value, kind.label) for kind in Kind if kind in Kind.charges() and kind != Kind.MEMBERSHIP
        ],
        initial=Kind.OTHER,
    )
    amount = MoneyField(label=_("Montant (€)"))
    note = forms.CharField(label=_("Pour quoi"), max_length=200, required=False)

    field_order = ["kind", "amount", "note", "site"]


class ReversalForm(SiteForm):
    note = forms.CharField(label=_("Raison de l'annulation"), max_length=200)

    field_order = ["note", "site"]


class DepositSettleForm(SiteForm):
    """Return a deposit to its family, or cash it."""

    note = forms.CharField(label=_("Note"), max_length=200, required=False)


class RenewalForm(SiteForm):
    membership_type = forms.ModelChoiceField(
        label=_("Type d'adhésion"), queryset=MembershipType.objects.order_by("name"), empty_label=None
    )
    method = forms.ChoiceField(
        label=_("Paiement"),
        choices=[("", _("À payer plus tard")), *Method.choices],
        required=False,
        widget=forms.RadioSelect,
    )
    cheque_number = forms.CharField(label=_("Numéro du chèque"), max_length=40, required=False)

    field_order = ["membership_type", "method", "cheque_number", "site"]


class TillCloseForm(OnceForm):
    cash_counted = MoneyField(label=_("Espèces comptées dans la caisse (€)"), min_value=Decimal(0))
    float_kept = MoneyField(
        label=_("Fond de caisse laissé pour la prochaine fois (€)"), initial=Decimal(0), min_value=Decimal(0)
    )
    note = forms.CharField(label=_("Note (un écart s'explique ici)"), max_length=200, required=False)


class TillClosureReverseForm(OnceForm):
    note = forms.CharField(label=_("Raison de l'annulation"), max_length=200)
