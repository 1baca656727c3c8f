from django import forms
from django.utils.translation import gettext_lazy as _

from catalogue.models import Location


class StocktakeForm(forms.Form):
    localisation = forms.ModelChoiceField(
        label=_("Site à inventorier"),
        queryset=Location.objects.all(),
        required=False,
        empty_label=_("Tous les sites"),
    )


class ScanForm(forms.Form):
    barcode = forms.CharField(label=_("Code-barres"), max_length=40, strip=True)
