"""Importing the library's PMB OPAC pages: every seed notice field by field, idempotence, errors."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from catalogue.models import Author, Category, Component, Copy, Document, Game, Location, Publisher, Tag
from catalogue.pieces import pieces_from_contents
from catalogue.pmb import parse_page, split_tags
from catalogue.services import games_import_from_pmb_files

SEEDS = Path(__file__).resolve().parent.parent / "fixtures" / "seeds"
SEED_FILES = sorted(str(path) for path in SEEDS.glob("*.txt"))
BGA_FILE = "003_92865e5214de13d9.txt"


def import_pmb(*paths, dry_run=False) -> str:
    """Run the command as a librarian would and return what it printed."""
    out = StringIO()
    call_command("import_pmb", *paths, *(["--dry-run"] if dry_run else []), stdout=out)
    return out.getvalue()


def import_pmb_expecting_errors(*paths) -> str:
    out = StringIO()
    with pytest.raises(CommandError, match="en erreur"):
        call_command("import_pmb", *paths, stdout=out)
    return out.getvalue()


@pytest.fixture
def seeds_imported(db) -> str:
    return import_pmb(*SEED_FILES)


def authors_of(game: Game) -> list[tuple[str, str]]:
    return [(credit.author.name, credit.role) for credit in game.authorships.select_related("author")]


def publishers_of(game: Game) -> list[tuple[str, str]]:
    return [
        (credit.publisher.place, credit.publisher.name)
        for credit in game.publisher_credits.select_related("publisher")
    ]


def components_of(game: Game) -> list[tuple[int, str]]:
    return list(game.components.values_list("quantity", "label"))


def copies_of(game: Game) -> list[tuple]:
    return [
        (copy.cote, copy.section.code, copy.section.label, copy.location.name, copy.barcode, copy.status)
        for copy in game.copies.select_related("section", "location").order_by("pk")
    ]


# --- What the seed files hold ------------------------------------------------------------------


def test_the_seed_files_give_seven_games_and_eight_copies(seeds_imported):
    barcodes = {
        game.title: sorted(game.copies.values_list("barcode", flat=True)) for game in Game.objects.all()
    }
    assert barcodes == {
        "Biblios": ["90901"],
        "Les colons de Catane": ["90461"],
        "Morgenland": ["90476"],
        "Quarto": ["90408", "90468"],
        "7 Wonders": ["91233"],
        "La chasse aux monstres": ["91025", "91684"],
        "L'or des Dragons": [],
    }
    assert Copy.objects.count() == 8
    assert "Créés : 7, mis à jour : 0, inchangés : 0, erreurs : 0." in seeds_imported


def test_the_bga_wiki_file_is_reported_as_holding_no_pmb_notice(db):
    output = import_pmb(str(SEEDS / BGA_FILE))
    assert f"{BGA_FILE} : aucune notice PMB trouvée." in output
    assert Game.objects.count() == 0


def test_each_notice_is_read_once_although_the_page_shows_it_twice():
    counts = {Path(name).name[:3]: len(parse_page(Path(name).read_text()).notices) for name in SEED_FILES}
    assert counts == {"000": 1, "001": 1, "002": 3, "003": 0, "004": 2}


def test_the_double_view_creates_no_duplicate_credit_piece_or_document(seeds_imported):
    catane = Game.objects.get(title="Les colons de Catane")
    assert authors_of(catane) == [("Klaus Teuber", "auteur")]
    assert catane.components.count() == 12
    assert list(catane.documents.values_list("file_name", flat=True)) == ["les_colons_de_Catane.pdf"]
    assert Author.objects.filter(name="Antoine Bauza").count() == 1


# --- Every field of every seed notice ----------------------------------------------------------


def test_biblios_is_imported_field_by_field(seeds_imported):
    game = Game.objects.get(slug="biblios")
    assert game.title == "Biblios"
    assert game.document_type == "objet à 3 dimensions, artefacts, ..."
    assert authors_of(game) == [("Steve Finn", "auteur")]
    assert publishers_of(game) == [("", "Iella")]
    assert [str(language) for language in game.languages.all()] == ["Français (fre)"]
    assert (game.category.code, game.category.label, game.category.family) == (
        "A 407",
        "jeu de hasard",
        "jeu de règles",
    )
    assert list(game.tags.all()) == []
    assert (game.players_min, game.players_max, game.age_min, game.age_max, game.duration_minutes) == (
        2,
        4,
        10,
        99,
        30,
    )
    assert game.summary == "" and game.rules_summary == "" and game.pedagogical_analysis == ""
    assert game.contents.startswith("Résumé du jeu\nDans Biblios, vous incarnez un abbé")
    assert game.contents.endswith("c'est Rodolphe qui remporte la partie.")
    assert "[objet à 3 dimensions" not in game.contents  # the ISBD line and second view are left out
    assert game.online_url == ""
    assert components_of(game) == [
        (1, "plateau de valeurs"),
        (5, "dés à six faces"),
        (87, "cartes (voir détail à l'intérieur de la boîte)"),
    ]
    assert copies_of(game) == [("STE", "A 407", "jeu de hasard", "Maison des Enfants", "90901", "on_shelf")]
    assert list(game.documents.values_list("file_name", flat=True)) == ["Biblios_2014_03_12_10_34_05.pdf"]


def test_l_or_des_dragons_from_the_pipe_layout_is_imported_field_by_field(seeds_imported):
    game = Game.objects.get(slug="l-or-des-dragons")
    assert game.title == "L'or des Dragons"
    assert game.document_type == "objet à 3 dimensions, artefacts, ..."
    assert authors_of(game) == [("Bruno Faidutti", "auteur")]
    assert publishers_of(game) == [("", "Blue Games")]
    assert [str(language) for language in game.languages.all()] == ["Français (fre)"]
    assert (game.category.code, game.category.label, game.category.family) == (
        "A 406",
        "jeu de stratégie",
        "jeu de règles",
    )
    assert (game.players_min, game.players_max, game.age_min, game.age_max, game.duration_minutes) == (
        3,
        6,
        8,
        99,
        20,
    )
    assert game.pedagogical_analysis == ""  # the label is there, empty
    assert game.contents.startswith("Contenu: 18 cartes dragons et 1 carte foire,")
    assert game.contents.endswith("mettez-vous d'accord avant de commencer la partie.")
    assert "|" not in game.contents
    assert components_of(game) == [
        (18, "cartes dragons"),
        (1, "carte foire"),
        (17, "cartes objets magique"),
        (1, "sac en tissu pour y puiser les jetons trésor"),
        (6, "écrans"),
        (24, "cartes aventures(6*4 cartes)"),
        (126, "jetons trésors en bois"),
        (1, "sablier"),
        (35, "jetons argentés"),
    ]
    assert game.copies.count() == 0
    assert game.documents.count() == 0


def test_les_colons_de_catane_keeps_its_copy_section_as_recorded(seeds_imported):
    game = Game.objects.get(slug="les-colons-de-catane")
    assert authors_of(game) == [("Klaus Teuber", "auteur")]
    assert publishers_of(game) == [("", "Kosmos")]
    assert game.languages.count() == 0
    assert (game.category.code, game.category.label) == ("A 406", "jeu de stratégie")
    assert sorted(game.tags.values_list("name", flat=True)) == ["Economie", "Négociation", "Placement"]
    assert (game.players_min, game.players_max, game.age_min, game.age_max, game.duration_minutes) == (
        3,
        4,
        10,
        99,
        75,
    )
    assert game.summary == (
        "Vous voilà à la tête de colons fraîchement débarqués sur l'île de Catane. Votre but va être "
        "d'installer vos ouailles et de faire prospérer vos colonies en construisant des villes et en "
        "utilisant au mieux les matières premières qui sont à votre disposition."
    )
    assert game.online_url == "http://www.ludigaume.be/tbs/php/tbs_fiche.php?&IdJeu=208"
    assert game.contents.endswith("elles ne rapportent au maximum que 5 points de victoire.")
    assert components_of(game) == [
        (37, 'hexagones "Terrains"'),
        (95, 'cartes "Matières Premières"'),
        (25, 'cartes "Développement"'),
        (4, 'fiches "Coûts de construction"'),
        (2, "cartes spéciales"),
        (16, "villes (Eglise)"),
        (20, "colonies (Maison)"),
        (60, "routes (Bâtonnets)"),
        (18, "jetons numérotés"),
        (1, 'pion "Brigand"'),
        (2, "dés"),
        (1, "La règle du jeu"),
    ]
    assert copies_of(game) == [("TEU", "A 410", "jeu de langue", "Maison des Enfants", "90461", "on_shelf")]
    assert list(game.documents.values_list("file_name", flat=True)) == ["les_colons_de_Catane.pdf"]


def test_morgenland_has_two_publishers_in_order_and_two_tags(seeds_imported):
    game = Game.objects.get(slug="morgenland")
    assert authors_of(game) == [("Richard Breese", "auteur")]
    assert publishers_of(game) == [("", "Hans im Glück"), ("", "Rio Grande Games")]
    assert sorted(game.tags.values_list("name", flat=True)) == ["Bluff", "Placement"]
    assert (game.category.code, game.category.label) == ("A 407", "jeu de hasard")
    assert (game.players_min, game.players_max, game.age_min, game.age_max, game.duration_minutes) == (
        3,
        5,
        10,
        99,
        75,
    )
    assert game.summary == ""
    assert game.online_url == "http://www.trictrac.net/index.php3?id=jeux&rub=detail&inf=detail&jeu=45"
    assert game.contents.startswith("Conttenu:\n1 plateau de jeu")  # the library's typo, kept
    assert components_of(game) == [
        (1, "plateau de jeu"),
        (1, "pion chameau pour le premier joueurs (30 objets magiques)"),
        (45, "cartes trésor"),
        (1, "sac de trésors (couronnes, perles, gemmes, coupes et lingots)"),
        (40, "pions figurines"),
        (10, "pions gardes du palais"),
        (21, "cartes sortilège"),
        (1, "résumé des règles"),
        (1, "La règle du jeu"),
    ]
    assert copies_of(game) == [("BRE", "A 407", "jeu de hasard", "Maison des Enfants", "90476", "on_shelf")]
    assert list(game.documents.values_list("file_name", flat=True)) == ["morgenland.pdf"]


def test_quarto_has_its_isbd_place_a_multi_word_tag_and_two_copies(seeds_imported):
    game = Game.objects.get(slug="quarto")
    assert authors_of(game) == [("Blaise Müller", "auteur")]
    assert publishers_of(game) == [("Wimereux", "Gigamic SARL")]
    assert str(game.publishers.get()) == "Wimereux : Gigamic SARL"
    assert game.category is None
    assert sorted(game.tags.values_list("name", flat=True)) == ["Jeux à deux", "Placement"]
    assert (game.players_min, game.players_max, game.age_min, game.age_max, game.duration_minutes) == (
        2,
        2,
        8,
        99,
        15,
    )
    assert game.summary == "Crée un alignement."
    assert game.rules_summary.startswith("16 pièce différentes ayant 4 caractères: haute ou basse")
    assert game.rules_summary.endswith("crée un alignement de 4 pièces ayant au moins un caractère commun.")
    assert game.contents.startswith("Présentation et préparation:\n1 plateau de 16 cases")
    assert game.online_url == "http://www.trictrac.net/index.php3?id=jeux&rub=detail&inf=detail&jeu=142"
    assert components_of(game) == [
        (1, "plateau de 16 cases"),
        (
            16,
            "pièces différentes ayant chacune 4 caractère claire et foncée, ronde ou carrée, haute ou basse, pleine ou creuse",
        ),
    ]
    assert copies_of(game) == [
        ("BLA", "A 406", "jeu de stratégie", "Maison des Enfants", "90468", "on_shelf"),
        ("BLA", "A 406", "jeu de stratégie", "Maison des Enfants", "90408", "on_shelf"),
    ]
    assert list(game.documents.values_list("file_name", flat=True)) == ["quarto.pdf"]


def test_7_wonders_credits_its_two_authors_in_order(seeds_imported):
    game = Game.objects.get(slug="7-wonders")
    assert authors_of(game) == [("Antoine Bauza", "auteur"), ("Bruno Cathala", "auteur")]
    assert publishers_of(game) == [("", "Repos Protéction")]
    assert [str(language) for language in game.languages.all()] == ["Français (fre)"]
    assert (game.category.code, game.category.family) == ("A 406", "jeu de règles")
    assert (game.players_min, game.players_max, game.age_min, game.age_max, game.duration_minutes) == (
        2,
        7,
        10,
        99,
        30,
    )
    assert components_of(game) == [
        (7, "plateaux Merveille"),
        (7, "cartes Merveille"),
        (49, "cartes âge 1"),
        (49, "cartes âge 2"),
        (50, "cartes âge 3"),
        (46, "jetons Conflit"),
        (24, "pièces de monnaie de valeur 3"),
        (46, "pièces de monnaie de valeur 1"),
        (1, "carnet de scores"),
        (1, "livret de règle"),
        (1, "aide dfe jeu"),
        (2, 'cartes" 2 joueurs"'),
        (1, "règle de jeu"),
    ]
    assert game.contents.endswith("en choisir une et la construire gratuitement.")
    assert copies_of(game) == [
        ("ANT", "A 406", "jeu de stratégie", "Maison des Enfants", "91233", "on_shelf")
    ]
    assert list(game.documents.values_list("file_name", flat=True)) == ["7_wonders_2014_08_22_16_13_18.pdf"]


def test_la_chasse_aux_monstres_is_imported_field_by_field(seeds_imported):
    game = Game.objects.get(slug="la-chasse-aux-monstres")
    assert authors_of(game) == [("Antoine Bauza", "auteur")]
    assert publishers_of(game) == [("", "Le scorpion Masqué")]
    assert [str(language) for language in game.languages.all()] == ["Français (fre)"]
    assert (game.category.code, game.category.label) == ("A 407", "jeu de hasard")
    assert (game.players_min, game.players_max, game.age_min, game.age_max, game.duration_minutes) == (
        1,
        5,
        5,
        7,
        10,
    )
    assert components_of(game) == [
        (20, "cartes monstres (avec un enfant dans son lit au verso)"),
        (1, "carte placard"),
        (10, "tuiles jouet"),
        (3, "tuiles de progression des monstres (avec un côté rouge et un côté bleu)"),
        (2, "tuiles pour chasseurs expert (fond bleu))"),
        (1, "règle de jeu"),
    ]
    assert game.contents.endswith("un monstre sort de sous le lit immédiatement.")
    assert copies_of(game) == [
        ("ANT", "A 407", "jeu de hasard", "Maison des Enfants", "91684", "on_shelf"),
        ("ANT", "A 407", "jeu de hasard", "Maison des Enfants", "91025", "on_shelf"),
    ]
    assert list(game.documents.values_list("file_name", flat=True)) == ["La_chasse_aux_monstres.pdf"]


def test_the_reference_tables_hold_each_name_once(seeds_imported):
    assert list(Location.objects.values_list("name", flat=True)) == ["Maison des Enfants"]
    assert list(Category.objects.values_list("code", "label", "family")) == [
        ("A 406", "jeu de stratégie", "jeu de règles"),
        ("A 407", "jeu de hasard", "jeu de règles"),
        ("A 410", "jeu de langue", ""),
    ]
    assert sorted(Tag.objects.values_list("name", flat=True)) == [
        "Bluff",
        "Economie",
        "Jeux à deux",
        "Négociation",
        "Placement",
    ]
    assert Publisher.objects.count() == 8


# --- Idempotence and dry run -------------------------------------------------------------------


def test_a_second_run_changes_nothing_and_says_so(seeds_imported):
    stamps = dict(Game.objects.values_list("title", "updated_at"))
    counts = [model.objects.count() for model in (Game, Copy, Component, Document, Author, Publisher, Tag)]
    output = import_pmb(*SEED_FILES)
    assert "Rien n'a changé. Créés : 0, mis à jour : 0, inchangés : 7, erreurs : 0." in output
    assert "« Quarto » : inchangé" in output
    assert [
        model.objects.count() for model in (Game, Copy, Component, Document, Author, Publisher, Tag)
    ] == counts
    assert dict(Game.objects.values_list("title", "updated_at")) == stamps


def test_a_notice_changed_in_pmb_updates_the_game_it_matches(seeds_imported, tmp_path):
    changed = tmp_path / "biblios.txt"
    changed.write_text(
        (SEEDS / "000_86c4d384f997375b.txt").read_text().replace("(minutes) : 30", "(minutes) : 45")
    )
    output = import_pmb(str(changed))
    assert "« Biblios » : mis à jour (durée moyenne (minutes))" in output
    assert "Créés : 0, mis à jour : 1, inchangés : 0, erreurs : 0." in output
    assert Game.objects.get(slug="biblios").duration_minutes == 45
    assert Game.objects.count() == 7


def test_a_game_is_found_again_by_its_barcode_after_its_title_changed_in_pmb(seeds_imported, tmp_path):
    changed = tmp_path / "biblios.txt"
    changed.write_text(
        (SEEDS / "000_86c4d384f997375b.txt").read_text().replace("Biblios", "Biblios (2e édition)")
    )
    import_pmb(str(changed))
    assert Game.objects.count() == 7
    assert Copy.objects.get(barcode="90901").game.title == "Biblios (2e édition)"


def test_a_game_without_copy_is_found_again_by_title_and_first_author(seeds_imported, tmp_path):
    changed = tmp_path / "dragons.txt"
    changed.write_text((SEEDS / "001_e41460badcef2835.txt").read_text().replace("20 |", "25 |"))
    output = import_pmb(str(changed))
    assert "« L'or des Dragons » : mis à jour" in output
    assert Game.objects.get(slug="l-or-des-dragons").duration_minutes == 25
    assert Game.objects.filter(title="L'or des Dragons").count() == 1


def test_a_re_import_keeps_the_librarians_checklist_and_copy_status(seeds_imported):
    game = Game.objects.get(slug="biblios")
    game.components.all().delete()
    Component.objects.create(game=game, quantity=45, label="cartes de catégorie")
    Copy.objects.filter(barcode="90901").update(status=Copy.Status.IN_REPAIR)
    output = import_pmb(str(SEEDS / "000_86c4d384f997375b.txt"))
    assert "« Biblios » : inchangé" in output
    assert components_of(game) == [(45, "cartes de catégorie")]
    assert Copy.objects.get(barcode="90901").status == Copy.Status.IN_REPAIR


def test_a_dry_run_writes_nothing_and_says_what_it_would_create(db):
    output = import_pmb(*SEED_FILES, dry_run=True)
    assert "« Biblios » : serait créé" in output
    assert (
        "Simulation, rien n'a été enregistré. Créés : 7, mis à jour : 0, inchangés : 0, erreurs : 0."
        in output
    )
    for model in (Game, Copy, Component, Document, Author, Publisher, Tag, Category, Location):
        assert model.objects.count() == 0, model


def test_a_dry_run_shows_the_changes_without_making_them(seeds_imported, tmp_path):
    changed = tmp_path / "biblios.txt"
    changed.write_text(
        (SEEDS / "000_86c4d384f997375b.txt")
        .read_text()
        .replace(
            "90901 Disponible", "90901 Disponible NEW A 407 jeu de hasard Maison des Enfants 90999 Disponible"
        )
        .replace("Exemplaires (1)", "Exemplaires (2)")
    )
    output = import_pmb(str(changed), dry_run=True)
    assert "« Biblios » : serait mis à jour (exemplaire 90999 ajouté)" in output
    assert not Copy.objects.filter(barcode="90999").exists()


# --- Errors ------------------------------------------------------------------------------------

ISBD_AND_COPIES = """
{title} [objet à 3 dimensions, artefacts, ...] / Anne Exemple, Auteur . - Essai, [s.d.].
Nombre minimum de joueurs : 2
Exemplaires (1)
Cote Section Localisation Code-barres Disponibilité EXE A 406 jeu de stratégie Maison des Enfants {barcode} Disponible Documents numériques
"""


def hand_made_notice(
    title: str, *, barcode: str, players: tuple[str, str] = ("2", "4"), author: str = "Anne Exemple"
) -> str:
    return (
        f"Titre : {title} Type de document : objet à 3 dimensions, artefacts, ... "
        f"Auteurs : {author}, Auteur Editeur : Essai "
        f"Nombre minimum de joueurs : {players[0]} Nombre maximum de joueurs : {players[1]} "
        "Age minimum : 6 Age maximum : 99 Durée moyenne (minutes) : 20 Contenu : 1 plateau, 4 pions."
        + ISBD_AND_COPIES.format(title=title, barcode=barcode)
    )


def test_malformed_notices_are_reported_with_file_and_position_while_the_others_import(db, tmp_path):
    page = tmp_path / "page.txt"
    good = hand_made_notice("Jeu témoin", barcode="99001")
    page.write_text(
        "Catégories\n"
        + good
        + hand_made_notice("Jeu sans nombre", barcode="99002", players=("trois", "4"))
        + hand_made_notice("Jeu impossible", barcode="99003", players=("5", "2"))
        + hand_made_notice("Autre jeu témoin", barcode="99004")
    )
    output = import_pmb_expecting_errors(str(page))
    assert (
        "page.txt:7 (notice 2) : erreur : Nombre minimum de joueurs : « trois » n'est pas un nombre."
        in output
    )
    assert (
        "page.txt:12 (notice 3) : erreur : Le nombre minimum de joueurs ne peut pas dépasser le nombre maximum."
        in output
    )
    assert "Créés : 2, mis à jour : 0, inchangés : 0, erreurs : 2." in output
    assert sorted(Game.objects.values_list("title", flat=True)) == ["Autre jeu témoin", "Jeu témoin"]
    assert sorted(Copy.objects.values_list("barcode", flat=True)) == ["99001", "99004"]


def test_a_notice_without_title_or_with_an_unreadable_copy_is_an_error(db, tmp_path):
    page = tmp_path / "page.txt"
    page.write_text(
        "Titre : Type de document : objet à 3 dimensions, artefacts, ... Nombre minimum de joueurs : 2\n"
        + hand_made_notice("Jeu témoin", barcode="99001").replace(
            "Disponible Documents", "Introuvable Documents"
        )
    )
    output = import_pmb_expecting_errors(str(page))
    assert "page.txt:1 (notice 1) : erreur : la notice n'a pas de titre." in output
    assert "page.txt:2 (notice 2) : erreur : exemplaire illisible" in output
    assert Game.objects.count() == 0


def test_a_notice_that_fails_half_way_leaves_nothing_behind(db, tmp_path):
    """The game, its author and tags are written before the copy is refused: all are rolled back."""
    page = tmp_path / "page.txt"
    page.write_text(hand_made_notice("Jeu trop long", barcode="9" * 41, author="Zoé Nouvelle"))
    output = import_pmb_expecting_errors(str(page))
    assert "page.txt:1 (notice 1) : erreur : " in output
    assert "40 caractères" in output
    assert not Game.objects.exists()
    assert not Author.objects.filter(name="Zoé Nouvelle").exists()
    assert not Location.objects.exists()


def test_a_barcode_already_used_by_two_games_is_an_error(seeds_imported, tmp_path):
    page = tmp_path / "page.txt"
    notice = hand_made_notice("Jeu doublon", barcode="90901")
    page.write_text(
        notice.replace("Exemplaires (1)", "Exemplaires (2)").replace(
            "90901 Disponible",
            "90901 Disponible EXE A 406 jeu de stratégie Maison des Enfants 90461 Disponible",
        )
    )
    output = import_pmb_expecting_errors(str(page))
    assert (
        "Les codes-barres de cette notice appartiennent à plusieurs jeux : Biblios, Les colons de Catane."
        in output
    )


def test_a_nul_byte_in_a_notice_is_reported_and_the_others_import(db, tmp_path):
    page = tmp_path / "page.txt"
    page.write_text(
        hand_made_notice("Jeu\x00 cassé", barcode="99001") + hand_made_notice("Jeu témoin", barcode="99002")
    )
    output = import_pmb_expecting_errors(str(page))
    assert (
        "page.txt:1 (notice 1) : erreur : caractère nul (0x00) dans la notice : le fichier est abîmé."
        in output
    )
    assert "Créés : 1, mis à jour : 0, inchangés : 0, erreurs : 1." in output
    assert list(Game.objects.values_list("title", flat=True)) == ["Jeu témoin"]


def test_an_over_long_field_is_reported_and_the_others_import(db, tmp_path):
    page = tmp_path / "page.txt"
    page.write_text(
        hand_made_notice("Jeu d'un auteur au long nom", barcode="99001", author="A" * 300)
        + hand_made_notice("Jeu au titre interminable " + "x" * 300, barcode="99002")
        + hand_made_notice("Jeu témoin", barcode="99003")
    )
    output = import_pmb_expecting_errors(str(page))
    assert "(notice 1) : erreur : Auteur : « AAAAAAAAAA… » dépasse 160 caractères." in output
    assert "(notice 2) : erreur : " in output and "200 caractères" in output
    assert "Créés : 1, mis à jour : 0, inchangés : 0, erreurs : 2." in output
    assert list(Game.objects.values_list("title", flat=True)) == ["Jeu témoin"]


def test_a_superscript_digit_in_a_number_field_is_reported(db, tmp_path):
    page = tmp_path / "page.txt"
    page.write_text(hand_made_notice("Jeu exposant", barcode="99001", players=("²", "4")))
    output = import_pmb_expecting_errors(str(page))
    assert "Nombre minimum de joueurs : « ² » n'est pas un nombre." in output


def test_a_utf8_file_with_a_byte_order_mark_is_read(db, tmp_path):
    page = tmp_path / "page.txt"
    page.write_bytes("\ufeff".encode() + hand_made_notice("Jeu marqué", barcode="99001").encode())
    output = import_pmb(str(page))
    assert "aucune notice" not in output
    assert "Créés : 1" in output and Game.objects.get().title == "Jeu marqué"


def test_the_command_refuses_a_missing_file(db):
    with pytest.raises(CommandError, match="Fichier introuvable"):
        call_command("import_pmb", "/nonexistent/page.txt", stdout=StringIO())


def test_the_report_lists_file_errors_without_stopping(db, tmp_path):
    binary = tmp_path / "image.txt"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    report = games_import_from_pmb_files(paths=[binary, SEEDS / "000_86c4d384f997375b.txt"])
    assert [error.source for error in report.errors] == ["image.txt"]
    assert [result.game.title for result in report.results] == ["Biblios"]


# --- The pieces of the parser ------------------------------------------------------------------


def test_space_joined_tags_are_split_on_capitals_and_known_multi_word_tags():
    assert split_tags("Jeux à deux Placement") == ["Jeux à deux", "Placement"]
    assert split_tags("Economie Négociation Placement") == ["Economie", "Négociation", "Placement"]
    assert split_tags("Jeu Coopératif Mémoire", known=["jeu coopératif"]) == ["Jeu Coopératif", "Mémoire"]
    assert split_tags("") == []


def test_pieces_are_read_only_from_the_list_not_from_the_rules():
    assert pieces_from_contents("But du jeu\n1) Il lance les dés.\n2) Il construit.") == []
    pieces = pieces_from_contents("Contenu: 2 dés et 1 piste. Préparation: 3 cartes par joueur.")
    assert [(piece.quantity, piece.label) for piece in pieces] == [(2, "dés"), (1, "piste")]


def test_the_pipe_layout_may_put_a_label_and_its_value_on_one_line():
    page = parse_page("Titre : | Jeu témoin |\nNombre minimum de joueurs : | 2 |\n| Age minimum : | 6 |\n")
    [notice] = page.notices
    assert (notice.title, notice.players_min, notice.age_min) == ("Jeu témoin", 2, 6)
