"""The desk's forms for a kit: lend it (the borrower's card, what to do with what is missing), take
it back (each copy's checklist is the loans app's `ReturnForm`; the loose material here), add a copy."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from catalogue.models import Copy
from loans.forms import DepositFields, copy_for_barcode
from members.models import Member

from .models import Kit


class KitScanForm(forms.Form):
    barcode = forms.CharField(label=_("Code-barres de la malle"), max_length=40)

    def clean_barcode(self) -> Kit:
        barcode = self.cleaned_data["barcode"].strip()
        kit = None if "\x00" in barcode else Kit.objects.filter(barcode__iexact=barcode).first()
        if kit is None:
            raise ValidationError(
                _("Aucune malle ne porte le code-barres « %(barcode)s »."),
                code="unknown_kit",
                params={"barcode": barcode.replace("\x00", "\ufffd")},
            )
        return kit


class KitLendForm(DepositFields):
    card = forms.CharField(
        label=_("Carte de l'emprunteur"),
        max_length=40,
        help_text=_("Scannez la carte de la collectivité (ou de la famille)."),
    )
    without_missing = forms.BooleanField(
        label=_("Prêter la malle sans ce qui manque"),
        required=False,
        help_text=_("Les exemplaires absents ou incomplets restent à la ludothèque, dans leur malle."),
    )
    lend_incomplete = forms.BooleanField(
        label=_("Prêter aussi les exemplaires incomplets encore jouables"), required=False
    )

    def clean_card(self) -> Member:
        card = self.cleaned_data["card"].strip()
        member = (
            None
            if "\x00" in card
            else Member.objects.select_related("membership_type").filter(card_barcode__iexact=card).first()
        )
        if member is None or member.erased_at is not None:
            raise ValidationError(
                _("Aucune collectivité ni famille n'a la carte « %(card)s »."),
                code="unknown_card",
                params={"card": card.replace("\x00", "\ufffd")},
            )
        return member


class MaterialForm(forms.Form):
    """The loose material of a kit coming back: each item ticked present, and anything else missing."""

    other_missing = forms.CharField(
        label=_("Autre chose manque"), max_length=500, required=False, widget=forms.TextInput
    )

    def __init__(self, *args, kit: Kit, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.items = kit.material_lines()
        for index, item in enumerate(self.items):
            self.fields[f"present_{index}"] = forms.BooleanField(label=item, required=False, initial=True)

    def item_fields(self) -> list:
        return [self[f"present_{index}"] for index in range(len(self.items))]

    def missing(self) -> str:
        """What is missing, in one line (« 1 tapis, une boîte de craies »), empty when all is there."""
        gone = [
            item for index, item in enumerate(self.items) if not self.cleaned_data.get(f"present_{index}")
        ]
        other = self.cleaned_data.get("other_missing", "").strip()
        return ", ".join([*gone, other] if other else gone)


class KitCopyForm(forms.Form):
    barcode = forms.CharField(label=_("Code-barres de l'exemplaire"), max_length=40)

    def clean_barcode(self) -> Copy:
        return copy_for_barcode(self.cleaned_data["barcode"])
