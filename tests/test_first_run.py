"""A newcomer's first run: README command 1's steps on SQLite, and load_demo safe to repeat."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from io import StringIO
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent


def _row_counts() -> dict[str, int]:
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


@pytest.mark.django_db
def test_load_demo_twice_changes_nothing_the_second_time():
    call_command("load_demo", "--force", stdout=StringIO())
    first = _row_counts()
    call_command("load_demo", "--force", stdout=StringIO())
    assert _row_counts() == first


@pytest.mark.django_db
def test_load_demo_refuses_when_debug_is_off_unless_forced(settings):
    from django.contrib.auth import get_user_model
    from django.core.management import CommandError

    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("load_demo", stdout=StringIO())
    assert not get_user_model().objects.filter(username="benevole").exists()
    call_command("load_demo", "--force", stdout=StringIO())
    assert get_user_model().objects.filter(username="benevole").exists()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_readme_command_1_serves_the_demo_on_sqlite_on_the_port_asked_for(tmp_path):
    """Copy the project and run scripts/demo.sh with no DATABASE_URL and PORT set, as a newcomer would."""
    project = tmp_path / "ludotheque"
    shutil.copytree(
        ROOT,
        project,
        ignore=shutil.ignore_patterns(".git", ".venv", "var", "staticfiles", "__pycache__", "node_modules"),
    )
    # The installed environment stands in for the one demo.sh would make (it installs nothing new).
    (project / ".venv").symlink_to(sys.prefix)
    port = _free_port()
    env = {
        "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
        "HOME": str(tmp_path),
        "LANG": "C.UTF-8",
        "PORT": str(port),
        "PIP_NO_INDEX": "1",  # everything is installed already: no network needed
    }
    server = subprocess.Popen(
        ["sh", "scripts/demo.sh"],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        said = []
        for line in server.stdout:
            said.append(line)
            if "Ludothèque is ready" in line:
                break
        output = "".join(said)
        assert f"http://127.0.0.1:{port}/" in output, output
        # A newcomer's first run shows no warning to puzzle over (SQLite lacks some constraint options).
        assert "WARNINGS" not in output and "nulls_distinct" not in output, output
        assert (project / "var" / "ludotheque.sqlite3").is_file()

        body = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    assert response.status == 200
                    body = response.read().decode()
                    break
            except OSError:
                time.sleep(0.2)
        assert body is not None, "the server never answered"
        assert "Bienvenue à la ludothèque" in body
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/css/ludotheque.css", timeout=2) as css:
            assert b"@media print" in css.read()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
