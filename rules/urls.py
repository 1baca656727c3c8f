from django.urls import path

from . import boards, coverage, views
from .declared import views as declared_views
from .pages import views as page_views
from .pages import workshop

app_name = "rules"

urlpatterns = [
    path("regles/", views.page_list, name="page-list"),
    path("regles/couverture/", coverage.coverage_view, name="coverage"),
    path("regles/catane/plateau/", boards.catan_board, name="catan-board"),
    path("regles/catane/plateau/imprimer/", boards.catan_board_print, name="catan-board-print"),
    path(
        "regles/railroad-ink/arbitrage/imprimer/",
        boards.railroad_ink_board_print,
        name="railroad-ink-board-print",
    ),
    path("regles/<slug:slug>/", views.page_detail, name="page-detail"),
    path("regles/<slug:slug>/mise-en-place/", views.setup, name="setup"),
    path("regles/<slug:slug>/mise-en-place/imprimer/", views.setup_print, name="setup-print"),
    path("regles/<slug:slug>/mise-en-place/declarer/", declared_views.setup_declare, name="setup-declare"),
    path("regles/<slug:slug>/feuille-de-score/", views.score_sheet, name="score-sheet"),
    path("regles/<slug:slug>/feuille-de-score/vierge/", views.score_pad, name="score-pad"),
    path("regles/<slug:slug>/feuille-de-score/imprimer/", views.score_print, name="score-print"),
    path("regles/<slug:slug>/arbitrage/", views.check, name="check"),
    path("regles/<slug:slug>/modifier/", page_views.page_edit, name="page-edit"),
    path("regles/<slug:slug>/completer/", workshop.workshop, name="workshop"),
    path("regles/<slug:slug>/publier/", workshop.publish, name="publish"),
    path("regles/<slug:slug>/historique/", page_views.history, name="history"),
    path("regles/<slug:slug>/historique/<int:number>/", page_views.revision_detail, name="revision"),
    path("regles/<slug:slug>/comparer/", page_views.revision_diff, name="diff"),
]
