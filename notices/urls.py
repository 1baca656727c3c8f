from django.urls import path

from . import views

app_name = "notices"

urlpatterns = [
    path("comptoir/lettres/", views.letter_list, name="letter-list"),
    path("comptoir/lettres/imprimer/", views.letters_print, name="letters-print"),
    path("comptoir/lettres/imprimees/", views.letters_mark_printed, name="letters-mark-printed"),
]
