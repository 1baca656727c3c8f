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


def act_once[T](
    user, token: uuid.UUID, act: Callable[[], tuple[T, str] | None], replay: Callable[[str], T]
) -> T | None:
    """Run `act()` once per token. It writes and returns (its answer, where that answer can be found
    again), or None when the write was refused: then everything is rolled back, the token with it, so
    that the corrected request can be sent again. A token already used gets `replay(where)`, the first
    answer again; two requests with one token at once wait for each other on the token's row."""
    with transaction.atomic():
        try:
            with transaction.atomic():
                submission = Submission.objects.create(token=token, posted_by=user)
        except IntegrityError:
            return replay(Submission.objects.get(token=token).answer)
        done = act()
        if done is None:
            transaction.set_rollback(True)
            return None
        answer, where = done
        submission.answer = where[:300]
        submission.save(update_fields=["answer"])
        return answer


def submit_once(
    request: HttpRequest, form: forms.Form, act: Callable[[], HttpResponse | None]
) -> HttpResponse | None:
    """Act on a valid form once per token: `act()` writes and answers with a redirect, or None when
    the write was refused (the form then shows why, and the token stays unused for the corrected post).
    The same form posted again gets the first post's redirect and is told nothing was recorded again.
    """
    token = form.cleaned_data.get(FIELD)
    if token is None:
        return act()

    def first(where: str) -> HttpResponse:
        messages.info(
            request, _("Ce formulaire était déjà envoyé : rien n'a été enregistré une deuxième fois.")
        )
        return redirect(where or "/")

    def answered() -> tuple[HttpResponse, str] | None:
        answer = act()
        return (answer, answer["Location"]) if answer is not None else None

    return act_once(request.user, token, answered, first)
