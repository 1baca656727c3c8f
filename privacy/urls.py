from django.urls import path

from . import views

app_name = "privacy"

urlpatterns = [
    path("vie-privee/", views.policy, name="policy"),
    path("compte/mes-donnees/", views.my_data, name="my-data"),
    path("compte/mes-donnees.json", views.my_data_json, name="my-data-json"),
    path("comptoir/familles/<int:pk>/effacer/", views.member_erase, name="member-erase"),
]
