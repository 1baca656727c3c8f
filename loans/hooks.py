"""What other apps are told of the desk's writes, without the loans app importing them.

An app registers a listener from its `AppConfig.ready()` (the notices app tells a family at once that
its hold arrived at its pick-up site: notices/arrivals.py); the desk's write calls it once its
transaction has committed, so that a refused or rolled-back write tells nobody.
"""

from collections.abc import Callable
from functools import partial

from django.db import transaction

from .models import Hold

_hold_arrived: list[Callable[[int], object]] = []


def register_hold_arrived(listener: Callable[[int], object]) -> None:
    """`listener(hold_id)` is called when a copy sent to a family's pick-up site arrives there."""
    if listener not in _hold_arrived:
        _hold_arrived.append(listener)


def hold_arrived(hold: Hold) -> None:
    """A hold became ready on its copy's arrival: tell the listeners once the transaction commits."""
    for listener in _hold_arrived:
        transaction.on_commit(partial(listener, hold.pk))
