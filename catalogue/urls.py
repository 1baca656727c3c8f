from django.urls import path

from . import views

app_name = "catalogue"

urlpatterns = [
    path("jeux/", views.game_list, name="game-list"),
    path("jeux/<slug:slug>/", views.game_detail, name="game-detail"),
    path("catalogue/etiquettes/", views.label_sheet, name="label-sheet"),
    path("catalogue/etiquettes/boites/", views.box_stickers, name="box-stickers"),
]
