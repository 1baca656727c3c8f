"""Logging in: the form, the password reset form, the page a locked-out login gets (django-axes counts
the failures, settings.AXES_*)."""

from django import forms
from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, UsernameField
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render, resolve_url
from django.utils.translation import gettext_lazy as _


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """429 with the reason and how long to wait, for the site's login page and the admin's."""
    context = {
        "limit": settings.AXES_FAILURE_LIMIT,
        "minutes": max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60)),
    }
    return render(request, "registration/locked_out.html", context, status=429)


class LoginForm(AuthenticationForm):
    """Django's login form, saying what a family may type (loans.accounts.FamilyLoginBackend)."""

    username = UsernameField(
        label=_("E-mail, numéro de carte ou identifiant"),
        max_length=254,
        widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "username"}),
    )


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's reset form, also for an invited family that has not chosen its password yet."""

    def get_users(self, email):
        users = get_user_model()._default_manager.filter(email__iexact=email, is_active=True)
        return (
            user
            for user in users
            if user.has_usable_password() or (not user.is_staff and hasattr(user, "member"))
        )


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
