"""Logging in: the form and the view, how failures are counted and locked out (django-axes,
settings.AXES_*), and the page a locked-out login gets."""

from axes.handlers.database import AxesDatabaseHandler
from django import forms
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, UsernameField
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render, resolve_url
from django.utils.translation import gettext_lazy as _


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """429 with the reason and how long to wait, for the site's login page and the admin's."""
    # No limit is named: an account tried from many addresses, or an address trying many accounts, is
    # locked at a wider limit than one account at one address (LoginFailures).
    context = {"minutes": max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))}
    return render(request, "registration/locked_out.html", context, status=429)


class LoginForm(AuthenticationForm):
    """Django's login form, saying what a family may type (members.accounts.FamilyLoginBackend)."""

    username = UsernameField(
        label=_("E-mail, numéro de carte ou identifiant"),
        max_length=254,
        widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "username"}),
    )


class LoginFailures(AxesDatabaseHandler):
    """django-axes' database handler with a limit per count (settings.AXES_LOCKOUT_PARAMETERS, in order):
    an account at one address locks at LOGIN_FAILURE_LIMIT; the account from every address, and the
    address for every account, at LOGIN_WIDE_FACTOR times that, so that a family's typos lock only
    itself and the desk behind the same address logs in."""

    def get_failures(self, request, credentials: dict | None = None) -> int:
        here, account, address = (
            attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        )
        # Scaled to the one limit axes compares with: the wide counts reach it at factor × limit.
        return max(here, account // settings.LOGIN_WIDE_FACTOR, address // settings.LOGIN_WIDE_FACTOR)

    def reset_user_attempts(self, request, credentials: dict | None = None) -> int:
        # A success clears that account's failures at that address, not the other accounts' there.
        here = self.filter_user_attempts(request, credentials)[0]
        count, _ = here.delete()
        return count


class LoginView(auth_views.LoginView):
    """Django's login view; without a page to go back to (`next`), each lands where it works: staff at
    the desk, a family on its account."""

    authentication_form = LoginForm

    def get_default_redirect_url(self) -> str:
        user = self.request.user
        if user.is_staff:
            return resolve_url("loans:desk")
        if hasattr(user, "member"):
            return resolve_url("loans:account")
        return super().get_default_redirect_url()


class LogoutView(auth_views.LogoutView):
    """Django's logout view; its answer asks the browser to delete what this site keeps in it: the
    ludobus desk's families and actions (IndexedDB), its service worker and its cache."""

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response
