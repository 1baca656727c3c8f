from django.urls import path

from . import views

app_name = "loans"

urlpatterns = [
    path("comptoir/", views.desk, name="desk"),
]
