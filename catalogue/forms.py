"""Staff forms of the catalogue: which copies to label, on what sheet."""

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .labels import MAX_LABELS, PRESETS, SheetLayout
from .models import Copy, ItemKind, Location, default_item_kind
from .spreadsheet import MAX_BYTES, decode, read_sheet

# The smallest label that still holds a title, a scannable barcode and a cote.
MIN_LABEL_WIDTH, MIN_LABEL_HEIGHT = 30.0, 18.0


class CopySelectionForm(forms.Form):
    """The copies to print: chosen in the admin (their ids), or all those added since a date."""

    exemplaires = forms.CharField(required=False, widget=forms.HiddenInput)
    depuis = forms.DateField(
        label=_("Exemplaires ajoutés depuis le"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    localisation = forms.ModelChoiceField(
        label=_("Localisation"),
        queryset=Location.objects.all(),
        required=False,
        empty_label=_("Tous les sites"),
    )

    def clean_exemplaires(self) -> list[int]:
        text = self.cleaned_data["exemplaires"].strip()
        if not text:
            return []
        if not re.fullmatch(r"[0-9]+(,[0-9]+)*", text):
            raise ValidationError(_("Liste d'exemplaires illisible."), code="invalid")
        ids = list(dict.fromkeys(int(word) for word in text.split(",")))
        if len(ids) > MAX_LABELS:
            raise ValidationError(
                _("Au plus %(max)s exemplaires à la fois."), code="too_many", params={"max": MAX_LABELS}
            )
        return ids

    def clean(self):
        data = super().clean()
        if not self.errors and not data.get("exemplaires") and not data.get("depuis"):
            raise ValidationError(
                _("Choisissez des exemplaires dans l'administration, ou une date d'ajout."), code="nothing"
            )
        return data

    def copies(self) -> list[Copy]:
        """The chosen copies with their game and site, in title then barcode order (at most MAX_LABELS)."""
        data = self.cleaned_data
        copies = Copy.objects.select_related("game", "location")
        if data["exemplaires"]:
            copies = copies.filter(pk__in=data["exemplaires"])
        if data["depuis"]:
            copies = copies.filter(created_at__date__gte=data["depuis"])
        if data["localisation"]:
            copies = copies.filter(location=data["localisation"])
        return list(copies.order_by("game__title", "barcode")[:MAX_LABELS])


class LabelSheetForm(CopySelectionForm):
    """The sheet: a preset or a grid of one's own, and how many labels of the first sheet are used."""

    CUSTOM = "perso"

    modele = forms.ChoiceField(
        label=_("Planche"),
        choices=[*((key, label) for key, (label, _layout) in PRESETS.items()), (CUSTOM, _("Personnalisée"))],
        required=False,
    )
    lignes = forms.IntegerField(label=_("Lignes"), min_value=1, max_value=20, required=False)
    colonnes = forms.IntegerField(label=_("Colonnes"), min_value=1, max_value=6, required=False)
    marge_haut = forms.DecimalField(
        label=_("Marge en haut et en bas (mm)"), min_value=0, max_value=60, decimal_places=2, required=False
    )
    marge_cote = forms.DecimalField(
        label=_("Marge à gauche et à droite (mm)"),
        min_value=0,
        max_value=60,
        decimal_places=2,
        required=False,
    )
    ecart_colonnes = forms.DecimalField(
        label=_("Espace entre colonnes (mm)"), min_value=0, max_value=30, decimal_places=2, required=False
    )
    ecart_lignes = forms.DecimalField(
        label=_("Espace entre lignes (mm)"), min_value=0, max_value=30, decimal_places=2, required=False
    )
    decalage = forms.IntegerField(
        label=_("Étiquettes déjà utilisées sur la première planche"),
        min_value=0,
        max_value=119,
        required=False,
        help_text=_("Pour finir une planche entamée : l'impression commence après celles-ci."),
    )

    def clean(self):
        data = super().clean()
        preset = data.get("modele") or "3x8"
        if preset == self.CUSTOM:
            default = PRESETS["3x8"][1]
            layout = SheetLayout(
                rows=data.get("lignes") or default.rows,
                columns=data.get("colonnes") or default.columns,
                margin_top=float(data.get("marge_haut") or 0),
                margin_side=float(data.get("marge_cote") or 0),
                gap_x=float(data.get("ecart_colonnes") or 0),
                gap_y=float(data.get("ecart_lignes") or 0),
            )
        else:
            layout = PRESETS[preset][1]
        if layout.label_width < MIN_LABEL_WIDTH or layout.label_height < MIN_LABEL_HEIGHT:
            raise ValidationError(
                _(
                    "Avec ces marges, chaque étiquette ferait %(width)s × %(height)s mm : il faut au moins "
                    "%(min_width)s × %(min_height)s mm pour le titre, le code-barres et la cote."
                ),
                code="too_small",
                params={
                    "width": f"{layout.label_width:.0f}",
                    "height": f"{layout.label_height:.0f}",
                    "min_width": f"{MIN_LABEL_WIDTH:.0f}",
                    "min_height": f"{MIN_LABEL_HEIGHT:.0f}",
                },
            )
        data["layout"] = layout
        data["decalage"] = data.get("decalage") or 0
        return data


class BoxStickerForm(CopySelectionForm):
    """Box stickers: four A6 or two half-A4 per A4 sheet."""

    format = forms.ChoiceField(
        label=_("Format"),
        choices=[("a6", _("A6 (4 par page A4)")), ("a5", _("Demi-A4 (2 par page A4)"))],
        required=False,
    )

    def clean(self):
        data = super().clean()
        data["format"] = data.get("format") or "a6"
        return data


class SpreadsheetForm(forms.Form):
    """A CSV file, read at once by `reader` (text → an object with `rows` and `errors`) so that a bad
    file is refused before it is kept."""

    fichier = forms.FileField(
        label=_("Fichier CSV"),
        help_text=_(
            "UTF-8, colonnes séparées par des virgules ou des points-virgules ; au plus 10 000 lignes."
        ),
    )

    def __init__(self, *args, reader=read_sheet, **kwargs):
        super().__init__(*args, **kwargs)
        self.reader = reader

    def clean_fichier(self):
        upload = self.cleaned_data["fichier"]
        if upload.size > MAX_BYTES:
            raise ValidationError(
                _("Fichier trop gros (%(size)s Mo au plus)."),
                code="too_big",
                params={"size": MAX_BYTES // 2**20},
            )
        try:
            text = decode(upload.read())
        except UnicodeDecodeError:
            raise ValidationError(
                _("Ce fichier n'est pas en UTF-8 : enregistrez-le en « CSV UTF-8 » depuis le tableur."),
                code="encoding",
            ) from None
        sheet = self.reader(text)
        file_errors = [error.message for error in sheet.errors if not error.line]
        if file_errors:
            raise ValidationError(file_errors, code="header")
        if not sheet.rows:
            raise ValidationError(_("Ce fichier n'a aucune ligne."), code="empty")
        self.cleaned_data["text"] = text
        return upload


class CopyForm(forms.ModelForm):
    """A copy in the admin: withdrawn or lost without a date, it left the collection today (the annual report);
    without a kind, the kind of new copies (« Jeu »)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if "kind" in self.fields:
            self.fields["kind"].required = False

    def clean_kind(self) -> ItemKind:
        return self.cleaned_data.get("kind") or ItemKind.objects.get(pk=default_item_kind())

    def clean(self):
        cleaned = super().clean()
        gone = cleaned.get("status") in (Copy.Status.WITHDRAWN, Copy.Status.LOST)
        if gone and "status" in self.changed_data and not cleaned.get("withdrawn_on"):
            cleaned["withdrawn_on"] = timezone.localdate()
        return cleaned
