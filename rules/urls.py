from django.urls import path

from . import views

app_name = "rules"

urlpatterns = [
    path("regles/", views.page_list, name="page-list"),
]
