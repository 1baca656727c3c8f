#!/bin/sh
# README command 1: install, migrate, load the demo data and serve the site at http://127.0.0.1:8000
# (PORT=8080 ./scripts/demo.sh to serve it on another port).
cd "$(dirname "$0")/.."
. scripts/venv.sh
port="${PORT:-8000}"
make_venv requirements.txt
.venv/bin/python manage.py migrate --no-input
.venv/bin/python manage.py load_demo
echo "Ludothèque is ready: http://127.0.0.1:$port/ (the desk: benevole / ludotheque; a family: famille / ludotheque)"
exec .venv/bin/python manage.py runserver "127.0.0.1:$port"
