"""The one-time token a desk form carries, and what acting on it once means (once/models.py)."""

import uuid
from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _

from .models import Submission

FIELD = "once"


class OnceForm(forms.Form):
    """A form whose post is acted on once (its page renders a new token each time)."""

    # Not required: a post without a token (a script) is acted on as before, unprotected.
    once = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4, required=False)


def submit_once(
    request: HttpRequest, form: forms.Form, act: Callable[[], HttpResponse | None]
) -> HttpResponse | None:
    """Act on a valid form once per token: `act()` writes and answers with a redirect, or None when
    the write was refused (the form then shows why, and the token stays unused for the corrected post).

    A token already used answers with the first post's redirect and says nothing was recorded again;
    two posts of one form at once wait for each other on the token's row.
    """
    token = form.cleaned_data.get(FIELD)
    if token is None:
        return act()
    with transaction.atomic():
        try:
            with transaction.atomic():
                submission = Submission.objects.create(token=token, posted_by=request.user)
        except IntegrityError:
            earlier = Submission.objects.get(token=token)
            messages.info(
                request, _("Ce formulaire était déjà envoyé : rien n'a été enregistré une deuxième fois.")
            )
            return redirect(earlier.answer or "/")
        answer = act()
        if answer is None:
            transaction.set_rollback(True)
        else:
            submission.answer = answer["Location"][:300]
            submission.save(update_fields=["answer"])
        return answer
