# Sourced by demo.sh and test.sh: find a Python ≥ 3.12 (Django 6.1's floor), make .venv, install $1;
# apt_install for the Debian packages they need.
set -eu

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
    # A fresh Debian has no package lists yet; nothing must stop to ask a question.
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

find_python() {
    for candidate in ${PYTHON:-} python3.14 python3.13 python3.12 python3 \
        "$HOME"/.pyenv/versions/3.1[2-9]*/bin/python3; do
        if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then
            echo "$candidate"
            return 0
        fi
    done
    echo "Ludothèque needs Python 3.12 or newer (Django 6.1); set PYTHON=/path/to/python3.12." >&2
    return 1
}

make_venv() {
    if [ ! -x .venv/bin/python ]; then
        python=$(find_python)
        if ! "$python" -m venv .venv 2>/dev/null; then
            # Debian ships venv apart from the interpreter.
            rm -rf .venv
            apt_install python3-venv "$(basename "$python")-venv" || apt_install python3-venv
            "$python" -m venv .venv
        fi
    fi
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$1"
}
