"""The offline desk's actions as they are sent back: one form per action, checked before any replay."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from catalogue.models import Location
from loans.forms import DepositFields

from .models import OfflineAction

# At most this many actions per request (the desk sends its queue in slices) and pieces per return.
MAX_ACTIONS = 200
MAX_PIECES = 100
MAX_PEOPLE = 99


class ActionForm(DepositFields):
    """One action of the offline desk: what, where, when, in which order, and about whom or what (a
    lend with the deposit its copy's kind asks, checked on replay)."""

    id = forms.UUIDField()
    kind = forms.ChoiceField(choices=OfflineAction.Kind.choices)
    site = forms.ModelChoiceField(queryset=Location.objects.all())
    sequence = forms.IntegerField(min_value=0, max_value=2**31 - 1)
    recorded_at = forms.DateTimeField()
    card = forms.CharField(max_length=40, required=False)
    barcode = forms.CharField(max_length=40, required=False)
    loan = forms.IntegerField(min_value=1, max_value=2**63 - 1, required=False)
    lend = forms.UUIDField(required=False)
    playable_anyway = forms.BooleanField(required=False)
    lend_incomplete = forms.BooleanField(required=False)
    children = forms.IntegerField(min_value=0, max_value=MAX_PEOPLE, required=False)
    adults = forms.IntegerField(min_value=0, max_value=MAX_PEOPLE, required=False)

    REQUIRED = {
        OfflineAction.Kind.LEND: ["card", "barcode"],
        OfflineAction.Kind.RETURN: ["barcode"],
        OfflineAction.Kind.VISIT: [],
    }

    def clean(self) -> dict:
        cleaned = super().clean()
        for name in self.REQUIRED.get(cleaned.get("kind"), []):
            if name not in self.errors and not cleaned.get(name):
                self.add_error(name, ValidationError(_("Ce champ est obligatoire."), code="required"))
        cleaned["missing"] = self._missing()
        return cleaned

    def _missing(self) -> list[dict]:
        """The pieces a return found missing: a list of {component: id, quantity: n > 0}."""
        lines = self.data.get("missing") or []
        error = ValidationError(
            _("Attendu : une liste de pièces, chacune avec son numéro et un nombre manquant positif."),
            code="invalid",
        )
        if not isinstance(lines, list) or len(lines) > MAX_PIECES:
            self.add_error(None, error)
            return []
        missing = []
        for line in lines:
            component = line.get("component") if isinstance(line, dict) else None
            quantity = line.get("quantity") if isinstance(line, dict) else None
            if not all(type(value) is int and 0 < value < 2**31 for value in (component, quantity)):
                self.add_error(None, error)
                return []
            missing.append({"component": component, "quantity": quantity})
        return missing

    def replay_values(self) -> dict:
        """What `replay.action_replay()` records of this action."""
        data = self.cleaned_data
        payload = {
            "card": data["card"].strip(),
            "barcode": data["barcode"].strip(),
            "loan": data["loan"],
            "lend": str(data["lend"]) if data["lend"] else None,
            "missing": data["missing"],
            "playable_anyway": data["playable_anyway"],
            "lend_incomplete": data["lend_incomplete"],
            "deposit_method": data["deposit_method"],
            "deposit_cheque_number": data["deposit_cheque_number"].strip(),
            "children": data["children"] or 0,
            "adults": data["adults"] or 0,
        }
        return {
            "id": data["id"],
            "kind": data["kind"],
            "location": data["site"],
            "sequence": data["sequence"],
            "recorded_at": data["recorded_at"],
            "payload": payload,
        }


class RetryForm(DepositFields):
    """« Réessayer maintenant »: a lend refused for its deposit goes again with how it was paid."""


class DismissForm(forms.Form):
    note = forms.CharField(label=_("Comment ce conflit a été réglé"), max_length=300)
