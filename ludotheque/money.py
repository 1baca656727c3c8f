"""An amount of money typed at the desk, in the admin or sent to the API: one rule, ASCII digits only.

Python's Decimal reads any script's digits (« ١٢ » is 12) and exponents (« 1E2 » is 100): an amount
someone typed is taken only as written with 0–9, an optional sign and one decimal point or comma.
"""

import re
from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

# An amount the desk handles: up to 99 999,99 €, in cents.
BOUNDS = {
    "max_digits": 9,
    "decimal_places": 2,
    "min_value": Decimal("0.01"),
    "max_value": Decimal("99999.99"),
}
# Linear: no quantifier overlaps another.
PLAIN_AMOUNT = re.compile(r"[+-]?[0-9]*[.,]?[0-9]*")
NOT_PLAIN = _("Écrivez le montant avec les chiffres 0 à 9 et une virgule, par exemple 12,50.")


def check_plain_amount(text: str) -> None:
    """Refuse an amount with digits (of any script) not written with 0–9, a sign and one separator.

    Text without a digit at all (« beaucoup », « NaN ») is left to the field's own « Saisissez un nombre ».
    """
    text = text.strip()
    if not PLAIN_AMOUNT.fullmatch(text) and any(char.isdigit() for char in text):
        raise ValidationError(NOT_PLAIN, code="amount_not_plain")


class PlainDecimalField(forms.DecimalField):
    """A decimal number typed with 0–9 (the admin's prices and fees: its models' own bounds)."""

    def to_python(self, value):
        if isinstance(value, str) and value.strip():
            check_plain_amount(value)
        return super().to_python(value)


class MoneyField(PlainDecimalField):
    """A desk form's amount in euros: « 12,50 » or « 12.50 », never « ١٢ » or « 1E2 »."""

    def __init__(self, **kwargs) -> None:
        # localize: accepts « 12,50 » as well as « 12.50 ».
        super().__init__(**(BOUNDS | {"localize": True} | kwargs))

    def widget_attrs(self, widget):
        return super().widget_attrs(widget) | {"inputmode": "decimal"}


class MoneySerializerField(serializers.DecimalField):
    """The API's amount in euros: a JSON number or a string of ASCII digits with a decimal point."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**(BOUNDS | kwargs))

    def to_internal_value(self, data):
        if isinstance(data, str):
            try:
                check_plain_amount(data)
            except ValidationError as error:
                raise serializers.ValidationError(error.messages, code=error.code) from None
        return super().to_internal_value(data)
