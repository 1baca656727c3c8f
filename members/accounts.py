"""Families on the site: their login (by e-mail or card number) and their invitation.

A family's account is made by the desk: it *invites* the family, which creates the site login linked
to its card if it has none and e-mails a link to choose a password — Django's password-reset
machinery (a token that dies once used, or after settings.PASSWORD_RESET_TIMEOUT). The family then
logs in with its e-mail address or its card number; django-axes, first among the backends, counts
the failures by what was typed, whichever it was.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext_lazy as _

from .models import Member


class FamilyLoginBackend(ModelBackend):
    """Log in with a username, or a family's e-mail address or card number."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None or password is None:
            return None
        user = user_for_login(username)
        if user is None:
            # The same work as a wrong password, so that timing does not say which logins exist.
            get_user_model()().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None


def user_for_login(text: str) -> AbstractBaseUser | None:
    """The account a login box's text names: its username, else a family's e-mail or card number."""
    text = text.strip()
    users = get_user_model()._default_manager
    return (
        users.filter(username=text).first()
        or _only(users.filter(Q(email__iexact=text) | Q(member__email__iexact=text)).distinct())
        or _only(users.filter(member__card_barcode__iexact=text))
    )


def axes_username(request, credentials: dict | None) -> str:
    """What django-axes counts failures by: the account's username, whichever way the family typed it,
    so that trying the e-mail address then the card number does not double the attempts."""
    source = credentials if credentials else getattr(request, "data", request.POST)
    text = source.get("username") or ""
    user = user_for_login(text) if isinstance(text, str) and text else None
    return user.get_username() if user is not None else text


def _only(queryset):
    """The one user of `queryset`, or None when none or several match (an ambiguous e-mail logs nobody in)."""
    found = list(queryset[:2])
    return found[0] if len(found) == 1 else None


def password_link(user: AbstractBaseUser) -> str:
    """The address where `user` chooses a password (Django's reset confirmation page)."""
    path = reverse(
        "password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    return settings.SITE_URL.rstrip("/") + path


@transaction.atomic
def member_invite(*, member: Member) -> AbstractBaseUser:
    """Give the family a site login (if it has none) and e-mail it the link to choose its password."""
    member = Member.objects.select_for_update(of=("self",)).get(pk=member.pk)
    if member.erased_at is not None or not member.email:
        raise ValidationError(
            _("%(family)s n'a pas d'adresse e-mail : notez-la d'abord sur sa fiche."),
            code="no_email",
            params={"family": member.name},
        )
    user = member.user
    users = get_user_model()._default_manager
    if user is None:
        username = member.card_barcode
        if users.filter(username=username).exists():
            username = f"famille-{member.pk}"
        user = users.create_user(username, email=member.email)  # no usable password until chosen
        member.user = user
        member.save(update_fields=["user"])
    elif user.is_staff:
        raise ValidationError(
            _(
                "Le compte lié à %(family)s est celui d'un membre de l'équipe : il ne reçoit pas d'invitation."
            ),
            code="staff_account",
            params={"family": member.name},
        )
    elif user.email != member.email:
        # The reset form finds the login by its address: it follows the family's.
        user.email = member.email
        user.save(update_fields=["email"])
    with translation.override(member.language):
        context = {"member": member, "link": password_link(user), "login": member.card_barcode}
        subject = render_to_string("registration/invitation_subject.txt", context).strip()
        body = render_to_string("registration/invitation_email.txt", context)
    message = EmailMultiAlternatives(subject, body, to=[member.email])
    transaction.on_commit(message.send)
    return user
