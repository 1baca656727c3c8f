from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalogue.models import Location


class ReportForm(forms.Form):
    """The year and the site of the report (all sites when none is chosen)."""

    annee = forms.IntegerField(label=_("Année"), min_value=2000, max_value=2100, required=False)
    site = forms.ModelChoiceField(
        label=_("Site"), queryset=Location.objects.all(), required=False, empty_label=_("Tous les sites")
    )

    def clean_annee(self) -> int:
        return self.cleaned_data["annee"] or timezone.localdate().year
