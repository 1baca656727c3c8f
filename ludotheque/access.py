"""Who may do what: every active staff member is a librarian, in the admin and at the desk.

A ludothèque's volunteers all catalogue, lend and edit rules pages; the site keeps that one rule here,
beside the settings, rather than per-model permissions: every app imports it from here.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse


def is_librarian(user) -> bool:
    """Whether this user works for the ludothèque."""
    return user.is_active and user.is_staff


def staff_required(view):
    """Let librarians in; send anonymous visitors to the login page and refuse everyone else (403)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_librarian(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper


class LibrarianAccessMixin:
    """An admin every librarian may use without per-model permissions.

    Admins that keep history read-only override the has_*_permission methods they restrict (their
    own methods win over this mixin's).
    """

    def has_module_permission(self, request):
        return is_librarian(request.user)

    def has_view_permission(self, request, obj=None):
        return is_librarian(request.user)

    def has_add_permission(self, request, *args):
        return is_librarian(request.user)

    def has_change_permission(self, request, obj=None):
        return is_librarian(request.user)

    def has_delete_permission(self, request, obj=None):
        return is_librarian(request.user)


class ReadOnlyHistoryMixin(LibrarianAccessMixin):
    """History (loans, holds, missing pieces, rule revisions): viewable, never added, edited or deleted
    in the admin; the desk and the page editor write it."""

    def has_add_permission(self, request, *args) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
