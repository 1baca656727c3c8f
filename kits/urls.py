from django.urls import path

from . import views

app_name = "kits"

urlpatterns = [
    path("comptoir/malles/", views.kit_list, name="kit-list"),
    path("comptoir/malles/<int:pk>/", views.kit_detail, name="kit-detail"),
    path("comptoir/malles/<int:pk>/preter/", views.kit_lend, name="kit-lend"),
    path("comptoir/malles/<int:pk>/retour/", views.kit_return, name="kit-return"),
    path("comptoir/malles/<int:pk>/etiquette/", views.kit_label, name="kit-label"),
    path("comptoir/malles/<int:pk>/exemplaires/", views.kit_copy_add, name="kit-copy-add"),
    path(
        "comptoir/malles/<int:pk>/exemplaires/<int:item>/retirer/",
        views.kit_copy_remove,
        name="kit-copy-remove",
    ),
]
