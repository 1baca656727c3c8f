"""How a declared sheet is won (`score.play`): read strictly, refused in French with the reason, in the
engine (rules/engine/declared_play.py), the admin and the files."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from catalogue.models import Game
from rules.declared.play import check_play, check_play_lines
from rules.declared.sheets import LineDeclaration, declared_sheet_create
from rules.engine import InvalidInput, PlayerRange
from rules.engine.declared_play import parse_play
from rules.models import DeclaredSheet

BANG_ROLES = [
    {"key": "sheriff", "label": "Shérif", "count": 1},
    {"key": "outlaw", "label": "Hors-la-loi", "count": {"4-5": 2, "6-7": 3}},
    {"key": "renegade", "label": "Renégat", "count": 1},
    {"key": "deputy", "label": "Adjoint", "count": {"4": 0, "5-6": 1, "7": 2}},
]
BANG_SIDES = [
    {"key": "renegade", "label": "Le Renégat", "roles": ["renegade"], "wins_when": {"alone": True}},
    {"key": "outlaws", "label": "Les Hors-la-loi", "roles": ["outlaw"], "wins_when": {"out": ["sheriff"]}},
    {
        "key": "law",
        "label": "La loi",
        "roles": ["sheriff", "deputy"],
        "wins_when": {"out": ["outlaw", "renegade"]},
    },
]


BANG_PLAYERS = PlayerRange(4, 7)


def refusals(raw, players=BANG_PLAYERS) -> dict[str, list[str]]:
    with pytest.raises(InvalidInput) as raised:
        parse_play(raw, players)
    return {
        path: [message.render() for message in messages] for path, messages in raised.value.errors.items()
    }


def test_each_for_themselves_is_the_default():
    assert parse_play({}, PlayerRange(2, 4)).mode == "players"
    assert parse_play(None, PlayerRange(2, 4)).mode == "players"


def test_an_unknown_mode_or_a_key_of_another_mode_is_refused():
    assert refusals({"mode": "solo"}) == {"play.mode": ["Choisissez : players, together, teams ou sides."]}
    assert refusals({"mode": "teams", "teams": {"min": 2, "max": 2}, "win_at": 3}) == {
        "play.win_at": ["Cette clé ne sert pas à ce mode de jeu."]
    }


def test_teams_must_be_at_least_two_and_no_more_than_the_players():
    assert refusals({"mode": "teams", "teams": {"min": 1, "max": 2}}) == {
        "play.teams.min": ["Au moins 2 équipes, au plus 10."]
    }
    assert refusals({"mode": "teams", "teams": {"min": 2, "max": 5}}, PlayerRange(2, 4)) == {
        "play.teams.max": ["Une équipe compte au moins un joueur : au plus 4 équipes pour ce jeu."]
    }


def test_a_deal_of_roles_must_give_one_role_per_player_at_every_player_count():
    roles = [dict(role) for role in BANG_ROLES]
    roles[3]["count"] = {"4-5": 0, "6": 1, "7": 2}  # no deputy at 5: four roles for five players
    assert refusals({"mode": "sides", "roles": roles, "sides": BANG_SIDES}) == {
        "play.roles": ["À 5 joueurs, les rôles donnés font 4 cartes : il en faut une par joueur."]
    }


def test_a_role_count_missing_for_a_player_count_is_refused():
    roles = [dict(role) for role in BANG_ROLES]
    roles[1]["count"] = {"4-5": 2, "6": 3}
    assert refusals({"mode": "sides", "roles": roles, "sides": BANG_SIDES}) == {
        "play.roles.1.count": ["Indiquez le nombre pour 7 joueurs."]
    }


def test_a_side_naming_an_unknown_role_or_a_role_in_no_side_is_refused():
    sides = [dict(side) for side in BANG_SIDES]
    sides[2] = {**sides[2], "roles": ["sheriff", "marshal"]}
    found = refusals({"mode": "sides", "roles": BANG_ROLES, "sides": sides})
    assert found["play.sides.2.roles"] == [
        "Rôle inconnu : marshal. Rôles déclarés : deputy, outlaw, renegade, sheriff."
    ]
    assert found["play.sides"] == ["Le rôle « deputy » n'est dans aucun camp."]


def test_a_side_that_would_win_before_anyone_is_out_is_refused():
    sides = [dict(side) for side in BANG_SIDES]
    sides[1] = {**sides[1], "wins_when": {"out": ["deputy"]}}  # no deputy at 4
    assert refusals({"mode": "sides", "roles": BANG_ROLES, "sides": sides}) == {
        "play.sides.1.wins_when.out": ["À 4 joueurs, personne n'a ces rôles : ce camp gagnerait d'office."]
    }


def test_a_side_wins_either_when_roles_are_out_or_alone():
    sides = [dict(side) for side in BANG_SIDES]
    sides[0] = {**sides[0], "wins_when": {}}
    assert refusals({"mode": "sides", "roles": BANG_ROLES, "sides": sides}) == {
        "play.sides.0.wins_when": [
            "Un camp gagne soit quand des rôles sont éliminés (« out »), soit seul en jeu (« alone »)."
        ]
    }


def test_the_lines_must_fit_the_way_of_winning(db):
    together = parse_play({"mode": "together", "win_at": 5}, PlayerRange(2, 4))
    with pytest.raises(ValidationError) as raised:
        check_play_lines(together, [{"points": 1, "sign": "+", "max_units": 4, "knocks_out": False}])
    assert raised.value.messages == [
        "Les lignes donnent 4 points au plus : la table ne peut pas atteindre 5."
    ]
    sides = parse_play({"mode": "sides", "roles": BANG_ROLES, "sides": BANG_SIDES}, PlayerRange(4, 7))
    with pytest.raises(ValidationError) as raised:
        check_play_lines(sides, [{"points": 1, "sign": "+", "max_units": None, "knocks_out": False}])
    assert "n'a pas de lignes" in raised.value.messages[0]


def test_a_sheet_refused_for_its_way_of_winning_writes_nothing(db):
    game = Game.objects.create(title="Loups", slug="loups", players_min=4, players_max=7)
    with pytest.raises(ValidationError) as raised:
        declared_sheet_create(
            game=game,
            lines=[LineDeclaration(key="x", label="X")],
            play={"mode": "teams", "teams": {"min": 2, "max": 9}},
        )
    assert raised.value.messages == [
        "play.teams.max : Une équipe compte au moins un joueur : au plus 7 équipes pour ce jeu."
    ]
    assert not DeclaredSheet.objects.exists()
    with pytest.raises(ValidationError):
        check_play({"mode": "sides"}, game)


def test_the_admin_refuses_a_way_of_winning_with_its_reason(client, staff_user):
    client.force_login(staff_user)
    game = Game.objects.create(title="Loups", slug="loups", players_min=4, players_max=7)
    data = {
        "game": game.pk,
        "winning": "highest",
        "play": '{"mode": "together", "win_at": 9}',
        "lines-TOTAL_FORMS": "1",
        "lines-INITIAL_FORMS": "0",
        "lines-MIN_NUM_FORMS": "0",
        "lines-MAX_NUM_FORMS": "1000",
        "lines-0-position": "1",
        "lines-0-label": "Villageois vivants",
        "lines-0-key": "alive",
        "lines-0-points": "1",
        "lines-0-sign": "+",
        "lines-0-max_units": "7",
        "tie_breakers-TOTAL_FORMS": "0",
        "tie_breakers-INITIAL_FORMS": "0",
        "tie_breakers-MIN_NUM_FORMS": "0",
        "tie_breakers-MAX_NUM_FORMS": "1000",
        "_save": "Enregistrer",
    }
    response = client.post(reverse("admin:rules_declaredsheet_add"), data)
    assert response.status_code == 400
    assert "Les lignes donnent 7 points au plus : la table ne peut pas atteindre 9." in response.text
    data["lines-0-max_units"] = "9"
    response = client.post(reverse("admin:rules_declaredsheet_add"), data)
    assert response.status_code == 302
    assert DeclaredSheet.objects.get().play == {"mode": "together", "win_at": 9}
