"""The counter's checkout pack and the incomplete copies still playable (issue 14).

- Lending an incomplete copy: refused with what it still allows, lent once the clerk confirms; refused
  as before when the engine finds nothing playable (or cannot tell).
- « Imprimer le kit »: per game the setup aid for the household's size, the copy's checklist with its
  missing pieces, the blank score pad; the clerk changes the table; a game without rules gets the
  checklist and its notice; bad input is a 400.
- The librarian links the catalogue's pieces to the engine's in the admin, with a suggestion by name;
  the game page says what an incomplete copy still allows.
"""

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from catalogue.models import Copy
from loans import services
from loans.models import Loan
from rules.models import RulePage
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_game, make_member
from tests.pack_helpers import CHASSE_PIECES, add_household, make_chasse, make_incomplete_copy
from tests.test_catalogue_admin import current_form_data

pytestmark = pytest.mark.django_db

SHORT_GAMES = "jouable : parties courtes, jeu plus facile (parties courtes), chasseurs experts (parties courtes), 1 à 5 joueurs"


@pytest.fixture
def world(staff_user):
    chasse = make_chasse()
    earlier = make_member("M0009", "Famille Précédente")
    # Seed 004: short games need 10 of the 20 monster cards; 6 missing leave 14 (not the 15 of a medium game).
    copy = make_incomplete_copy(
        chasse, "91684", missing=[("cartes monstres", 6)], member=earlier, staff=staff_user
    )
    family = make_member("M0003", "Charlie Machin")
    add_household(family, "Léa", "Tom", "Zoé")  # four with Charlie
    return {"chasse": chasse, "copy": copy, "family": family}


def codes(excinfo) -> set[str]:
    return {error.code for errors in excinfo.value.error_dict.values() for error in errors}


# --- lending an incomplete copy -------------------------------------------------------------------------


def test_an_incomplete_but_playable_copy_is_lent_only_once_the_clerk_confirms(world, staff_user):
    copy, family = world["copy"], world["family"]
    assert copy.status == Copy.Status.INCOMPLETE

    with pytest.raises(ValidationError) as excinfo:
        services.loan_create(copy=copy, member=family, staff=staff_user)
    assert codes(excinfo) == {"incomplete_playable"}
    assert SHORT_GAMES in excinfo.value.messages[0]
    assert not Loan.objects.open().filter(copy=copy).exists()

    loan = services.loan_create(copy=copy, member=family, staff=staff_user, lend_incomplete=True)
    assert loan.is_open and loan.member == family
    copy.refresh_from_db()
    assert copy.status == Copy.Status.INCOMPLETE  # it stays incomplete: its pieces are still missing


def test_a_copy_the_engine_finds_unplayable_is_refused_even_when_confirmed(staff_user):
    chasse = make_chasse()
    earlier = make_member("M0009", "Famille Précédente")
    # 11 monster cards missing leave 9: not even a short game (10 cards).
    copy = make_incomplete_copy(
        chasse, "91684", missing=[("cartes monstres", 11)], member=earlier, staff=staff_user
    )
    with pytest.raises(ValidationError) as excinfo:
        services.loan_create(copy=copy, member=make_member("M0003"), staff=staff_user, lend_incomplete=True)
    assert codes(excinfo) == {"copy_not_lendable"}


def test_a_missing_piece_not_linked_to_the_rules_makes_no_guess(staff_user):
    chasse = make_chasse(linked=False)
    earlier = make_member("M0009", "Famille Précédente")
    copy = make_incomplete_copy(
        chasse, "91684", missing=[("cartes monstres", 1)], member=earlier, staff=staff_user
    )
    with pytest.raises(ValidationError) as excinfo:
        services.loan_create(copy=copy, member=make_member("M0003"), staff=staff_user, lend_incomplete=True)
    assert codes(excinfo) == {"copy_not_lendable"}


def test_the_desk_offers_to_lend_the_incomplete_copy_and_lends_it_when_ticked(client, world, staff_user):
    client.force_login(staff_user)
    url = reverse("loans:member-detail", args=[world["family"].pk])

    response = client.post(url, {"barcode": "91684"})
    assert response.status_code == 400
    page = text_of(response)
    assert "« La chasse aux monstres » (91684) est incomplet mais " + SHORT_GAMES in page
    assert 'name="lend_incomplete"' in response.content.decode()
    assert 'value="91684"' in response.content.decode()  # the clerk only ticks and confirms

    response = client.post(url, {"barcode": "91684", "lend_incomplete": "on"})
    assert response.status_code == 302
    assert Loan.objects.open().get(copy=world["copy"]).member == world["family"]


