"""WSGI entry point: `gunicorn ludotheque.wsgi`."""

import gc
import os
from importlib import import_module

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludotheque.settings")
# The web processes give up on a statement after 5 seconds (a family's too broad search at network
# scale, a lock held too long): the worker answers a 503 that says so and takes the next request
# (ludotheque/timeouts.py). Commands (run_daily, migrate, the tasks worker) do not import this module
# and run unbounded. DATABASE_STATEMENT_TIMEOUT=0 turns the bound off.
os.environ.setdefault("DATABASE_STATEMENT_TIMEOUT", "5s")

application = get_wsgi_application()

# Import the URL configuration (and with it the views, serializers and filters) now, then take every
# object made at start-up out of the garbage collector's full passes: they live as long as the
# process, and a full pass walking them all pauses the request it falls on (bench/README.md, « Prepared
# reads, serializers, the garbage collector »; docs/operations.md).
import_module(settings.ROOT_URLCONF)
gc.freeze()
