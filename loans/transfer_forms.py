"""The forms of copies between sites: a pick-up site, the desk's send (a list, or a crate scanned), a
reception scan. The rules live once, in loans/transfers.py."""

from django import forms
from django.utils.translation import gettext_lazy as _

from catalogue.models import Copy, Location

from .holds import pickup_sites
from .transfer_models import Transfer
from .transfers import MAX_SHIPMENT_COPIES


class PickupSiteForm(forms.Form):
    """Where a family collects a hold: any site that lends."""

    pickup_site = forms.ModelChoiceField(
        label=_("À retirer à"), queryset=Location.objects.none(), empty_label=None
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["pickup_site"].queryset = pickup_sites()


class SendForm(forms.Form):
    """Mark copies waiting at this desk as sent (they leave together, for one site)."""

    transfers = forms.ModelMultipleChoiceField(
        label=_("Exemplaires à envoyer"),
        queryset=Transfer.objects.to_send(),
        widget=forms.CheckboxSelectMultiple,
    )

    def clean_transfers(self):
        transfers = self.cleaned_data["transfers"]
        if len({transfer.to_site_id for transfer in transfers}) > 1:
            raise forms.ValidationError(_("Un envoi va vers un seul site."), code="several_sites")
        return transfers


def _barcodes(text: str) -> list[str]:
    return list(dict.fromkeys(word for word in text.split() if word))


class ShipmentForm(forms.Form):
    """A crate: the barcodes scanned one after the other, and where it goes."""

    to_site = forms.ModelChoiceField(label=_("Destination"), queryset=Location.objects.order_by("name"))
    barcodes = forms.CharField(
        label=_("Codes-barres"),
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off"}),
        help_text=_("Scannez les exemplaires l'un après l'autre : un code-barres par ligne."),
        max_length=MAX_SHIPMENT_COPIES * 41,
    )
    note = forms.CharField(label=_("Note"), max_length=200, required=False)

    def clean_barcodes(self) -> list[Copy]:
        barcodes = _barcodes(self.cleaned_data["barcodes"])
        if len(barcodes) > MAX_SHIPMENT_COPIES:
            raise forms.ValidationError(
                _("Un envoi compte au plus %(count)s exemplaires."),
                code="too_many",
                params={"count": MAX_SHIPMENT_COPIES},
            )
        copies = {copy.barcode: copy for copy in Copy.objects.filter(barcode__in=barcodes)}
        unknown = [barcode for barcode in barcodes if barcode not in copies]
        if unknown:
            raise forms.ValidationError(
                _("Codes-barres inconnus : %(barcodes)s."),
                code="unknown",
                params={"barcodes": ", ".join(unknown)},
            )
        return [copies[barcode] for barcode in barcodes]


class ReceiveForm(forms.Form):
    """One copy scanned in on arrival."""

    barcode = forms.CharField(label=_("Code-barres de l'exemplaire arrivé"), max_length=40)

    def clean_barcode(self) -> Copy:
        barcode = self.cleaned_data["barcode"].strip()
        copy = Copy.objects.select_related("game").filter(barcode=barcode).first()
        if copy is None:
            raise forms.ValidationError(
                _("Aucun exemplaire ne porte le code-barres %(barcode)s."),
                code="unknown",
                params={"barcode": barcode},
            )
        return copy
