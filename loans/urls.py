from django.urls import path

from . import (
    account_views,
    booking_views,
    checkout_views,
    exchange_views,
    list_views,
    lockouts,
    renewal_views,
    return_views,
    transfer_views,
    views,
)

app_name = "loans"

urlpatterns = [
    path("comptoir/", views.desk, name="desk"),
    path("comptoir/familles/<int:pk>/", views.member_detail, name="member-detail"),
    path("comptoir/familles/<int:pk>/reserver/", views.hold_create, name="hold-create"),
    path("comptoir/familles/<int:pk>/inviter/", views.member_invite, name="member-invite"),
    path("comptoir/familles/<int:pk>/kit/", checkout_views.checkout_pack, name="checkout-pack"),
    path("comptoir/familles/<int:pk>/calendrier/", views.member_calendar_token, name="member-calendar-token"),
    path("comptoir/prets/<int:pk>/prolonger/", renewal_views.loan_renew, name="loan-renew"),
    path("comptoir/prets/<int:pk>/retour/", return_views.loan_return, name="loan-return"),
    path("comptoir/prets/<int:pk>/perdu/", return_views.loan_lost, name="loan-lost"),
    path("comptoir/retour/", return_views.return_scan, name="return-scan"),
    path("comptoir/retards/", list_views.overdue_list, name="overdue-list"),
    path("comptoir/reservations/", list_views.hold_list, name="hold-list"),
    path("comptoir/reservations/<int:pk>/annuler/", views.hold_cancel, name="hold-cancel"),
    path("comptoir/reservations/<int:pk>/expirer/", views.hold_expire, name="hold-expire"),
    path("comptoir/reservations-a-date/", booking_views.desk_bookings, name="desk-bookings"),
    path(
        "comptoir/reservations-a-date/<int:pk>/preter/",
        booking_views.desk_booking_hand_out,
        name="desk-booking-hand-out",
    ),
    path(
        "comptoir/reservations-a-date/<int:pk>/annuler/",
        booking_views.desk_booking_cancel,
        name="desk-booking-cancel",
    ),
    path("comptoir/transferts/", transfer_views.transfer_desk, name="transfer-desk"),
    path("comptoir/transferts/envoyer/", transfer_views.transfer_send, name="transfer-send"),
    path("comptoir/transferts/reception/", transfer_views.transfer_receive, name="transfer-receive"),
    path("comptoir/transferts/envoi-groupe/", transfer_views.shipment_create, name="shipment-create"),
    path("comptoir/transferts/historique/", transfer_views.transfer_history, name="transfer-history"),
    path("comptoir/incomplets/", list_views.incomplete_list, name="incomplete-list"),
    path(
        "comptoir/pieces-manquantes/<int:pk>/rapportee/",
        list_views.missing_piece_recover,
        name="missing-piece-recover",
    ),
    path("comptoir/statistiques/", list_views.stats, name="stats"),
    path("comptoir/connexions-bloquees/", lockouts.lockout_list, name="lockout-list"),
    path("comptoir/connexions-bloquees/debloquer/", lockouts.lockout_unlock, name="lockout-unlock"),
    path(
        "comptoir/familles.csv", exchange_views.families_export, {"format": "csv"}, name="families-export-csv"
    ),
    path(
        "comptoir/familles.json",
        exchange_views.families_export,
        {"format": "json"},
        name="families-export-json",
    ),
    path("comptoir/familles/import/", exchange_views.families_import_upload, name="families-import-upload"),
    path(
        "comptoir/familles/import/<int:pk>/",
        exchange_views.families_import_detail,
        name="families-import-detail",
    ),
    path(
        "comptoir/familles/import/<int:pk>/confirmer/",
        exchange_views.families_import_confirm,
        name="families-import-confirm",
    ),
    path("compte/", account_views.account, name="account"),
    path("compte/calendrier/", account_views.account_calendar_token, name="account-calendar-token"),
    path("compte/reserver/<int:pk>/", account_views.account_hold_create, name="account-hold-create"),
    path(
        "compte/reservations/<int:pk>/annuler/", account_views.account_hold_cancel, name="account-hold-cancel"
    ),
    path(
        "compte/reserver-a-date/<int:pk>/",
        booking_views.account_booking_create,
        name="account-booking-create",
    ),
    path(
        "compte/reservations-a-date/<int:pk>/annuler/",
        booking_views.account_booking_cancel,
        name="account-booking-cancel",
    ),
    path("compte/prets/<int:pk>/prolonger/", account_views.account_loan_renew, name="account-loan-renew"),
    path("compte/langue/", account_views.account_language, name="account-language"),
    path("compte/calendrier/<str:token>.ics", account_views.calendar_feed, name="calendar-feed"),
]
