from django.urls import path

from . import views

app_name = "inventory"

urlpatterns = [
    path("inventaire/", views.stocktake_list, name="stocktake-list"),
    path("inventaire/<int:pk>/", views.stocktake_detail, name="stocktake-detail"),
    path("inventaire/<int:pk>/clore/", views.stocktake_close, name="stocktake-close"),
    path("inventaire/<int:pk>/perdus/", views.stocktake_mark_lost, name="stocktake-mark-lost"),
    path("inventaire/<int:pk>/ranger/", views.stocktake_move, name="stocktake-move"),
]
