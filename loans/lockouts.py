"""Logins locked out after too many failures (ludotheque.login.LoginFailures), listed at the desk,
where a librarian lifts a lock: a family that mistyped its password, the library's own address."""

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from operator import attrgetter

from axes.models import AccessAttempt
from axes.utils import reset
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from ludotheque.access import staff_required


@dataclass
class Lockout:
    """An account or an address locked out, with what it was tried from or for."""

    name: str
    failures: int = 0
    until: datetime.datetime | None = None
    family: str = ""
    everywhere: bool = False
    others: set[str] = field(default_factory=set)

    def count(self, failures: int, last: datetime.datetime, other: str) -> None:
        self.failures += failures
        ends = last + settings.AXES_COOLOFF_TIME
        self.until = ends if self.until is None else max(self.until, ends)
        self.others.add(other)


def current_lockouts() -> tuple[list[Lockout], list[Lockout]]:
    """The accounts and the addresses locked out now, by the counts and limits LoginFailures uses."""
    limit = settings.AXES_FAILURE_LIMIT
    wide = limit * settings.LOGIN_WIDE_FACTOR
    rows = AccessAttempt.objects.filter(attempt_time__gte=timezone.now() - settings.AXES_COOLOFF_TIME)
    accounts: dict[str, Lockout] = {}
    addresses: dict[str, Lockout] = {}
    here: dict[tuple[str, str], int] = defaultdict(int)
    for username, address, failures, last in rows.values_list(
        "username", "ip_address", "failures_since_start", "attempt_time"
    ):
        username, address = username or "", address or ""
        accounts.setdefault(username, Lockout(username)).count(failures, last, address)
        addresses.setdefault(address, Lockout(address)).count(failures, last, username)
        here[username, address] += failures
    locked_here = {username for (username, _address), failures in here.items() if failures >= limit}
    locked_accounts = [
        lockout
        for lockout in accounts.values()
        if lockout.name and (lockout.name in locked_here or lockout.failures >= wide)
    ]
    for lockout in locked_accounts:
        lockout.everywhere = lockout.failures >= wide
    _name_families(locked_accounts)
    locked_addresses = [
        lockout for lockout in addresses.values() if lockout.name and lockout.failures >= wide
    ]
    return sorted(locked_accounts, key=attrgetter("name")), sorted(locked_addresses, key=attrgetter("name"))


def _name_families(lockouts: list[Lockout]) -> None:
    users = get_user_model()._default_manager.filter(username__in=[lockout.name for lockout in lockouts])
    families = {
        user.username: user.member.name for user in users.select_related("member") if hasattr(user, "member")
    }
    for lockout in lockouts:
        lockout.family = families.get(lockout.name, "")


class UnlockForm(forms.Form):
    """One account (its username) or one address to unlock."""

    username = forms.CharField(required=False, max_length=255)
    address = forms.GenericIPAddressField(required=False)

    def clean(self):
        data = super().clean()
        if bool(data.get("username")) == bool(data.get("address")):
            raise forms.ValidationError(
                gettext_lazy("Choisissez un compte ou une adresse à débloquer."), code="one_of"
            )
        return data


@staff_required
@require_GET
def lockout_list(request: HttpRequest) -> HttpResponse:
    return _render(request, UnlockForm())


@staff_required
@require_POST
def lockout_unlock(request: HttpRequest) -> HttpResponse:
    form = UnlockForm(request.POST)
    if not form.is_valid():
        return _render(request, form, status=400)
    username, address = form.cleaned_data["username"], form.cleaned_data["address"]
    if username:
        reset(username=username)
        messages.success(request, _("Le compte %(login)s peut à nouveau se connecter.") % {"login": username})
    else:
        reset(ip=address)
        messages.success(
            request, _("L'adresse %(address)s peut à nouveau se connecter.") % {"address": address}
        )
    return redirect("loans:lockout-list")


def _render(request: HttpRequest, form: UnlockForm, status: int = 200) -> HttpResponse:
    accounts, addresses = current_lockouts()
    context = {"accounts": accounts, "addresses": addresses, "form": form}
    return render(request, "loans/lockout_list.html", context, status=status)
