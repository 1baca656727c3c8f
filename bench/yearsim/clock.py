"""The simulated clock: Django's `timezone.now()` in every process of the run reads one file.

The file holds an offset in seconds from the real clock; the driver moves it forward (to a day's
morning, its opening, its evening), and time then flows as usual until the next move. Installed
before Django is set up (gunicorn's workers through `yearsim.wsgi`), it replaces the `datetime` that
`django.utils.timezone.now()` calls, so that model defaults holding `timezone.now` follow it too.
"""

import datetime
import os

_state = {"path": None, "mtime": None, "offset": 0.0}


class _Clock(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return datetime.datetime.now(tz) + datetime.timedelta(seconds=offset())


def offset() -> float:
    path = _state["path"]
    if path is None:
        return _state["offset"]
    try:
        stat = os.stat(path)
        mtime = (stat.st_ino, stat.st_mtime_ns)
    except FileNotFoundError:
        return 0.0
    if mtime != _state["mtime"]:
        with open(path) as file:
            _state["offset"] = float(file.read() or 0)
        _state["mtime"] = mtime
    return _state["offset"]


def install(path: str | None = None) -> None:
    """Make this process's `timezone.now()` follow the clock file (LUDO_SIM_CLOCK by default)."""
    from django.utils import timezone

    _state["path"] = path or os.environ["LUDO_SIM_CLOCK"]
    timezone.datetime = _Clock


def set_to(moment: datetime.datetime) -> None:
    """Move every process's clock to `moment` (aware), from which it flows again."""
    value = (moment - datetime.datetime.now(datetime.UTC)).total_seconds()
    temporary = f"{_state['path']}.new"
    with open(temporary, "w") as file:
        file.write(repr(value))
    os.replace(temporary, _state["path"])
