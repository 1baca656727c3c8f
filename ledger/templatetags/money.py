"""Amounts as the desk writes them: `{{ entry.amount|euros }}` → « 12,50 € »."""

from django import template

from ledger.services import euros as format_euros

register = template.Library()


@register.filter
def euros(amount) -> str:
    return "" if amount is None or amount == "" else format_euros(amount)


@register.filter
def absolute(amount):
    """The amount without its sign (a credit shown as what the ludothèque owes)."""
    return abs(amount)
