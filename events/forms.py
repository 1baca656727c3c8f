"""The events' forms: a family books from the event's page, the desk books for anyone, the attendance sheet."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledger.models import Method
from members.models import Member
from once.forms import OnceForm

from .models import Booking
from .services import MAX_PEOPLE


class BookingForm(OnceForm):
    """A family's booking: how many children and adults come."""

    children = forms.IntegerField(label=_("Enfants"), min_value=0, max_value=MAX_PEOPLE, initial=0)
    adults = forms.IntegerField(label=_("Adultes"), min_value=0, max_value=MAX_PEOPLE, initial=1)

    def clean(self) -> dict:
        cleaned = super().clean()
        if cleaned.get("children") == 0 and cleaned.get("adults") == 0:
            self.add_error("adults", _("Réservez pour au moins une personne."))
        return cleaned


class DeskBookingForm(BookingForm):
    """The desk books for a family (its card) or for someone who is not a member (a name and a contact);
    a walk-in is someone come on the day without booking. The fee may be paid at once."""

    card = forms.CharField(label=_("Carte de membre"), max_length=40, required=False)
    name = forms.CharField(label=_("ou nom (non adhérent)"), max_length=160, required=False)
    contact = forms.CharField(label=_("Téléphone ou e-mail"), max_length=160, required=False)
    walk_in = forms.BooleanField(label=_("Venue sans réservation (présente)"), required=False)
    method = forms.ChoiceField(
        label=_("Payé maintenant"),
        choices=[("", _("Non, plus tard")), *Method.choices],
        required=False,
    )
    cheque_number = forms.CharField(label=_("Numéro du chèque"), max_length=40, required=False)

    def clean(self) -> dict:
        cleaned = super().clean()
        card = cleaned.get("card", "").strip().replace("\x00", "")
        cleaned["member"] = None
        if card and cleaned.get("name", "").strip():
            self.add_error("card", _("Une carte ou un nom, pas les deux."))
        elif card:
            cleaned["member"] = Member.objects.filter(card_barcode__iexact=card).first()
            if cleaned["member"] is None:
                self.add_error(
                    "card",
                    ValidationError(
                        _("Aucune famille ne porte la carte « %(card)s »."),
                        code="unknown_card",
                        params={"card": card},
                    ),
                )
        elif not cleaned.get("name", "").strip():
            self.add_error(
                "card", _("Scannez la carte de la famille, ou écrivez le nom d'une personne non adhérente.")
            )
        return cleaned


class AttendanceForm(forms.Form):
    attendance = forms.ChoiceField(
        choices=[("", _("non pointée")), *Booking.Attendance.choices], required=False
    )