# --- the checkout pack ---------------------------------------------------------------------------------


def pack(client, member, **params):
    return client.get(reverse("loans:checkout-pack", args=[member.pk]), params)


def test_the_pack_sets_up_for_the_household_lists_the_missing_pieces_and_has_a_pad(client, world, staff_user):
    family = world["family"]
    services.loan_create(copy=world["copy"], member=family, staff=staff_user, lend_incomplete=True)
    client.force_login(staff_user)

    response = pack(client, family)

    assert response.status_code == 200
    page = text_of(response)
    assert "La chasse aux monstres — kit de prêt" in page
    assert "4 joueurs (parties courtes)" in page  # the household of four, a short game: 14 cards left
    assert "Exemplaire incomplet — " + SHORT_GAMES in page
    # The setup aid of a short game: « Employez 10 cartes pour une partie courte ».
    assert "formez une pile de 10 cartes" in page
    assert "20 × cartes monstres (avec un enfant dans son lit au verso) — 6 manquantes" in page
    assert "Feuille de score" not in page or "Rang" in page
    assert page.count("kit de prêt") == 1


def test_the_clerk_changes_the_table_and_it_stays_within_the_game(client, world, staff_user):
    family = world["family"]
    quarto = make_game("Quarto", pieces=[(1, "plateau de 16 cases"), (16, "pièces")])
    RulePage.objects.create(slug="quarto", title="Quarto", game=quarto)
    loan = services.loan_create(copy=make_copy(quarto, "90408"), member=family, staff=staff_user)
    client.force_login(staff_user)

    page = text_of(pack(client, family, pret=loan.pk))
    assert "Quarto — kit de prêt" in page
    assert "2 joueurs" in page  # four at home, Quarto is played by two
    assert "La chasse aux monstres" not in page  # only the chosen loan

    response = pack(client, family, pret=loan.pk, **{f"joueurs-{loan.pk}": "7"})
    assert "2 joueurs" in text_of(response)


def test_the_score_pad_has_a_column_per_player_of_the_table(client, world, staff_user):
    family = world["family"]
    biblios = make_game("Biblios", pieces=[(1, "plateau de valeurs"), (5, "dés à six faces"), (87, "cartes")])
    RulePage.objects.create(slug="biblios", title="Biblios", game=biblios)
    loan = services.loan_create(copy=make_copy(biblios, "90901"), member=family, staff=staff_user)
    client.force_login(staff_user)

    def columns(response) -> int:
        return len(re.findall(r'<th scope="col" class="write-in">', response.content.decode()))

    response = pack(client, family, pret=loan.pk)
    assert "4 joueurs" in text_of(response) and columns(response) == 4
    response = pack(client, family, pret=loan.pk, **{f"joueurs-{loan.pk}": "3"})
    page = text_of(response)
    assert "3 joueurs" in page and columns(response) == 3
    assert "Retirez sans les regarder 3 cartes Or" in page  # seed 000: 3 players remove 3 gold cards


def test_a_game_without_rules_gets_its_checklist_and_its_notice(client, world, staff_user):
    family = world["family"]
    dixit = make_game("Dixit", pieces=[(84, "cartes illustrées"), (6, "lapins de bois")])
    dixit.summary = "Un jeu d'imagination où chacun raconte une carte."
    dixit.save()
    services.loan_create(copy=make_copy(dixit, "92001"), member=family, staff=staff_user)
    client.force_login(staff_user)

    page = text_of(pack(client, family))
    assert "Dixit — kit de prêt" in page
    assert "84 × cartes illustrées" in page and "6 × lapins de bois" in page
    assert "Ce jeu n'a pas encore de règles exécutables" in page
    assert "Un jeu d'imagination où chacun raconte une carte." in page


@pytest.mark.parametrize(
    "params",
    [{"pret": "abc"}, {"pret": "999999"}, {"joueurs-1": "trois"}, {"joueurs-1": "0"}],
)
def test_bad_pack_requests_are_400_with_a_message(client, world, staff_user, params):
    family = world["family"]
    loan = services.loan_create(copy=world["copy"], member=family, staff=staff_user, lend_incomplete=True)
    params = {key.replace("joueurs-1", f"joueurs-{loan.pk}"): value for key, value in params.items()}
    client.force_login(staff_user)
    response = pack(client, family, **params)
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()


def test_the_pack_is_for_staff_only(client, world):
    response = pack(client, world["family"])
    assert (
        response.status_code == 302
        and "/login" in response["Location"]
        or "connexion" in response["Location"]
    )


