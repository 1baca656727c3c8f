"""Where copies are, as the catalogue shows it: told through its registry (catalogue/registry.py).

Registered by `LoansConfig.ready()`: the catalogue's availability and due dates are built from
these expressions, on the loans' and holds' own QuerySet methods.
"""

from django.db.models import Exists, Expression, OuterRef, Subquery

from .models import Hold, Loan


class LoansCirculation:
    """Open loans take a copy out, ready holds keep it at the desk."""

    def on_loan(self) -> Expression:
        # (NOT) EXISTS: one probe of the partial unique index of open loans.
        return Exists(Loan.objects.open().filter(copy=OuterRef("pk")))

    def set_aside(self) -> Expression:
        return Exists(Hold.objects.ready().filter(copy=OuterRef("pk")))

    def due_on(self) -> Expression:
        # The open loan's date, through the partial unique index of open loans: a popular copy's
        # hundreds of past loans are never read (a join would read them all for every game).
        return Subquery(Loan.objects.open().filter(copy=OuterRef("pk")).order_by().values("due_on")[:1])
