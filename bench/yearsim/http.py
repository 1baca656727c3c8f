"""The people's side of the wire: a session per clerk or family, every request timed by kind.

A clerk's desk retries what the network lost (a worker killed, the database restarted) as a real desk
would, relying on the site's idempotency: a loan has one open loan per copy, a money form a one-time
token. Every answer is recorded; a 5xx is a breach unless it fell in a window where a fault was
being injected on purpose, where it is counted apart (and still reported).
"""

import re
import threading
import time
import uuid
from collections import defaultdict

import requests

ONCE = re.compile(r'name="once" value="([0-9a-f-]{36})"')
RETRIES = 6


class Breach(Exception):
    """An invariant did not hold: the run stops at the first."""


class Recorder:
    """Every request's kind, status and time; what went wrong, by kind."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.errors: dict[str, int] = defaultdict(int)
        self.fault_window = 0  # > 0 while a fault is being injected
        self.fault_5xx: list[str] = []
        self.server_errors: list[str] = []
        self.slept = 0.0  # seconds the clients waited on the real clock before sending again

    def sleep(self, seconds: float) -> None:
        with self.lock:
            self.slept += seconds
        time.sleep(seconds)

    def record(self, kind: str, status: int, seconds: float, detail: str) -> None:
        with self.lock:
            self.times[kind].append(seconds)
            self.statuses[kind][status] += 1
            if status >= 500:
                (self.fault_5xx if self.fault_window else self.server_errors).append(
                    f"{kind} {status} {detail}"
                )

    def error(self, kind: str) -> None:
        with self.lock:
            self.errors[kind] += 1


class Client:
    """One person's browser or desk: cookies, the CSRF token, a staff token for the API."""

    def __init__(self, base: str, recorder: Recorder, token: str | None = None, language: str = "fr") -> None:
        self.base = base
        self.recorder = recorder
        self.session = requests.Session()
        self.session.headers["Accept-Language"] = language
        if token:
            self.session.headers["Authorization"] = f"Token {token}"
        self.login_as: tuple[str, str] | None = None

    def request(
        self, kind: str, method: str, path: str, *, retry: bool = True, **kwargs
    ) -> requests.Response:
        """Send, time and record one request; a connection lost is sent again, as a desk does."""
        headers = kwargs.pop("headers", {})
        if method != "GET" and (csrf := self.session.cookies.get("csrftoken")):
            headers["X-CSRFToken"] = csrf
        for attempt in range(RETRIES):
            began = time.perf_counter()
            try:
                response = self.session.request(
                    method, self.base + path, headers=headers, timeout=60, allow_redirects=False, **kwargs
                )
            except requests.ConnectionError:
                self.recorder.error(f"{kind}: connection lost, sent again")
                if not retry or attempt == RETRIES - 1:
                    raise
                self.recorder.sleep(0.2 * (attempt + 1))
                continue
            self.recorder.record(kind, response.status_code, time.perf_counter() - began, f"{method} {path}")
            if response.status_code >= 500 and self.recorder.fault_window and retry:
                self.recorder.sleep(0.2 * (attempt + 1))
                continue
            return response
        return response

    def api(self, kind: str, method: str, path: str, data: dict | None = None) -> requests.Response:
        return (
            self.request(kind, method, path, json=data)
            if data is not None
            else self.request(kind, method, path)
        )

    def page(self, kind: str, path: str) -> requests.Response:
        """A page, logging in first if the site asks (a session lasts two weeks of the year)."""
        response = self.request(kind, "GET", path)
        if response.status_code == 302 and "/connexion/" in response.headers.get("Location", ""):
            self.login()
            response = self.request(kind, "GET", path)
        return response

    def login(self) -> None:
        username, password = self.login_as
        self.request("connexion", "GET", "/connexion/")
        answer = self.request(
            "connexion",
            "POST",
            "/connexion/",
            data={
                "username": username,
                "password": password,
                "csrfmiddlewaretoken": self.session.cookies.get("csrftoken"),
            },
        )
        if answer.status_code != 302:
            raise Breach(f"{username} could not log in: {answer.status_code}")

    def form(
        self,
        kind: str,
        path: str,
        data: dict,
        *,
        page: str | None = None,
        shown: requests.Response | None = None,
    ) -> requests.Response:
        """Post a form as its page would: read the page for its one-time token when it has one (the
        page already on the screen, `shown`, when the person has it open)."""
        if shown is None or shown.status_code != 200:
            shown = self.page(f"{kind} (page)", page or path)
        once = ONCE.search(shown.text) if shown.status_code == 200 else None
        fields = {"csrfmiddlewaretoken": self.session.cookies.get("csrftoken"), **data}
        fields.setdefault("once", once.group(1) if once else str(uuid.uuid4()))
        return self.request(kind, "POST", path, data=fields)
