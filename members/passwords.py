"""A forgotten password: Django's reset page for whatever a family logs in with, throttled, its e-mail
sent by a task.

The login is looked up by the login's own lookup (accounts.user_for_login) in the task, never in the
request: the request checks the throttles and queues the task, the same work whether an account
answers or not, so that neither its answer nor its time says which logins exist, and a slow mail
server holds the worker, not a web process.
"""

from hashlib import sha256
from math import ceil
from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.tasks import task
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from rest_framework import throttling

from ludotheque.api import client_ip

from .accounts import user_for_login


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's reset form, taking any login (an e-mail, the family's or its account's, a card number,
    a username); also for an invited family that has not chosen its password yet."""

    email = forms.CharField(
        label=_("E-mail ou numéro de carte"),
        max_length=254,
        widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "username"}),
    )

    def get_users(self, email: str) -> list[AbstractBaseUser]:
        user = user_for_login(email)
        if user is None or not user.is_active:
            return []
        if user.has_usable_password() or (not user.is_staff and hasattr(user, "member")):
            return [user]
        return []

    def save(self, **kwargs) -> None:
        """Queue the e-mail (Django's view passes the request's details: the task takes SITE_URL's)."""
        password_reset_send.enqueue(login=self.cleaned_data["email"], language=translation.get_language())

    def send(self) -> None:
        """Send the link now: Django's own save(), with the site's public address."""
        site = urlsplit(settings.SITE_URL)
        super().save(domain_override=site.netloc, use_https=site.scheme == "https")

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email, **kwargs):
        to_email = recipient(context["user"], self.cleaned_data["email"])
        if to_email:
            super().send_mail(
                subject_template_name, email_template_name, context, from_email, to_email, **kwargs
            )


def recipient(user: AbstractBaseUser, login: str) -> str:
    """Where the link goes: the address typed if it is one of the account's, else the family's (the
    desk keeps it, the notices go there), else the account's own."""
    member = getattr(user, "member", None)
    known = [address for address in (getattr(member, "email", ""), user.email) if address]
    typed = login.strip().casefold()
    return next((address for address in known if address.casefold() == typed), known[0] if known else "")


@task()
def password_reset_send(*, login: str, language: str) -> None:
    """E-mail a link to choose a new password to the account `login` names, if there is one."""
    form = PasswordResetForm({"email": login})
    if form.is_valid():
        with translation.override(language):
            form.send()


class ResetThrottle(throttling.SimpleRateThrottle):
    """Reset requests counted in the cache per `scope` of settings.PASSWORD_RESET_RATES, for `ident`."""

    def __init__(self, scope: str, ident: str):
        self.scope = scope
        self.ident = ident
        super().__init__()

    def get_rate(self) -> str:
        return settings.PASSWORD_RESET_RATES[self.scope]

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": f"password_reset_{self.scope}", "ident": self.ident}


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset page, refusing (429) more requests than the rates from one address or for one login."""

    form_class = PasswordResetForm

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)

    def form_valid(self, form):
        login = form.cleaned_data["email"].strip().casefold()
        throttles = [
            ResetThrottle("address", client_ip(self.request)),
            # Hashed: the cache's keys are short and plain, a login is neither.
            ResetThrottle("login", sha256(login.encode()).hexdigest()),
        ]
        refused = [throttle for throttle in throttles if not throttle.allow_request(self.request, self)]
        if not refused:
            return super().form_valid(form)
        minutes = ceil(max(throttle.wait() or 60 for throttle in refused) / 60)
        message = ngettext(
            "Trop de demandes de lien depuis cette adresse ou pour cet identifiant : réessayez dans %(minutes)s minute.",
            "Trop de demandes de lien depuis cette adresse ou pour cet identifiant : réessayez dans %(minutes)s minutes.",
            minutes,
        )
        form.add_error(None, ValidationError(message, code="throttled", params={"minutes": minutes}))
        return self.render_to_response(self.get_context_data(form=form), status=429)
