from django.urls import path

from . import views

app_name = "repairs"

urlpatterns = [
    path("comptoir/reparations/", views.queue, name="queue"),
    path("comptoir/reparations/<int:pk>/", views.repair_detail, name="repair-detail"),
    path("comptoir/reparations/<int:pk>/notes/", views.repair_notes, name="repair-notes"),
    path("comptoir/reparations/<int:pk>/remettre-en-rayon/", views.repair_close, name="repair-close"),
    path("comptoir/exemplaires/<int:pk>/reparations/", views.copy_repairs, name="copy-repairs"),
]
