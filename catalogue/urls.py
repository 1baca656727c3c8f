from django.urls import path

from . import exchange_views, views

app_name = "catalogue"

urlpatterns = [
    path("jeux/", views.game_list, name="game-list"),
    path("jeux/<slug:slug>/", views.game_detail, name="game-detail"),
    path("catalogue/etiquettes/", views.label_sheet, name="label-sheet"),
    path("catalogue/etiquettes/boites/", views.box_stickers, name="box-stickers"),
    path("catalogue/import/", exchange_views.import_upload, name="import-upload"),
    path("catalogue/import/<int:pk>/", exchange_views.import_detail, name="import-detail"),
    path("catalogue/import/<int:pk>/confirmer/", exchange_views.import_confirm, name="import-confirm"),
    path("catalogue/export.csv", exchange_views.export, {"format": "csv"}, name="export-csv"),
    path("catalogue/export.json", exchange_views.export, {"format": "json"}, name="export-json"),
]
