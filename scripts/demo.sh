#!/bin/sh
# README command 1: install, migrate, load the demo data and serve the site at http://127.0.0.1:8000.
cd "$(dirname "$0")/.."
. scripts/venv.sh
make_venv requirements.txt
.venv/bin/python manage.py migrate --no-input
.venv/bin/python manage.py load_demo
exec .venv/bin/python manage.py runserver 127.0.0.1:8000
