"""The desk's writes, under one name: the views, the API, the other apps and the tests call
`services.loan_create(…)` whatever module the write lives in.

Each write runs in one transaction and takes its locks in the desk's order (loans/desk.py says which
and why): lending (checkout.py), renewing (renewals.py), returns, lost games and missing pieces
(returns.py), holds (holds.py), date bookings (bookings.py), and the count behind the sort by popularity (popularity.py).
"""

from .bookings import booking_cancel, booking_create, booking_hand_out
from .checkout import loan_create
from .desk import copy_set_completeness, describe_late, due_date, late_loans, short_date
from .holds import copy_back_on_shelf, hold_cancel, hold_create, hold_expire, holds_expire_past_pickup
from .popularity import POPULARITY_DAYS, popularity_count
from .renewals import loan_renew
from .returns import (
    PiecesCheck,
    ReturnResult,
    late_fee_due,
    loan_declare_lost,
    loan_return,
    lost_game_price,
    missing_piece_recover,
    missing_pieces_price,
    pieces_check_record,
)

__all__ = [
    "POPULARITY_DAYS",
    "PiecesCheck",
    "ReturnResult",
    "booking_cancel",
    "booking_create",
    "booking_hand_out",
    "copy_back_on_shelf",
    "copy_set_completeness",
    "describe_late",
    "due_date",
    "hold_cancel",
    "hold_create",
    "hold_expire",
    "holds_expire_past_pickup",
    "late_fee_due",
    "late_loans",
    "loan_create",
    "loan_declare_lost",
    "loan_renew",
    "loan_return",
    "lost_game_price",
    "missing_piece_recover",
    "missing_pieces_price",
    "pieces_check_record",
    "popularity_count",
    "short_date",
]
