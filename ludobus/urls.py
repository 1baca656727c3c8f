from django.urls import path

from . import views

app_name = "ludobus"

urlpatterns = [
    path("comptoir/tournee/", views.tour, name="tour"),
    path("comptoir/tournee/sites/<int:pk>/", views.tour_download, name="tour-download"),
    path("comptoir/tournee/envoi/", views.tour_sync, name="tour-sync"),
    path("comptoir/tournee/conflits/", views.conflict_list, name="conflict-list"),
    path("comptoir/tournee/conflits/<uuid:pk>/", views.conflict_settle, name="conflict-settle"),
    path("comptoir/manifest.webmanifest", views.manifest, name="manifest"),
    path("comptoir/sw.js", views.service_worker, name="service-worker"),
]
