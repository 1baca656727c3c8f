"""The on-site desk's forms: open a session, count a family, a copy to a table and back, count a play."""

import datetime
from collections import Counter

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from catalogue.models import Copy, Game, Location
from loans.forms import copy_for_barcode
from loans.models import MissingPiece
from members.models import Member
from once.forms import OnceForm

from .models import Play, Session, TableUse

MAX_PEOPLE = 50  # per family: a bound, not a rule (a school class comes as one « famille non adhérente »)
ADULT_AGE = 18


def household_counts(member: Member, on: datetime.date | None = None) -> tuple[int, int]:
    """How many children and adults a family's household gives: the prefill of its count, which the
    desk corrects before counting (who came today is not always everyone). At least one adult when
    the household lists none: the card holder came with them."""
    ages = [person.age(on) for person in member.household.all()]
    children = sum(age < ADULT_AGE for age in ages)
    return min(children, MAX_PEOPLE), min(max(len(ages) - children, 1), MAX_PEOPLE)


class SessionOpenForm(forms.Form):
    location = forms.ModelChoiceField(label=_("Site"), queryset=Location.objects.order_by("name"))


class VisitForm(OnceForm):
    """A family come to play: its card scanned, or « famille non adhérente »; how many children and adults.

    A card scanned first brings the counts of its household back to the desk (`confirmed_card` then
    holds it); the family is counted when they are sent again for that same card.
    """

    card = forms.CharField(label=_("Carte de membre"), max_length=40, required=False)
    confirmed_card = forms.CharField(max_length=40, required=False, widget=forms.HiddenInput)
    non_member = forms.BooleanField(label=_("Famille non adhérente"), required=False)
    children = forms.IntegerField(label=_("Enfants"), min_value=0, max_value=MAX_PEOPLE, initial=0)
    adults = forms.IntegerField(label=_("Adultes"), min_value=0, max_value=MAX_PEOPLE, initial=1)

    def clean(self) -> dict:
        cleaned = super().clean()
        card = cleaned.get("card", "").strip()
        cleaned["member"] = None
        if card and cleaned.get("non_member"):
            self.add_error("card", _("Scannez une carte ou cochez « famille non adhérente », pas les deux."))
        elif card:
            member = Member.objects.filter(card_barcode__iexact=card.replace("\x00", "")).first()
            if member is None:
                self.add_error(
                    "card",
                    ValidationError(
                        _("Aucune famille ne porte la carte « %(card)s »."),
                        code="unknown_card",
                        params={"card": card.replace("\x00", "\ufffd")},
                    ),
                )
            cleaned["member"] = member
        elif not cleaned.get("non_member"):
            self.add_error("card", _("Scannez la carte de la famille, ou cochez « famille non adhérente »."))
        if cleaned.get("children") == 0 and cleaned.get("adults") == 0:
            self.add_error("adults", _("Indiquez combien d'enfants et d'adultes sont venus."))
        return cleaned

    def counts_to_check(self) -> bool:
        """A member's card scanned with the counts left as they were: its household's counts are shown to
        be checked, not counted yet (counts typed before the scan say who came, and count at once)."""
        data, member = self.cleaned_data, self.cleaned_data["member"]
        if member is None or data["confirmed_card"].casefold() == member.card_barcode.casefold():
            return False
        return (data["children"], data["adults"]) == (self["children"].initial, self["adults"].initial)

    def prefilled(self) -> "VisitForm":
        """The same family, its counts taken from its household, ready to be checked and counted."""
        member = self.cleaned_data["member"]
        children, adults = household_counts(member)
        form = VisitForm(
            initial={
                "card": member.card_barcode,
                "confirmed_card": member.card_barcode,
                "children": children,
                "adults": adults,
            }
        )
        form.member = member
        return form


class TableForm(forms.Form):
    barcode = forms.CharField(label=_("Code-barres du jeu sorti sur table"), max_length=40)

    def clean_barcode(self) -> Copy:
        return copy_for_barcode(self.cleaned_data["barcode"])


class TableReturnForm(forms.Form):
    """The pieces check of a copy back from a table: how many of each piece are missing (0: all there)."""

    playable_anyway = forms.BooleanField(
        label=_("Jouable quand même : laisser l'exemplaire en rayon malgré les pièces manquantes"),
        required=False,
    )

    def __init__(self, *args, table_use: TableUse, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        copy = table_use.copy
        known_missing = list(
            MissingPiece.objects.still_missing().filter(copy=copy).select_related("component")
        )
        already = Counter()
        for piece in known_missing:
            already[piece.component_id] += piece.quantity
        self.lines = []
        for component in copy.game.components.all():
            expected = component.quantity - already[component.pk]
            name = f"missing_{component.pk}"
            self.fields[name] = forms.IntegerField(
                label=_("combien manquent"), min_value=0, max_value=expected, initial=0, required=False
            )
            self.lines.append({"component": component, "expected": expected, "missing": self[name]})
        self.recovered_lines = []
        for piece in known_missing:
            name = f"recovered_{piece.pk}"
            self.fields[name] = forms.BooleanField(label=_("de retour dans la boîte"), required=False)
            self.recovered_lines.append({"piece": piece, "field": self[name]})
        if known_missing:
            self.fields["playable_anyway"].initial = True

    def missing(self) -> list[tuple]:
        return [
            (line["component"], self.cleaned_data.get(f"missing_{line['component'].pk}") or 0)
            for line in self.lines
        ]

    def recovered(self) -> list[MissingPiece]:
        return [line["piece"] for line in self.recovered_lines if self.cleaned_data.get(line["field"].name)]


class PlayForm(OnceForm):
    """« Compter cette partie », posted from a rules page's score sheet or pad while a session is open."""

    session = forms.ModelChoiceField(queryset=Session.objects.open(), widget=forms.HiddenInput)
    game = forms.ModelChoiceField(queryset=Game.objects.only("pk", "title"), widget=forms.HiddenInput)
    players = forms.IntegerField(min_value=1, max_value=99, required=False, widget=forms.HiddenInput)
    source = forms.ChoiceField(choices=Play.Source, initial=Play.Source.SCORE_SHEET, widget=forms.HiddenInput)
    next = forms.CharField(max_length=2000, required=False, widget=forms.HiddenInput)


class StatsForm(forms.Form):
    annee = forms.IntegerField(label=_("Année"), min_value=2000, max_value=2100, required=False)
