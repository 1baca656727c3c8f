"""The family search's filters (one FilterSet for the page and the API), one by one and combined."""

import datetime
import io

import pytest
from django.core.management import call_command
from django.http import QueryDict
from django.utils import timezone

from catalogue.filters import GameFilter
from catalogue.models import Author, Copy, Game, Location, Tag
from loans.services import popularity_count
from tests.search_helpers import family_catalogue, lend, make_copy, make_game


@pytest.fixture
def catalogue(db):
    return family_catalogue()


def search(query: str) -> list[str]:
    """The titles a family gets for this query string, in the order shown."""
    filterset = GameFilter(QueryDict(query), queryset=Game.objects.all())
    assert filterset.is_valid(), filterset.errors
    return list(filterset.qs.values_list("title", flat=True))


def errors(query: str) -> dict:
    filterset = GameFilter(QueryDict(query), queryset=Game.objects.all())
    assert not filterset.is_valid()
    return filterset.errors


def test_without_criteria_every_game_comes_in_title_order(catalogue):
    assert search("") == [
        "7 Wonders",
        "Biblios",
        "La chasse aux monstres",
        "Le Château des Dragons",
        "Les colons de Catane",
        "Quarto",
    ]


def test_the_ages_at_the_table_give_the_player_count_and_the_youngest_age(catalogue):
    # Three players, the youngest 6: Catane (3-4, 10+), Biblios (10+) and Quarto (2 only) do not fit.
    # By pertinence, the default with ages: the game made for 5–7 year olds after the one that fits all.
    assert search("ages=6, 9, 38") == ["Le Château des Dragons", "La chasse aux monstres"]


def test_ages_accept_spaces_and_semicolons_too(catalogue):
    assert search("ages=6 9;38") == search("ages=6,9,38")


def test_a_game_without_age_maximum_has_no_upper_age_limit(catalogue):
    assert "Le Château des Dragons" in search("ages=40,45")
    assert "La chasse aux monstres" not in search("ages=40,45")


def test_players_alone(catalogue):
    assert search("joueurs=2") == [
        "7 Wonders",
        "Biblios",
        "La chasse aux monstres",
        "Le Château des Dragons",
        "Quarto",
    ]
    assert search("joueurs=7") == ["7 Wonders"]


def test_youngest_age_alone(catalogue):
    assert search("age=5") == ["La chasse aux monstres"]
    assert search("age=8") == ["Le Château des Dragons", "Quarto"]


def test_time_available_keeps_games_no_longer_than_it(catalogue):
    assert search("duree_max=15") == ["La chasse aux monstres", "Quarto"]
    assert "Biblios" in search("duree_max=30")


def test_category_by_its_code(catalogue):
    assert search("categorie=A 406") == ["7 Wonders", "Les colons de Catane", "Quarto"]


def test_several_tags_keep_the_games_carrying_all_of_them(catalogue):
    assert search("tag=cooperatif") == ["La chasse aux monstres", "Le Château des Dragons"]
    assert search("tag=cooperatif&tag=memoire") == ["La chasse aux monstres"]


@pytest.mark.postgresql
def test_author_by_part_of_the_name_without_accents(catalogue):
    assert search("auteur=bauza") == ["7 Wonders", "La chasse aux monstres"]
    assert search("auteur=MULLER") == ["Quarto"]
    assert search("auteur=+bauza+") == ["7 Wonders", "La chasse aux monstres"]  # spaces around ignored


def test_publisher_by_part_of_the_name(catalogue):
    assert search("editeur=iello") == ["Biblios", "Le Château des Dragons"]
    assert search("editeur=gigamic") == ["Quarto"]


def test_location_keeps_games_with_a_copy_on_that_site(catalogue):
    mediatheque = Location.objects.get(name="Médiathèque")
    assert search(f"localisation={mediatheque.pk}") == ["La chasse aux monstres", "Le Château des Dragons"]


def test_available_now_leaves_out_games_whose_copies_are_out_or_in_repair(catalogue):
    # 7 Wonders: its only copy is on loan; Biblios: its only copy is in repair.
    assert search("disponible=oui") == [
        "La chasse aux monstres",
        "Le Château des Dragons",
        "Les colons de Catane",
        "Quarto",
    ]
    assert search("disponible=non") == search("")


