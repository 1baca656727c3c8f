"""The notices a family or a loan received, for the desk's pages (the loans app does not import notices)."""

from django import template

from loans.models import Loan
from members.models import Member

from ..models import Notice

register = template.Library()

# How many notices a page lists (the admin has them all).
HISTORY_LENGTH = 20


@register.inclusion_tag("notices/includes/history.html")
def notice_history(member: Member | None = None, loan: Loan | None = None) -> dict:
    """The latest notices of a family, or those about one loan, newest first, with what each said."""
    notices = Notice.objects.prefetch_related("items__loan__copy__game", "items__hold__game")
    if loan is not None:
        notices = notices.filter(items__loan=loan).distinct()
    else:
        notices = notices.filter(member=member)
    return {
        "notices": list(notices.order_by("-created_at", "-pk")[:HISTORY_LENGTH]),
        "for_loan": loan is not None,
    }


@register.simple_tag
def letters_to_print_count() -> int:
    """How many letters wait at the desk (the desk menu shows it)."""
    return Notice.objects.to_print().count()
