"""What the apps built on the loans app add to its desk, registered from their `AppConfig.ready()`: the
loans app imports none of them (docs/development.md, "Working on the code").

- **Return forms**: a form shown on a return's page under the pieces check (the repairs app's
  « Envoyer en réparation »), a loan's and each copy's of a kit's. Its class is built with the loan
  being returned (`Form(data, loan=…)`, and a `prefix` where one page returns several loans),
  renders itself (its `template_name`) and says whether it keeps the copy back from the shelves
  (`keeps_copy()`: no family's hold is served with it); once the return is written, its `apply(result=…,
  staff=…)` acts in the same transaction (a refusal it raises undoes the return) and answers the
  message the desk shows, or None.
- **Desk barcodes**: a barcode the desk's boxes know neither as a copy nor as a card (a kit's) opens
  the page the app that knows it answers (`page(barcode, member)`, `member` the family or group whose
  page it was scanned on, None from the return box or the card box), or None.
- **Status details**: why a copy whose status keeps it in cannot be lent, in the reader's language
  (« en réparation depuis le 3 déc. : pion cassé »), or None; the checkout's refusal says it.
- **Hold arrived**: told `listener(hold_id)` when a copy sent to a family's pick-up site arrives and its
  hold becomes ready (the notices app tells the family at once: notices/arrivals.py), once the
  reception's transaction has committed, so that a refused or rolled-back write tells nobody.
"""

from collections.abc import Callable
from functools import partial

from django.db import transaction

from catalogue.models import Copy
from members.models import Member

_return_forms: list[type] = []
_status_details: list[Callable[[Copy], str | None]] = []
_desk_barcodes: list[Callable[[str, Member | None], str | None]] = []
_hold_arrived: list[Callable[[int], object]] = []


def register_return_form(form_class: type) -> None:
    if form_class not in _return_forms:
        _return_forms.append(form_class)


def return_forms() -> list[type]:
    """The registered return forms' classes, in the order they registered."""
    return list(_return_forms)


def register_status_detail(detail: Callable[[Copy], str | None]) -> None:
    if detail not in _status_details:
        _status_details.append(detail)


def status_detail(copy: Copy) -> str | None:
    """What the first registered detail says of this copy's status, or None."""
    for detail in _status_details:
        if (text := detail(copy)) is not None:
            return text
    return None


def register_desk_barcode(page: Callable[[str, Member | None], str | None]) -> None:
    if page not in _desk_barcodes:
        _desk_barcodes.append(page)


def desk_barcode_page(barcode: str, member: Member | None = None) -> str | None:
    """The page another app opens for a barcode the desk does not know (a kit's), or None."""
    barcode = barcode.strip()
    if not barcode or "\x00" in barcode:
        return None
    for page in _desk_barcodes:
        if (url := page(barcode, member)) is not None:
            return url
    return None


def register_hold_arrived(listener: Callable[[int], object]) -> None:
    if listener not in _hold_arrived:
        _hold_arrived.append(listener)


def hold_arrived(hold_id: int) -> None:
    """A hold became ready on its copy's arrival: tell the listeners once the transaction commits."""
    for listener in _hold_arrived:
        transaction.on_commit(partial(listener, hold_id))
