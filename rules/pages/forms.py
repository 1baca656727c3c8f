from django import forms
from django.utils.translation import gettext_lazy as _

from rules.models import REVISION_MAX_LENGTH

from .bounds import check_revision_size


class RevisionForm(forms.Form):
    """The page editor: the text, an edit summary, and the revision it was written from."""

    content = forms.CharField(
        label=_("Texte de la page"),
        max_length=REVISION_MAX_LENGTH,
        error_messages={
            "max_length": _(
                "Une version tient en %(limit_value)s caractères au plus ; ce texte en compte %(show_value)s. "
                "Raccourcissez-le, ou mettez une partie des règles dans un document joint à la notice."
            )
        },
        widget=forms.Textarea(attrs={"rows": 28, "spellcheck": "true", "class": "wiki-source"}),
    )
    summary = forms.CharField(
        label=_("Résumé de la modification"),
        max_length=500,
        help_text=_("Une phrase pour l'historique : ce que vous avez changé et pourquoi."),
    )
    base_number = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def clean_content(self) -> str:
        content = self.cleaned_data["content"]
        check_revision_size(content)
        return content