def test_the_family_page_links_to_the_pack(client, world, staff_user):
    services.loan_create(copy=world["copy"], member=world["family"], staff=staff_user, lend_incomplete=True)
    client.force_login(staff_user)
    response = client.get(reverse("loans:member-detail", args=[world["family"].pk]))
    assert reverse("loans:checkout-pack", args=[world["family"].pk]) in response.content.decode()
    assert "Imprimer le kit" in text_of(response)


# --- the librarian's link, the game page ------------------------------------------------------------------


def test_the_admin_offers_the_game_s_pieces_with_a_suggestion_by_name(client, staff_user):
    chasse = make_chasse(linked=False)
    client.force_login(staff_user)
    response = client.get(reverse("admin:catalogue_game_change", args=[chasse.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Cartes monstre (20) (suggéré)" in html
    assert "Accessoire sans effet sur la partie" in html
    # A game without coded rules has no such column.
    dixit = make_game("Dixit", pieces=[(84, "cartes illustrées")])
    assert (
        "rules_key"
        not in client.get(reverse("admin:catalogue_game_change", args=[dixit.pk])).content.decode()
    )


def test_the_game_page_says_what_an_incomplete_copy_still_allows(client, world):
    page = text_of(client.get(world["chasse"].get_absolute_url()))
    assert "Incomplet " + SHORT_GAMES in page


def test_the_api_lends_an_incomplete_playable_copy_when_asked_to(client, world, staff_user):
    client.force_login(staff_user)
    body = {"barcode": "91684", "member": world["family"].pk}
    response = client.post("/api/loans/", body, content_type="application/json")
    assert response.status_code == 400
    assert SHORT_GAMES in str(response.json())
    response = client.post("/api/loans/", {**body, "lend_incomplete": True}, content_type="application/json")
    assert response.status_code == 201
    assert Loan.objects.open().get(copy=world["copy"]).member == world["family"]


# --- the family search ------------------------------------------------------------------------------------


def test_the_search_finds_an_incomplete_copy_for_a_table_it_allows(client, staff_user):
    chasse = make_chasse()
    chasse.players_min, chasse.players_max, chasse.age_min, chasse.age_max = 1, 5, 4, 99  # seed 004
    chasse.save()
    earlier = make_member("M0009", "Famille Précédente")
    # 6 monster cards missing: short games, 1 to 5 players. The only copy of the game.
    copy = make_incomplete_copy(
        chasse, "91684", missing=[("cartes monstres", 6)], member=earlier, staff=staff_user
    )
    assert copy.playable_players == [1, 2, 3, 4, 5]

    def found(**params) -> bool:
        return chasse.title in text_of(client.get("/jeux/", {"disponible": "oui", **params}))

    assert found(joueurs=4)
    assert found(ages="6,9,38")  # a table of three
    assert not found()  # no table said: only copies on the shelf count
    # Out on loan, it is not available for anyone.
    loan = services.loan_create(
        copy=copy, member=make_member("M0003"), staff=staff_user, lend_incomplete=True
    )
    assert not found(joueurs=4)
    # Back with 5 more cards missing (9 left): not even a short game.
    services.loan_return(
        loan=loan, staff=staff_user, missing=[(chasse.components.get(rules_key="monster_cards"), 5)]
    )
    copy.refresh_from_db()
    assert copy.playable_players == []
    assert not found(joueurs=4)


def test_linking_the_pieces_in_the_admin_weighs_the_incomplete_copies_again(client, staff_user):
    chasse = make_chasse(linked=False)
    earlier = make_member("M0009", "Famille Précédente")
    copy = make_incomplete_copy(
        chasse, "91684", missing=[("cartes monstres", 1)], member=earlier, staff=staff_user
    )
    assert copy.playable_players == []  # not linked: the engine does not guess

    client.force_login(staff_user)
    url = reverse("admin:catalogue_game_change", args=[chasse.pk])
    data = current_form_data(client.get(url)) | {"_save": "Enregistrer"}
    # The librarian picks each line's piece (the suggestion, for all but the rule book).
    for key in [key for key in data if key.endswith("-label")]:
        row = key.removesuffix("-label")
        data[f"{row}-rules_key"] = dict((label, key) for _n, label, key in CHASSE_PIECES)[data[key]]
    response = client.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    assert chasse.components.get(label__startswith="cartes monstres").rules_key == "monster_cards"
    copy.refresh_from_db()
    assert copy.playable_players == [1, 2, 3, 4, 5]
