"""Editing a rules page: staff only, each save a new numbered revision, history, diffs; nothing is lost."""

import re

import pytest
from django.contrib.admin.sites import site as admin_site
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.test import RequestFactory
from django.urls import reverse

from rules.models import LOADER_AUTHOR, Revision, RulePage
from rules.pages.services import revision_create
from tests.conftest import text_of

pytestmark = pytest.mark.django_db

FIRST = "== But du jeu ==\nAvoir la plus belle bibliothèque.\n== Décompte ==\nLes dés.\n"


@pytest.fixture
def page(db) -> RulePage:
    page = RulePage.objects.create(slug="biblios", title="Biblios")
    Revision.objects.create(
        page=page, number=1, author_name=LOADER_AUTHOR, summary="Rédaction initiale", content=FIRST
    )
    return page


def edit_url(page) -> str:
    return reverse("rules:page-edit", args=[page.slug])


# --- the service ----------------------------------------------------------------------------------------


def test_each_save_is_the_next_numbered_revision_with_its_author(page, staff_user):
    staff_user.first_name, staff_user.last_name = "Anne", "Bibliothécaire"
    revision = revision_create(
        page=page, content=FIRST + "Ajout.", summary=" Ajout ", author=staff_user, base_number=1
    )
    assert revision.number == 2
    assert revision.author == staff_user
    assert revision.author_name == "Anne Bibliothécaire"
    assert revision.summary == "Ajout"
    assert page.revisions.count() == 2
    assert RulePage.objects.get(pk=page.pk).current_revision == revision


def test_a_save_based_on_an_old_revision_is_refused(page, staff_user):
    revision_create(page=page, content=FIRST + "Un.", summary="Un", author=staff_user, base_number=1)
    with pytest.raises(ValidationError) as error:
        revision_create(page=page, content=FIRST + "Deux.", summary="Deux", author=staff_user, base_number=1)
    assert error.value.code == "edit_conflict"
    assert page.revisions.count() == 2


def test_saving_the_same_text_is_refused(page, staff_user):
    with pytest.raises(ValidationError) as error:
        revision_create(
            page=page, content=FIRST.replace("\n", "\r\n"), summary="Rien", author=staff_user, base_number=1
        )
    assert error.value.code == "unchanged"


def test_the_database_refuses_two_revisions_with_the_same_number(page):
    with pytest.raises(IntegrityError), transaction.atomic():
        Revision.objects.create(page=page, number=1, author_name="X", content="doublon")


def test_the_database_refuses_a_revision_without_author_name(page):
    with pytest.raises(IntegrityError), transaction.atomic():
        Revision.objects.create(page=page, number=2, author_name="", content="anonyme")


def test_a_page_with_revisions_cannot_be_deleted(page):
    with pytest.raises(ProtectedError):
        page.delete()


def test_the_admin_never_deletes_nor_rewrites_revisions(page, staff_user):
    request = RequestFactory().get("/admin/")
    request.user = staff_user
    revision_admin = admin_site._registry[Revision]
    page_admin = admin_site._registry[RulePage]
    revision = page.revisions.get()
    assert not revision_admin.has_delete_permission(request, revision)
    assert not revision_admin.has_change_permission(request, revision)
    assert not revision_admin.has_add_permission(request)
    assert not page_admin.has_delete_permission(request, page)


# --- the editor -----------------------------------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_the_login_page(client, page):
    response = client.get(edit_url(page))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_logged_in_non_staff_user_is_refused(client, page, outsider):
    client.force_login(outsider)
    assert client.get(edit_url(page)).status_code == 403
    assert client.post(edit_url(page), {"content": "x", "summary": "y", "base_number": 1}).status_code == 403
    assert page.revisions.count() == 1


def test_the_editor_shows_the_current_text_its_number_and_a_syntax_help(client, page, staff_user):
    client.force_login(staff_user)
    response = client.get(edit_url(page))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Avoir la plus belle bibliothèque." in html
    assert '<input type="hidden" name="base_number" value="1"' in html
    assert "Aide à la syntaxe" in text_of(response)
    assert "<b>gras</b>" in html


