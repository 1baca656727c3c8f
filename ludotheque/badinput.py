"""NUL bytes and over-long values in an address, a query string or a posted form: a 400 here, for every
page and API, rather than a 500 wherever one reaches PostgreSQL (which refuses NUL in text) or an index.

A page gets the site's 400 page, listing each parameter refused and why; the API gets DRF's error
shape, `{"parameter": ["message"]}` (`{"detail": …}` for the address itself). The limits are far above
anything a form or a link of the site sends: a search, a barcode or a slug is a few dozen characters, the
longest text a form takes is a rules page's revision (rules.models.REVISION_MAX_LENGTH). More
parameters, files or form data than Django's DATA_UPLOAD_* settings allow get the same answer.
"""

import logging

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

logger = logging.getLogger(__name__)

TOO_MUCH = {
    TooManyFieldsSent: gettext_lazy("Cette demande compte trop de paramètres."),
    TooManyFilesSent: gettext_lazy("Cette demande envoie trop de fichiers."),
    RequestDataTooBig: gettext_lazy("Cette demande est trop volumineuse."),
}
# A path: the site's longest is a few dozen characters.
PATH_MAX_LENGTH = 2_000
# One query-string value: above the longest a link of the site builds (the admin's « Imprimer les
# étiquettes » of 500 copies, `?exemplaires=` and 500 ids), and near gunicorn's limit on a request
# line (4,094 bytes), beyond which a request never reaches the site.
QUERY_VALUE_MAX_LENGTH = 4_000
# One value of a posted form: twice the longest text the site keeps (a rules page's revision).
FORM_VALUE_MAX_LENGTH = 200_000


def _problem(value: str, limit: int) -> str | None:
    if "\x00" in value:
        return _("Ce paramètre contient un caractère nul (\\x00) : retirez-le.")
    if len(value) > limit:
        return _("Ce paramètre est trop long : %(length)s caractères, au plus %(limit)s.") % {
            "length": f"{len(value):,}".replace(",", "\u202f"),
            "limit": f"{limit:,}".replace(",", "\u202f"),
        }
    return None


def _parameter_problems(data, limit: int) -> dict[str, list[str]]:
    problems: dict[str, list[str]] = {}
    for key, values in data.lists():
        # A key is refused as its values are; its name is shown without what makes it unreadable.
        name = key.replace("\x00", "\\x00")[:100]
        for value in [key, *values]:
            problem = isinstance(value, str) and _problem(value, limit)
            if problem:
                problems[name] = [problem]
                break
    return problems


def bad_input(request: HttpRequest) -> dict[str, list[str]]:
    """What is wrong with the request's address and form, by parameter (`detail` for the path)."""
    if "\x00" in request.path:
        return {"detail": [_("Cette adresse contient un caractère nul (\\x00).")]}
    if len(request.path) > PATH_MAX_LENGTH:
        return {"detail": [_("Cette adresse est trop longue.")]}
    problems = _parameter_problems(request.GET, QUERY_VALUE_MAX_LENGTH)
    if request.method == "POST":
        problems |= _parameter_problems(request.POST, FORM_VALUE_MAX_LENGTH)
    return problems


class BadInputMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            problems = bad_input(request)
        except (TooManyFieldsSent, TooManyFilesSent, RequestDataTooBig) as error:
            # Answered here in the request's shape, and logged as a warning: Django would log each as
            # an error, mailed to ADMINS, whose mailbox anyone could then fill.
            problems = {"detail": [str(TOO_MUCH[type(error)])]}
        if not problems:
            return self.get_response(request)
        logger.warning(
            "Bad input refused: %s %s", request.method, request.path[:200].replace("\x00", "\\x00")
        )
        if request.path.startswith("/api/"):
            if list(problems) == ["detail"]:
                return JsonResponse({"detail": problems["detail"][0]}, status=400)
            return JsonResponse(problems, status=400)
        return render(request, "400.html", {"problems": sorted(problems.items())}, status=400)
