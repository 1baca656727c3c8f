"""The desk's letters: the families told by post, printed on A4 for a window envelope, then marked printed."""

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from catalogue.access import staff_required

from .forms import LettersChoiceForm, LettersPrintedForm
from .models import Notice

# One print run at most (bounded work per request); the next ones come after marking these printed.
LETTERS_PER_PRINT = 200
FAILED_SHOWN = 50


@staff_required
@require_GET
def letter_list(request: HttpRequest) -> HttpResponse:
    to_print = Notice.objects.to_print().select_related("member").order_by("member__name", "pk")
    context = {
        "to_print": to_print[:LETTERS_PER_PRINT],
        "to_print_count": to_print.count(),
        "printed": Notice.objects.filter(status=Notice.Status.PRINTED)
        .select_related("member", "printed_by")
        .order_by("-printed_at")[:FAILED_SHOWN],
        "failed": Notice.objects.failed().select_related("member").order_by("-created_at")[:FAILED_SHOWN],
        "limit": LETTERS_PER_PRINT,
    }
    return render(request, "notices/letter_list.html", context)


@staff_required
@require_GET
def letters_print(request: HttpRequest) -> HttpResponse:
    """The letters on A4, one page per family: those waiting, or the ones asked for again (`?avis=`)."""
    form = LettersChoiceForm(request.GET)
    if not form.is_valid():
        return render(request, "notices/letters_print.html", {"form": form, "letters": []}, status=400)
    chosen = form.cleaned_data["avis"]
    letters = chosen if chosen else Notice.objects.to_print()
    letters = list(letters.select_related("member").order_by("member__name", "pk")[:LETTERS_PER_PRINT])
    waiting = [letter for letter in letters if letter.status == Notice.Status.TO_PRINT]
    return render(
        request,
        "notices/letters_print.html",
        {"form": form, "letters": letters, "waiting": waiting, "printed_form": LettersPrintedForm()},
    )


@staff_required
@require_POST
def letters_mark_printed(request: HttpRequest) -> HttpResponse:
    form = LettersPrintedForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("letters", []):
            messages.error(request, error)
        return redirect("notices:letter-list")
    now = timezone.now()
    with transaction.atomic():
        count = (
            Notice.objects.to_print()
            .filter(pk__in=[letter.pk for letter in form.cleaned_data["letters"]])
            .update(status=Notice.Status.PRINTED, printed_at=now, printed_by=request.user)
        )
    messages.success(
        request,
        ngettext(
            "%(count)s lettre marquée comme imprimée.", "%(count)s lettres marquées comme imprimées.", count
        )
        % {"count": count},
    )
    return redirect("notices:letter-list")
