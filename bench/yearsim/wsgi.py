"""gunicorn's entry for the simulation: the site itself, with its clock following the run's.

Passwords are hashed with the fastest hasher, as in the tests: a year of families logging in would
otherwise spend most of its time in PBKDF2, which is not what the run is about.
"""

from yearsim import clock

clock.install()

from django.conf import settings  # noqa: E402 — the clock first, then Django

from ludotheque.wsgi import application  # noqa: E402

settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

__all__ = ["application"]
