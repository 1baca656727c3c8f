from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Notice


class LettersPrintedForm(forms.Form):
    """The letters the librarian just printed (those the print page listed)."""

    letters = forms.ModelMultipleChoiceField(
        queryset=Notice.objects.to_print(),
        error_messages={
            "invalid_choice": _("Cette lettre n'est plus à imprimer : rechargez la page."),
            "required": _("Aucune lettre à marquer comme imprimée."),
        },
    )


class LettersChoiceForm(forms.Form):
    """Which letters to print: those given (`?avis=…`, to print one again), else every letter waiting."""

    avis = forms.ModelMultipleChoiceField(
        queryset=Notice.objects.filter(channel=Notice.Channel.LETTER), required=False
    )
