"""The site the year is played on (gunicorn, DEBUG off) and the mail server its notices go to."""

import email
import os
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from email import policy
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent.parent
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# The site's sessions in pg_stat_activity (the database fault cuts them, not the run's own).
APPLICATION_NAME = "ludo-year-site"


def server_environment(clock_file: str, smtp_port: int) -> dict[str, str]:
    url = os.environ["DATABASE_URL"]
    return {
        **os.environ,
        "DATABASE_URL": f"{url}{'&' if '?' in url else '?'}application_name={APPLICATION_NAME}",
        "DEBUG": "false",
        "SECRET_KEY": "year-simulation-only-not-a-secret",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "SECURE_HSTS_SECONDS": "0",
        "API_THROTTLE_USER": "1000000/second",
        "API_THROTTLE_ANON": "1000000/second",
        "LUDO_SIM_CLOCK": clock_file,
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp_port}?timeout=30",
        "TASKS_BACKEND": "immediate",
        # The 4xx are the run's refusals, counted in its report; the errors (5xx) keep their traceback.
        "LOG_LEVEL": "ERROR",
        "PYTHONPATH": str(ROOT / "bench"),
    }


def static_files_collected() -> bool:
    """Whether collectstatic ran since the last change to static/ (DEBUG off serves from its manifest)."""
    manifest = ROOT / "staticfiles" / "staticfiles.json"
    if not manifest.exists():
        return False
    newest = max(path.stat().st_mtime for path in (ROOT / "static").rglob("*") if path.is_file())
    return manifest.stat().st_mtime > newest


class Site:
    """gunicorn serving the site with the simulation's clock."""

    def __init__(self, environment: dict[str, str], workers: int) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        if not static_files_collected():
            subprocess.run(
                [PYTHON, "manage.py", "collectstatic", "--no-input", "-v0"],
                cwd=ROOT,
                env=environment,
                check=True,
            )
        command = [str(Path(PYTHON).parent / "gunicorn"), "yearsim.wsgi", "--bind", f"127.0.0.1:{self.port}"]
        command += ["--workers", str(workers), "--log-level", "warning", "--timeout", "60"]
        self.process = subprocess.Popen(command, cwd=ROOT, env=environment, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            self.stop()
            raise RuntimeError("gunicorn did not start")
        # The port answers before the workers have loaded the site: a page for each, at once, so that
        # their start is the server's (in the report's phases too), not the first morning's.
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(lambda _: requests.get(f"{self.url}/", timeout=120), range(workers)))

    def workers(self) -> list[int]:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        return [int(pid) for pid in children]

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=30)


class MailServer:
    """A real SMTP server (aiosmtpd, a process of its own) keeping what it accepts in a maildir: the
    families' inboxes. The run can take it down and bring it back on the same port."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.process = None
        self.seen: dict[str, tuple[str, str]] = {}
        self.start()

    def start(self) -> None:
        command = [PYTHON, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{self.port}"]
        self.process = subprocess.Popen([*command, "-c", "aiosmtpd.handlers.Mailbox", str(self.folder)])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the SMTP server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)
            self.process = None

    def received(self) -> list[tuple[str, str]]:
        """(recipient, subject) of every message accepted so far."""
        for state in ("new", "cur"):
            folder = self.folder / state
            for path in folder.iterdir() if folder.exists() else []:
                if path.name not in self.seen:
                    with path.open("rb") as file:
                        message = email.message_from_binary_file(file, policy=policy.default)
                    self.seen[path.name] = (str(message["To"]), str(message["Subject"]))
        return list(self.seen.values())
