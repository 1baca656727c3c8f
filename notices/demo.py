"""Demo notices: today's run over the demo families (e-mails printed on the console, a letter to print).

Runs after the loans demo (INSTALLED_APPS order). Safe to run again: a notice is never written twice.
"""

from django.utils import timezone

from .services import notices_send


def load(*, stdout) -> None:
    stdout.write(f"  {notices_send(today=timezone.localdate())}")
