#!/bin/sh
# README command 2: install what the tests need (Debian's Chromium, PostgreSQL if none answers) and
# run the whole test suite on PostgreSQL. Extra arguments go to pytest.
cd "$(dirname "$0")/.."
. scripts/venv.sh
make_venv requirements-dev.txt

# Chromium prints the pages; pdftoppm (poppler-utils) and zbarimg (zbar-tools) read the printed barcodes back.
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/pdftoppm ] || [ ! -x /usr/bin/zbarimg ]; then
    apt_install chromium poppler-utils zbar-tools
fi

if [ -z "${DATABASE_URL:-}" ]; then
    if ! .venv/bin/python -c "import socket; socket.create_connection(('127.0.0.1', 5432), 2)" 2>/dev/null; then
        apt_install postgresql
        as_root pg_ctlcluster "$(ls /etc/postgresql)" main start || true
        as_root su postgres -c "psql -c \"ALTER USER postgres PASSWORD 'ludotheque'\""
    fi
    export DATABASE_URL="postgres://postgres:ludotheque@127.0.0.1:5432/ludotheque"
fi

exec .venv/bin/python -m pytest "$@"