def test_available_at_a_site_needs_the_available_copy_to_be_on_that_site(catalogue):
    # Le Château's copy at the Médiathèque is on the shelf, its copy at the Maison des Enfants is out.
    lend(Copy.objects.get(barcode="70001"))
    mediatheque = Location.objects.get(name="Médiathèque")
    maison = Location.objects.get(name="Maison des Enfants")
    assert search(f"localisation={mediatheque.pk}&disponible=oui") == ["La chasse aux monstres"]
    assert search(f"localisation={maison.pk}&disponible=oui") == [
        "La chasse aux monstres",
        "Les colons de Catane",
        "Quarto",
    ]


def test_available_now_checks_each_games_own_copies_inside_another_query(catalogue):
    # The condition's SQL is compiled once per process (AvailableCopy) and takes the game's id from
    # the query it sits in, whatever that query calls the games' table: here the inner query of the
    # copies of the games available now.
    available = Game.objects.with_copies(available=True).values("pk")
    games = set(Copy.objects.filter(game__in=available).values_list("game", flat=True))
    titles = Game.objects.filter(pk__in=games).order_by("title").values_list("title", flat=True)
    assert list(titles) == search("disponible=oui")
    assert len(search("disponible=oui")) < Game.objects.count()


def test_two_searches_made_together_each_keep_their_own_criteria(catalogue):
    # A search's filters call its own methods, which read its own criteria: they are copied for each
    # search (GameFilter.__init__), never shared with the search made just after it.
    mediatheque = Location.objects.get(name="Médiathèque")
    maison = Location.objects.get(name="Maison des Enfants")
    first = GameFilter(QueryDict(f"localisation={mediatheque.pk}"), queryset=Game.objects.all())
    second = GameFilter(QueryDict(f"localisation={maison.pk}&disponible=oui"), queryset=Game.objects.all())
    assert first.is_valid() and second.is_valid()
    first_titles = list(first.qs.values_list("title", flat=True))
    second_titles = list(second.qs.values_list("title", flat=True))
    assert first_titles == ["La chasse aux monstres", "Le Château des Dragons"]
    assert second_titles == search(f"localisation={maison.pk}&disponible=oui")


def test_filters_combine(catalogue):
    # Pertinence with ages: the game for 5–7 year olds (a 38-year-old plays too) after the one that fits all.
    assert search("ages=6,9,38&duree_max=35&tag=cooperatif&disponible=oui") == [
        "Le Château des Dragons",
        "La chasse aux monstres",
    ]
    assert search("ages=6,9,38&duree_max=20") == ["La chasse aux monstres"]
    assert search("q=bauza&joueurs=6") == ["7 Wonders"]


@pytest.mark.postgresql
def test_text_ignores_accents_and_case(catalogue):
    assert search("q=chateau") == ["Le Château des Dragons"]
    assert search("q=CHÂTEAU") == ["Le Château des Dragons"]
    assert search("q=encheres") == ["Biblios"]


def test_text_finds_several_words_in_any_order_and_french_plurals(catalogue):
    assert search("q=colons catane") == ["Les colons de Catane"]
    assert search("q=catane colon") == ["Les colons de Catane"]
    assert search("q=monstre") == ["La chasse aux monstres"]


@pytest.mark.postgresql
def test_text_tolerates_one_typo(catalogue):
    assert search("q=catanne") == ["Les colons de Catane"]
    assert search("q=colons catanne") == ["Les colons de Catane"]
    assert search("q=chatteau") == ["Le Château des Dragons"]
    assert search("q=biblioteque") == ["Biblios"]


@pytest.mark.postgresql
def test_text_searches_authors_publishers_tags_and_summary(catalogue):
    assert search("q=teuber") == ["Les colons de Catane"]
    assert search("q=kosmos") == ["Les colons de Catane"]
    assert search("q=jeux a deux") == ["Quarto"]
    assert search("q=bibliotheque") == ["Biblios"]


def test_text_that_matches_nothing_finds_nothing(catalogue):
    assert search("q=xylophone") == []
    assert search("q=zz") == []


def test_relevance_puts_title_matches_before_summary_matches(catalogue):
    make_game("Dragons et merveilles", slug="dragons-et-merveilles", summary="Un jeu de cartes.")
    make_game("Le Jardin", slug="le-jardin", summary="Un petit dragon garde le jardin.")
    found = search("q=dragon")
    assert found.index("Dragons et merveilles") < found.index("Le Jardin")
    assert found.index("Le Château des Dragons") < found.index("Le Jardin")


