"""The repairs' forms: sent from a return's pieces check or by hand, notes, and back to the shelves."""

from django import forms
from django.utils.translation import gettext_lazy as _

from loans.forms import copy_for_barcode
from ludotheque.money import MoneyField

from . import services
from .models import Repair

REASON_HELP = _("Ce qui est abîmé, par exemple « plateau déchiré », « boîte à recoller ».")


class ReturnRepairForm(forms.Form):
    """« Envoyer en réparation » on a return's page (registered with the loans app: loans/registry.py)."""

    template_name = "repairs/return_option.html"

    send = forms.BooleanField(label=_("Envoyer en réparation au lieu de remettre en rayon"), required=False)
    reason = forms.CharField(label=_("Raison"), max_length=200, required=False, help_text=REASON_HELP)
    charge_family = forms.BooleanField(
        label=_("Facturer la réparation à la famille (son coût, une fois connu)"), required=False
    )

    def __init__(self, *args, loan, prefix: str = "repair", **kwargs) -> None:
        super().__init__(*args, prefix=prefix, **kwargs)
        self.loan = loan
        if loan.member_id is None:
            del self.fields["charge_family"]

    def clean(self) -> dict:
        cleaned = super().clean()
        if cleaned.get("send") and not cleaned.get("reason", "").strip():
            self.add_error("reason", _("Dites ce qui est à réparer."))
        return cleaned

    def keeps_copy(self) -> bool:
        return bool(self.cleaned_data.get("send"))

    def apply(self, *, result, staff) -> str | None:
        if not self.keeps_copy():
            return None
        repair = services.repair_open(
            copy=result.loan.copy,
            reason=self.cleaned_data["reason"],
            staff=staff,
            loan=result.loan,
            charge_family=self.cleaned_data.get("charge_family", False),
        )
        return _("« %(game)s » (%(barcode)s) part en réparation : %(reason)s.") % {
            "game": repair.copy.game.title,
            "barcode": repair.copy.barcode,
            "reason": repair.reason,
        }


class RepairOpenForm(forms.Form):
    """Send a copy to repair by hand: its barcode (the queue's form) and why."""

    barcode = forms.CharField(label=_("Code-barres de l'exemplaire"), max_length=40)
    reason = forms.CharField(label=_("Raison"), max_length=200, help_text=REASON_HELP)

    def __init__(self, *args, copy=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.copy = copy
        if copy is not None:
            del self.fields["barcode"]

    def clean_barcode(self):
        self.copy = copy_for_barcode(self.cleaned_data["barcode"])
        return self.cleaned_data["barcode"]


class RepairNotesForm(forms.Form):
    notes = forms.CharField(
        label=_("Ce qui a été fait"),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class RepairCloseForm(forms.Form):
    """« Réparé, remettre en rayon »: what was done, what it cost and who pays."""

    notes = forms.CharField(
        label=_("Ce qui a été fait"),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    cost = MoneyField(
        label=_("Coût (€)"),
        required=False,
        help_text=_("Vide : rien à payer, rien n'est écrit dans la caisse."),
    )

    def __init__(self, *args, repair: Repair, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.repair = repair
        self.fields["notes"].initial = repair.notes
        family = repair.family
        if family is not None:
            self.fields["charged_to"] = forms.ChoiceField(
                label=_("À la charge de"),
                choices=[
                    (Repair.ChargedTo.LUDOTHEQUE, _("La ludothèque (une dépense)")),
                    (Repair.ChargedTo.FAMILY, _("%(family)s, qui avait le jeu") % {"family": family.name}),
                ],
                initial=repair.charged_to,
                widget=forms.RadioSelect,
                required=False,
            )

    def charge_family(self) -> bool | None:
        """Whether the family pays; None: as chosen when the copy was sent (no choice posted)."""
        chosen = self.cleaned_data.get("charged_to")
        return chosen == Repair.ChargedTo.FAMILY if chosen else None
