from django.urls import path

from . import views

app_name = "report"

urlpatterns = [
    path("comptoir/rapport-annuel/", views.annual, name="annual"),
    path("comptoir/rapport-annuel/rapport.csv", views.export_all, name="export"),
    path("comptoir/rapport-annuel/<slug:slug>.csv", views.export_table, name="export-table"),
]