def test_sort_by_title_or_duration(catalogue):
    assert search("q=bauza&tri=titre") == ["7 Wonders", "La chasse aux monstres"]
    assert search("tri=duree")[:3] == ["La chasse aux monstres", "Quarto", "7 Wonders"]
    assert search("tri=duree")[-1] == "Les colons de Catane"


def test_sort_by_popularity_counts_the_loans_of_the_last_twelve_months(catalogue):
    quarto_copy = Copy.objects.get(barcode="90468")
    for days_ago in (10, 40, 200):
        lend(quarto_copy, days_ago=days_ago, returned=True)
    biblios_copy = Copy.objects.get(barcode="90901")
    for days_ago in (400, 500, 600):  # long ago: these do not count
        lend(biblios_copy, days_ago=days_ago, returned=True)
    # The daily run counts them (run_daily's count_popularity step).
    call_command("run_daily", stdout=io.StringIO())
    # Quarto 3 loans; Le Château and 7 Wonders 1 each (their open loans); the others none.
    assert search("tri=popularite") == [
        "Quarto",
        "7 Wonders",
        "Le Château des Dragons",
        "Biblios",
        "La chasse aux monstres",
        "Les colons de Catane",
    ]


def test_the_count_of_popularity_forgets_loans_older_than_a_year_and_writes_nothing_twice(catalogue):
    quarto_copy = Copy.objects.get(barcode="90468")
    lend(quarto_copy, days_ago=360, returned=True)
    lend(quarto_copy, days_ago=100, returned=True)
    today = timezone.localdate()
    assert popularity_count(today=today).startswith("3 game(s)")  # Quarto, and the two open loans
    assert Game.objects.get(pk=catalogue.quarto.pk).loans_last_year == 2
    assert popularity_count(today=today).startswith("0 game(s)")
    # Ten days later the loan of 360 days ago is more than a year old: Quarto falls back to one loan.
    popularity_count(today=today + datetime.timedelta(days=10))
    assert Game.objects.get(pk=catalogue.quarto.pk).loans_last_year == 1
    assert search("tri=popularite")[0] != "Quarto"


def test_the_search_document_follows_renamed_authors_and_new_tags(catalogue):
    Author.objects.filter(name="Klaus Teuber").update(name="Klaus Teubner")
    assert search("q=teubner") == ["Les colons de Catane"]
    catalogue.quarto.tags.add(Tag.objects.create(name="Logique", slug="logique"))
    assert search("q=logique") == ["Quarto"]
    catalogue.quarto.tags.clear()
    assert search("q=logique") == []
    Game.objects.filter(pk=catalogue.biblios.pk).update(title="Biblios Dice")
    assert search("q=dice") == ["Biblios Dice"]


def test_a_new_copy_makes_a_game_available(catalogue):
    assert "Biblios" not in search("disponible=oui")
    make_copy(catalogue.biblios, "90999")
    assert "Biblios" in search("disponible=oui")


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("ages=6,neuf,38", "ages", "« neuf » n'est pas un âge"),
        ("ages=6,-3", "ages", "« -3 » n'est pas un âge"),
        ("ages=6,130", "ages", "« 130 » ne convient pas : un âge va de 0 à 120 ans."),
        ("joueurs=deux", "joueurs", "Saisissez un nombre entier."),
        ("joueurs=0", "joueurs", "supérieure ou égale à 1"),
        ("age=-1", "age", "supérieure ou égale à 0"),
        ("duree_max=1.5", "duree_max", "Saisissez un nombre entier."),
        ("categorie=Z 999", "categorie", "Sélectionnez un choix valide"),
        ("tag=inconnu", "tag", "inconnu"),
        ("localisation=999", "localisation", "Sélectionnez un choix valide"),
        ("disponible=bof", "disponible", "« bof » n'est pas compris : répondez oui ou non."),
        ("tri=hasard", "tri", "Sélectionnez un choix valide"),
    ],
)
def test_bad_values_are_refused_field_by_field_in_french(catalogue, query, field, message):
    found = errors(query)
    assert list(found) == [field]
    assert message in " ".join(found[field])
