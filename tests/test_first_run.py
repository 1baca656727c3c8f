"""A newcomer's first run: README command 1's steps on SQLite, and load_demo safe to repeat."""

import shutil
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


def test_the_site_starts_on_sqlite_with_demo_data_like_readme_command_1(tmp_path):
    """Copy the project, then migrate, load_demo and runserver with no DATABASE_URL, as the README does."""
    project = tmp_path / "ludotheque"
    shutil.copytree(
        ROOT,
        project,
        ignore=shutil.ignore_patterns(".git", ".venv", "var", "staticfiles", "__pycache__"),
    )
    env = {
        "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
        "HOME": str(tmp_path),
        "LANG": "C.UTF-8",
    }

    def manage(*args):
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    migrate = manage("migrate", "--no-input")
    assert migrate.returncode == 0, migrate.stderr
    load = manage("load_demo")
    assert load.returncode == 0, load.stderr
    assert (project / "var" / "ludotheque.sqlite3").is_file()

    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
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
        server.terminate()
        server.wait(timeout=10)