def test_saving_creates_the_next_revision_and_shows_the_page(client, page, staff_user):
    client.force_login(staff_user)
    content = FIRST + "== Variantes ==\nAucune."
    response = client.post(
        edit_url(page), {"content": content, "summary": "Variantes", "base_number": "1"}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("rules:page-detail", args=["biblios"])
    assert "Version 2 enregistrée." in text_of(response)
    assert '<section class="rules-section kind-variants" id="variantes">' in response.content.decode()
    revision = page.revisions.get(number=2)
    assert (revision.author, revision.summary) == (staff_user, "Variantes")


def test_an_edit_summary_is_required_and_nothing_typed_is_lost(client, page, staff_user):
    client.force_login(staff_user)
    response = client.post(
        edit_url(page), {"content": "Mon nouveau texte", "summary": "", "base_number": "1"}
    )
    assert response.status_code == 400
    assert "Ce champ est obligatoire." in text_of(response)
    assert "Mon nouveau texte" in response.content.decode()
    assert page.revisions.count() == 1


def test_a_conflicting_save_keeps_the_text_and_links_to_the_change(client, page, staff_user):
    revision_create(
        page=page, content=FIRST + "Par quelqu'un d'autre.", summary="Autre", author=staff_user, base_number=1
    )
    client.force_login(staff_user)
    response = client.post(
        edit_url(page), {"content": "Mon texte à moi", "summary": "Moi", "base_number": "1"}
    )
    assert response.status_code == 400
    text = text_of(response)
    assert "Quelqu'un a enregistré la version 2 de cette page pendant que vous la modifiiez." in text
    assert "Mon texte à moi" in response.content.decode()
    assert f"{reverse('rules:diff', args=['biblios'])}?de=1&amp;a=2" in response.content.decode()
    assert page.revisions.count() == 2


def test_preview_renders_without_saving(client, page, staff_user):
    client.force_login(staff_user)
    data = {
        "content": "== Matériel ==\n* 87 '''cartes'''",
        "summary": "Essai",
        "base_number": "1",
        "preview": "",
    }
    response = client.post(edit_url(page), data)
    assert response.status_code == 200
    assert "<li>87 <b>cartes</b>" in response.content.decode()
    assert page.revisions.count() == 1


def test_the_editor_of_an_unknown_page_is_404(client, staff_user):
    client.force_login(staff_user)
    assert client.get(reverse("rules:page-edit", args=["echecs"])).status_code == 404


def test_the_editor_answers_only_get_and_post(client, page, staff_user):
    client.force_login(staff_user)
    assert client.delete(edit_url(page)).status_code == 405


# --- history, old revisions, diffs ----------------------------------------------------------------------


def test_the_history_lists_every_revision_newest_first(client, page, staff_user):
    revision_create(page=page, content=FIRST + "Deux.", summary="Deuxième", author=staff_user, base_number=1)
    response = client.get(reverse("rules:history", args=["biblios"]))
    assert response.status_code == 200
    text = text_of(response)
    assert re.search(r"2 actuelle .*bibliothecaire Deuxième 1 .*Ludothèque Rédaction initiale", text)


def test_an_old_revision_can_be_read_and_says_it_is_not_current(client, page, staff_user):
    revision_create(
        page=page,
        content="== But du jeu ==\nRéécrit.",
        summary="Réécriture",
        author=staff_user,
        base_number=1,
    )
    response = client.get(reverse("rules:revision", args=["biblios", 1]))
    assert response.status_code == 200
    text = text_of(response)
    assert "Avoir la plus belle bibliothèque." in text
    assert "Ce n'est pas la version actuelle (2)." in text
    assert client.get(reverse("rules:revision", args=["biblios", 9])).status_code == 404


def test_the_diff_shows_deleted_and_inserted_lines(client, page, staff_user):
    new = FIRST.replace("Les dés.", "Les dés de catégorie.") + "== Variantes ==\n"
    revision_create(page=page, content=new, summary="Précisions", author=staff_user, base_number=1)
    response = client.get(reverse("rules:diff", args=["biblios"]), {"de": "1", "a": "2"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "<del>Les dés.</del>" in html
    assert "<ins>Les dés de catégorie.</ins>" in html
    assert "<ins>== Variantes ==</ins>" in html
    # By default: the current revision against the one before.
    assert client.get(reverse("rules:diff", args=["biblios"])).content.decode().count("<ins>") == 2


def test_the_diff_of_missing_or_bad_numbers(client, page):
    assert client.get(reverse("rules:diff", args=["biblios"]), {"de": "1", "a": "7"}).status_code == 404
    assert client.get(reverse("rules:diff", args=["biblios"]), {"de": "un", "a": "1"}).status_code == 400
