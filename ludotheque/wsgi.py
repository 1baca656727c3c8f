"""WSGI entry point: `gunicorn ludotheque.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludotheque.settings")

application = get_wsgi_application()
