"""Whether a loan can be renewed, and what a family's account says of each game at home.

The renewal rules are the desk's (`services.loan_renew` raises what `renewal_refusal` returns); the
family's page reads them here, with the same words, to say why « Prolonger » is missing.
"""

import datetime
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .models import Hold, Loan, Member, MembershipType


def renewal_refusal(
    loan: Loan, membership_type: MembershipType, *, someone_waiting: bool
) -> ValidationError | None:
    """Why the membership type refuses to renew `loan` (the renewal limit, a family waiting for the
    game), or None. The membership's own validity is checked apart, as for every write of the desk."""
    allowed = membership_type.renewals_allowed
    if allowed == 0:
        return ValidationError(
            _("L'adhésion « %(type)s » ne permet pas de prolonger un prêt."),
            code="renewal_limit",
            params={"type": membership_type.name},
        )
    if loan.renewals >= allowed:
        return ValidationError(
            _(
                "« %(game)s » a déjà été prolongé %(count)s fois : c'est le maximum de l'adhésion "
                "« %(type)s »."
            ),
            code="renewal_limit",
            params={"game": loan.copy.game.title, "count": loan.renewals, "type": membership_type.name},
        )
    if someone_waiting:
        return ValidationError(
            _("« %(game)s » est réservé par une autre famille : le prêt ne peut pas être prolongé."),
            code="hold_waiting",
            params={"game": loan.copy.game.title},
        )
    return None


def explain_loans(loans: list[Loan], member: Member, today: datetime.date) -> None:
    """Give each of the family's open loans what its account says of it: `renewable`, else
    `renewal_refused` (the reason), and for a late one `late_since` and `late_fee` (so far)."""
    membership_type = member.membership_type
    waiting = set(
        Hold.objects.waiting()
        .filter(game_id__in=[loan.copy.game_id for loan in loans])
        .values_list("game_id", flat=True)
    )
    valid = member.membership_is_valid(today)
    for loan in loans:
        refusal = renewal_refusal(loan, membership_type, someone_waiting=loan.copy.game_id in waiting)
        loan.renewable = valid and refusal is None
        if not valid:
            loan.renewal_refused = _("Adhésion expirée : renouvelez-la au comptoir pour prolonger vos prêts.")
        else:
            loan.renewal_refused = refusal.messages[0] if refusal else ""
        loan.late_since = loan.due_on + datetime.timedelta(days=1) if loan.due_on < today else None
        loan.late_fee = membership_type.late_fee(loan.days_late(today)) if loan.late_since else Decimal(0)
