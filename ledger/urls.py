from django.urls import path

from . import reports, views

app_name = "ledger"

urlpatterns = [
    path("comptoir/familles/<int:pk>/caisse/", views.family, name="family"),
    path("comptoir/familles/<int:pk>/paiement/", views.payment_create, name="payment-create"),
    path("comptoir/familles/<int:pk>/frais/", views.charge_create, name="charge-create"),
    path("comptoir/familles/<int:pk>/caution/", views.deposit_receive, name="deposit-receive"),
    path("comptoir/familles/<int:pk>/remboursement/", views.refund_create, name="refund-create"),
    path("comptoir/familles/<int:pk>/adhesion/", views.membership_renew, name="membership-renew"),
    path("comptoir/ecritures/<int:pk>/annuler/", views.entry_reverse, name="entry-reverse"),
    path("comptoir/cautions/", views.deposit_list, name="deposit-list"),
    path("comptoir/cautions/<int:pk>/rendre/", views.deposit_return, name="deposit-return"),
    path("comptoir/cautions/<int:pk>/encaisser/", views.deposit_cash, name="deposit-cash"),
    path("comptoir/recus/<int:pk>/", views.receipt, name="receipt"),
    path("comptoir/caisse/", views.till, name="till"),
    path("comptoir/caisse/clotures/<int:pk>/", views.till_closure, name="till-closure"),
    path(
        "comptoir/caisse/clotures/<int:pk>/annuler/", views.till_closure_reverse, name="till-closure-reverse"
    ),
    path("comptoir/comptabilite/", reports.reports, name="reports"),
]
