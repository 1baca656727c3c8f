"""Root URLs and the API router."""

from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from django.views.generic import RedirectView, TemplateView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from catalogue import views as catalogue_views
from events import api as events_api
from kits import api as kits_api
from ledger import api as ledger_api
from loans import api as loans_api
from loans import booking_api, transfer_api
from ludotheque.login import LoginView, LogoutView
from members.passwords import PasswordResetView
from repairs import api as repairs_api
from rules import api as rules_api
from rules import board_api as rules_board_api

# No `.json` suffix addresses: the API's custom actions take no `format` argument (a TypeError, a 500),
# and `?format=json` or the Accept header already choose the format.
router = DefaultRouter()
router.include_format_suffixes = False
router.register("games", catalogue_views.GameViewSet, basename="game")
router.register("copies", catalogue_views.CopyViewSet, basename="copy")
router.register("members", loans_api.MemberViewSet, basename="member")
router.register("loans", loans_api.LoanViewSet, basename="loan")
router.register("holds", loans_api.HoldViewSet, basename="hold")
router.register("date-bookings", booking_api.DateBookingViewSet, basename="date-booking")
router.register("transfers", transfer_api.TransferViewSet, basename="transfer")
router.register("shipments", transfer_api.ShipmentViewSet, basename="shipment")
router.register("ledger", ledger_api.EntryViewSet, basename="ledger-entry")
router.register("events", events_api.EventViewSet, basename="event")
router.register("event-bookings", events_api.BookingViewSet, basename="event-booking")
router.register("kits", kits_api.KitViewSet, basename="kit")
router.register("rules", rules_api.RulesViewSet, basename="rules")
router.register("repairs", repairs_api.RepairViewSet, basename="repair")

urlpatterns = [
    # The API first: an address is matched against the patterns in order, and the desk's scanners and
    # the families' phones call the API most (the pages' ~100 patterns before it: ~70 µs per call).
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Its script served apart (`?script`), no inline script or style: the Content-Security-Policy holds.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api/swagger_ui.html"),
        name="api-docs",
    ),
    path("api/rules/catane/board/", rules_board_api.catan_board, name="api-catan-board"),
    path("api/", include(router.urls)),
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("connexion/", LoginView.as_view(), name="login"),
    path("deconnexion/", LogoutView.as_view(), name="logout"),
    # Password reset by e-mail (also the link of a family's invitation, members/accounts.py).
    path("mot-de-passe/", PasswordResetView.as_view(), name="password_reset"),
    path("mot-de-passe/envoye/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "mot-de-passe/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "mot-de-passe/fait/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"
    ),
    # The families' admin pages were under /admin/loans/ before they had their own app: a librarian's
    # bookmark still opens them.
    re_path(
        r"^admin/loans/(?P<model>member|membershiptype)/(?P<rest>.*)$",
        RedirectView.as_view(url="/admin/members/%(model)s/%(rest)s", permanent=True, query_string=True),
    ),
    path("admin/", admin.site.urls),
    path("", include("catalogue.urls")),
    path("", include("rules.urls")),
    path("", include("loans.urls")),
    path("", include("ledger.urls")),
    path("", include("events.urls")),
    path("", include("notices.urls")),
    path("", include("inventory.urls")),
    path("", include("repairs.urls")),
    path("", include("onsite.urls")),
    path("", include("privacy.urls")),
    path("", include("ludobus.urls")),
    path("", include("kits.urls")),
    path("", include("report.urls")),
    # Uploaded documents, served by runserver in DEBUG only (static() is empty otherwise).
    *static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT),
]
