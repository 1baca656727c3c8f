#!/bin/sh
# README command 2: install what the tests need (Debian's Chromium, PostgreSQL if none answers) and
# run the whole test suite on PostgreSQL (or the DATABASE_URL given), then say which database it was.
# Extra arguments go to pytest. The tests run on every core (pytest-xdist); TEST_WORKERS=0 runs them in one
# process, and `scripts/test.sh -m "not browser"` is the inner loop.
cd "$(dirname "$0")/.."
. scripts/venv.sh
make_venv requirements-dev.txt

# Chromium prints the pages; pdftoppm (poppler-utils) and zbarimg (zbar-tools) read the printed barcodes back.
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/pdftoppm ] || [ ! -x /usr/bin/zbarimg ]; then
    apt_install chromium poppler-utils zbar-tools
fi

# axe-core, pinned by package-lock.json, is injected into pages by the accessibility tests (tests/axe.py).
if [ ! -f node_modules/axe-core/axe.min.js ]; then
    command -v npm >/dev/null 2>&1 || apt_install npm
    npm ci --no-audit --no-fund --loglevel=error
fi

if [ -z "${DATABASE_URL:-}" ]; then
    if ! .venv/bin/python -c "import socket; socket.create_connection(('127.0.0.1', 5432), 2)" 2>/dev/null; then
        apt_install postgresql
        as_root pg_ctlcluster "$(ls /etc/postgresql)" main start || true
        as_root su postgres -c "psql -c \"ALTER USER postgres PASSWORD 'ludotheque'\""
    fi
    export DATABASE_URL="postgres://postgres:ludotheque@127.0.0.1:5432/ludotheque"
fi

# Python keeps the compiled modules (and pytest its rewritten test files) in __pycache__, ignored by git:
# otherwise each worker, and each server or command a test starts, compiles them all again.
unset PYTHONDONTWRITEBYTECODE
status=0
# worksteal: each worker takes a share of the tests in their order (tests/conftest.py puts the longest
# first) and an idle worker takes half of a busy one's remaining tests.
.venv/bin/python -m pytest -n "${TEST_WORKERS:-auto}" --dist worksteal "$@" || status=$?
# Say which database the suite ran on: on SQLite the tests marked `postgresql` were skipped.
.venv/bin/python - <<'EOF'
from ludotheque.settings import DATABASES

db = DATABASES["default"]
if db["ENGINE"].endswith("postgresql"):
    print(f"Database: PostgreSQL, test_{db['NAME']} on {db['HOST'] or 'localhost'}:{db['PORT'] or 5432}.")
else:
    print("Database: SQLite; the tests marked postgresql were skipped (they need PostgreSQL).")
EOF
exit $status
