from django.urls import path

from . import views

app_name = "onsite"

urlpatterns = [
    path("comptoir/sur-place/", views.session_list, name="session-list"),
    path("comptoir/sur-place/<int:pk>/", views.session_detail, name="session-detail"),
    path("comptoir/sur-place/<int:pk>/familles/", views.visit_create, name="visit-create"),
    path("comptoir/sur-place/<int:pk>/tables/", views.table_create, name="table-create"),
    path("comptoir/sur-place/<int:pk>/fermer/", views.session_close, name="session-close"),
    path("comptoir/sur-place/tables/<int:pk>/retour/", views.table_return, name="table-return"),
    path("comptoir/sur-place/parties/", views.play_create, name="play-create"),
    path("comptoir/sur-place/statistiques/", views.stats_page, name="stats"),
    path("comptoir/sur-place/statistiques/<slug:table>.csv", views.stats_export, name="stats-export"),
]
