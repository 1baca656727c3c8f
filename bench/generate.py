"""Fill a PostgreSQL database with a realistic catalogue at network scale, for the search benchmark.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ludo_bench .venv/bin/python bench/generate.py

Default: 100,000 games (French titles, summaries, authors, publishers, categories, tags, players,
ages, durations, components) and 300,000 copies on six sites open two days a week, plus 20,000
member families (nine in ten with an e-mail address, memberships ending all year round) and 600,000
loans over the last two years (5 % of the copies out right now, lent up to nine weeks ago) and a copy
set aside for about one game in forty (ready holds, set aside over the last week), so that
availability, popularity and the daily notices have something to count. The database is created if missing and migrated; the catalogue
and loan tables are emptied first, so the script refuses a database whose name lacks "bench".
Rows go in with COPY, triggers off; the search documents are then computed by the database's own
trigger function in one UPDATE, their postings in one INSERT, and the tables are compacted and
analysed. Deterministic (`--seed`).
"""

import argparse
import datetime
import io
import os
import random
import sys
import time
import unicodedata
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludotheque.settings")

SITES = ["Maison des Enfants", "Médiathèque centrale", "Ludobus", "Antenne Nord", "Antenne Sud", "Réserve"]
CATEGORIES = [
    ("A 401", "jeu d'adresse", "jeu de règles"),
    ("A 402", "jeu d'association", "jeu de règles"),
    ("A 403", "jeu de parcours", "jeu de règles"),
    ("A 404", "jeu de mémoire", "jeu de règles"),
    ("A 405", "jeu de coopération", "jeu de règles"),
    ("A 406", "jeu de stratégie", "jeu de règles"),
    ("A 407", "jeu de hasard", "jeu de règles"),
    ("A 408", "jeu de réflexion", "jeu de règles"),
    ("A 409", "jeu d'ambiance", "jeu de règles"),
    ("A 410", "jeu de langue", "jeu de règles"),
    ("A 411", "jeu de connaissances", "jeu de règles"),
    ("A 412", "jeu d'enquête", "jeu de règles"),
    ("A 413", "jeu de rapidité", "jeu de règles"),
    ("A 414", "jeu de gestion", "jeu de règles"),
    ("A 415", "jeu de bluff", "jeu de règles"),
    ("A 416", "jeu de déduction", "jeu de règles"),
    ("A 417", "jeu de placement", "jeu de règles"),
    ("A 418", "jeu de rôle", "jeu de règles"),
    ("B 101", "jeu sensoriel", "jeu d'exercice"),
    ("B 102", "jeu moteur", "jeu d'exercice"),
    ("C 201", "jeu de construction", "jeu d'assemblage"),
    ("C 202", "puzzle", "jeu d'assemblage"),
    ("D 301", "jeu de faire-semblant", "jeu symbolique"),
    ("D 302", "marionnettes et déguisements", "jeu symbolique"),
]
CATEGORY_WEIGHTS = [5, 4, 4, 5, 6, 12, 6, 8, 9, 3, 4, 3, 4, 5, 3, 3, 4, 2, 2, 2, 3, 3, 2, 1]
TAGS = (
    "Coopératif;Bluff;Placement;Jeux à deux;Mémoire;Adresse;Dés;Cartes;Enchères;Déduction;Rapidité;"
    "Observation;Stratégie;Ambiance;Lettres;Chiffres;Calcul;Pirates;Dragons;Fantastique;Médiéval;Espace;"
    "Animaux;Ferme;Chevaliers;Monstres;Trésor;Exploration;Commerce;Construction;Course;Pêche;Cuisine;"
    "Musique;Dessin;Mime;Devinettes;Questions;Histoire;Géographie;Sciences;Nature;Océan;Montagne;Forêt;"
    "Château;Sorcellerie;Fées;Zombies;Robots;Dinosaures;Égypte;Japon;Vikings;Far West;Enquête;Policier;"
    "Horreur;Humour;Tuiles;Plateau modulable;Collection;Majorité;Draft;Deck-building;Gestion de main;"
    "Pose d'ouvriers;Programmation;Combinaison;Négociation;Vote;Équipe;Rôles cachés;Semi-coopératif;"
    "Tour par tour;Temps réel;Sablier;Figurines;Bois;Magnétique;Tout-petits;Éveil;Motricité;Couleurs;"
    "Formes;Associations;Loto;Domino;Memory;Puzzle;Labyrinthe;Parcours;Tactile;Sons;Odeurs;Équilibre;"
    "Empilement;Lancer;Pichenette;Casse-tête;Logique;Solitaire;Famille;Expert;Initiation;Classique;"
    "Abstrait;Narratif;Légendes;Mythologie;Pirates des Caraïbes;Trains;Voitures;Avions;Jardin;Saisons;"
    "Météo;Volcans;Insectes;Oiseaux;Chats;Chiens;Chevaux;Licornes;Princesses;Sorcières;Fantômes;Magie"
).split(";")
TITLE_HEADS = (
    "Le Château;La Forêt;Les Pirates;L'Île;Le Trésor;La Course;Les Dragons;Le Royaume;La Tour;"
    "Les Chevaliers;Le Marché;La Cité;Les Monstres;Le Jardin;La Ferme;Les Colons;Le Labyrinthe;La Mine;"
    "Les Sorcières;Le Village;La Caravane;Les Explorateurs;Le Dé;La Fusée;Les Animaux;Le Bal;La Chasse;"
    "Les Fantômes;Le Festin;La Vallée;Les Aventuriers;Le Grimoire;La Légende;Les Gardiens;Le Mystère;"
    "La Potion;Les Rois;Le Voyage;La Bataille;Les Lutins;Le Cirque;La Citadelle;Les Bâtisseurs;"
    "Le Port;La Caverne;Les Ours;Le Manoir;La Rivière;Les Chats;Le Phare;La Baleine;Les Robots;"
    "Le Volcan;La Planète;Les Abeilles;Le Train;La Pyramide;Les Vikings;Le Désert;La Jungle;"
    "Les Samouraïs;Le Temple;La Banquise;Les Dinosaures;Le Bazar;La Taverne;Les Fées;Le Zoo;"
    "L'Oasis;L'Empire;L'Expédition;L'Académie;L'Atelier;L'Odyssée;Le Carnaval;La Comète"
).split(";")
TITLE_TAILS = (
    "des Dragons;du Roi;enchantée;perdu;aux Monstres;des Sables;de la Lune;du Pharaon;de Venise;"
    "des Neiges;d'Émeraude;en Folie;infernal;magique;des Merveilles;des Étoiles;du Dragon;de Minuit;"
    "des Pirates;du Nord;des Glaces;d'Or;d'Argent;secret;maudit;oublié;des Fées;du Sorcier;de Cristal;"
    "des Ombres;du Soleil;des Océans;de Babylone;de Carcassonne;de Catane;de Troie;d'Avalon;du Tigre;"
    "des Ténèbres;des Lutins;des Abysses;de Feu;de Glace;des Vents;du Temps;des Rêves;des Saveurs;"
    "sous la Mer;dans les Nuages;au Far West;en Égypte;au Japon;en Amazonie;sur Mars;des Bois;"
    "des Cinq Anneaux;des Mille Lacs;de Jade;des Tempêtes;du Chaos;de l'Aube;du Crépuscule;de l'Été"
).split(";")
TITLE_EXTRAS = [
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    " Junior",
    " Duel",
    " Express",
    " Party",
    " Kids",
    " Deluxe",
    " : l'extension",
    " 2",
    " : le jeu de cartes",
    " : le jeu de dés",
    " Édition anniversaire",
    " Big Box",
]
SYLLABLES = "ka ri bu to la mo zan zi bar ké lo pa ta nu vi sha ro mi da go té zu ba lé no fi ra".split()
FIRST_NAMES = (
    "Antoine Bruno Klaus Steve Reiner Wolfgang Uwe Alexander Michael Bernard Philippe Cyril Ludovic "
    "Marie Sophie Claire Anne Julie Camille Léa Chloé Emma Inès Manon Sarah Hélène Roberto Dominique "
    "Frédéric Serge Thomas Nicolas Pierre Paul Jacques Rémi Maxime Théo Hugo Lucas Louis Gabriel Jules "
    "Adam Rüdiger Dirk Scott Hjalmar Lorenzo Vlaada Corentin Florian Jérôme Matthieu Yann Éric Olivier "
    "Agnès Bérénice Céline Delphine Élise Françoise Gaëlle Isabelle Joëlle Laurence Mélanie Noémie"
).split()
LAST_NAMES = (
    "Bauza Cathala Teuber Finn Knizia Kramer Rosenberg Pfister Schacht Dorn Henn Ehrhard Almes Hach "
    "Silva Kałuża Chvátil Faidutti Maublanc Lemonnier Collin Laget Pauchon Bonnet Cormier Duval Fabre "
    "Garnier Hébert Lefèvre Mercier Moreau Perrin Roux Vincent Blanc Chevalier Lambert Faure Rousseau "
    "Girard Bonneau Masson Marchand Dumont Leroy Roussel Meunier Brun Gauthier Robin Clément Morin Nicolas "
    "Henry Mathieu Lemoine Picard Renard Arnaud Giraud Rolland Barbier Dupuis Aubert Brunet Schmitt "
    "Colin Vidal Caron Gérard Boyer Noël Lucas Benoît Riviere Deschamps Lacroix Müller Schäfer Weiß"
).split()
PUBLISHERS = (
    "Gigamic;Iello;Asmodee;Haba;Djeco;Ravensburger;Repos Production;Days of Wonder;Space Cowboys;"
    "Blue Orange;Bombyx;Le Scorpion Masqué;Matagot;Ludonaute;Cocktail Games;Queen Games;Kosmos;"
    "Hurrican;Libellud;Funforge;Lookout;Z-Man Games;Hazgaard;Purple Brain;Sit Down!;Catch Up Games;"
    "Origames;Superlude;Bioviva;Oxybul;Smart Games;Goliath;Hasbro;Mattel;Piatnik;Schmidt;Zoch;"
    "Amigo;Pegasus;Tasty Minstrel Games;Horrible Guild;Rebel;Lumberjacks;Ankama;Edge;Fantasy Flight"
).split(";")
ROLES = (
    "explorateurs marchands sorciers pirates fermiers chevaliers astronautes détectives archéologues cuisiniers "
    "bâtisseurs dresseurs alchimistes navigateurs lutins moines jardiniers marins trappeurs espions inventeurs "
    "pâtissiers bergers apprentis princesses robots castors écureuils fourmis peintres musiciens"
).split()
GOALS = [
    "rapporter le plus de trésors",
    "construire la plus belle cité",
    "atteindre le sommet avant les autres",
    "démasquer le coupable",
    "récolter le plus de points de victoire",
    "retrouver les œufs d'or",
    "livrer toutes les marchandises",
    "s'échapper du labyrinthe",
    "réunir une collection complète",
    "protéger le village des monstres",
    "ramener le plus de poissons au port",
    "décorer le plus beau gâteau",
    "traverser la rivière sans se mouiller",
    "rentrer tous les moutons avant la nuit",
    "éteindre l'incendie de la forêt",
    "cultiver le potager le plus varié",
    "retrouver le chemin de la maison",
    "gagner la course de chars",
    "bâtir la plus haute tour",
    "découvrir la formule de la potion",
    "réparer la fusée avant le décollage",
    "capturer le drapeau adverse",
    "remplir son carnet de découvertes",
    "organiser le plus beau festival",
    "garder le trône jusqu'à la fin",
    "trouver l'intrus parmi les invités",
    "explorer les ruines du temple",
    "sauver les animaux de la tempête",
    "vendre ses tableaux au meilleur prix",
    "terminer le puzzle avant le sablier",
]
# How games play, each sentence in about one summary in forty: real catalogues vary their wording.
MECHANICS = [
    "À chaque tour, on lance les dés et on déplace son pion sur le plateau.",
    "Les cartes sont mises aux enchères et il faut bien gérer son or.",
    "Tous les joueurs jouent en même temps : le plus rapide l'emporte.",
    "Il faut mémoriser l'emplacement des tuiles retournées face cachée.",
    "Les joueurs coopèrent et gagnent ou perdent tous ensemble.",
    "On pose des tuiles pour agrandir le paysage et placer ses partisans.",
    "Chacun bluffe sur la valeur de ses cartes : attention aux menteurs !",
    "On choisit une carte, on passe les autres à son voisin.",
    "Une partie rapide et pleine de rebondissements, idéale en famille.",
    "Adresse et équilibre sont nécessaires pour empiler les pièces sans tout faire tomber.",
    "Il faut deviner le mot secret grâce aux indices de son équipe.",
    "Chaque manche, on programme ses déplacements en secret avant de les révéler.",
    "Le plateau se construit au fil de la partie, jamais deux fois le même.",
    "On collectionne des familles de cartes pour marquer des points.",
    "Un maître du jeu raconte l'histoire et les autres mènent l'enquête.",
    "Les pions glissent sur la piste : une pichenette de trop et c'est la chute.",
    "Le sablier s'écoule : il faut dessiner vite et bien.",
    "On mime, on fredonne ou on dessine pour faire deviner sa carte.",
    "Chaque joueur gère sa ferme et nourrit sa famille à la fin de chaque saison.",
    "On négocie des ressources avec ses voisins pour bâtir routes et villages.",
    "Des figurines en bois se posent sur la carte pour contrôler les régions.",
    "La mémoire visuelle est mise à rude épreuve.",
    "Les plus jeunes apprennent les couleurs et les formes en s'amusant.",
    "Un casse-tête en solitaire avec des défis de difficulté croissante.",
    "Il faut réunir trois symboles identiques avant les autres.",
    "Le loup rôde : les joueurs votent pour démasquer les traîtres.",
    "On trace son chemin sur une feuille en fonction des dés tirés.",
    "La pioche est commune et chacun construit son propre paquet de cartes.",
    "Les ouvriers sont placés sur les bâtiments pour récolter bois, pierre et or.",
    "Un jeu de lettres où l'on forme des mots croisés le plus long possible.",
    "Il faut calculer vite pour atteindre le total annoncé.",
    "On observe l'image et le premier qui repère l'objet commun gagne la carte.",
    "Les dés sont relancés jusqu'à trois fois pour obtenir la meilleure combinaison.",
    "Une course effrénée où chaque raccourci peut se retourner contre vous.",
    "Les équipes s'affrontent en répondant à des questions de culture générale.",
    "Il faut guider la bille à travers le labyrinthe en inclinant le plateau.",
    "Les tuiles animaux s'assemblent pour former le plus grand troupeau.",
    "Chaque carte jouée déclenche un effet en chaîne à anticiper.",
    "Les joueurs explorent une carte cachée qui se révèle tuile après tuile.",
    "Un jeu d'ambiance où les fous rires sont garantis.",
    "Il faut servir le thé à ses invités sans renverser une goutte.",
]
PIECES = [
    "plateau de jeu",
    "cartes",
    "dés",
    "pions",
    "jetons",
    "règle du jeu",
    "sablier",
    "tuiles",
    "figurines",
    "pièces en bois",
    "sac en tissu",
    "carnet de scores",
]
PLAYER_RANGES = [
    (2, 4),
    (2, 4),
    (2, 5),
    (2, 6),
    (1, 4),
    (3, 5),
    (2, 2),
    (1, 1),
    (2, 8),
    (3, 10),
    (1, 6),
    (4, 12),
    (3, 4),
    (2, 3),
]
AGE_MINS = [2, 3, 4, 5, 6, 6, 7, 7, 8, 8, 8, 9, 10, 10, 12, 14]
DURATIONS = [5, 10, 15, 15, 20, 20, 25, 30, 30, 30, 40, 45, 45, 60, 60, 90, 120, 180]
STATUSES = ["on_shelf"] * 92 + ["in_repair"] * 3 + ["incomplete"] * 2 + ["lost", "withdrawn", "not_for_loan"]


# The postings of every game (migrations 0013, 0014 and 0017), written anew.
POSTING_COLUMNS = "players_min, players_max, age_min, age_max, duration_minutes, category_id, tag_ids"
POSTINGS = rf"""
DROP INDEX catalogue_search_posting_order;
DROP INDEX catalogue_search_posting_game;
TRUNCATE catalogue_search_posting;
INSERT INTO catalogue_search_posting (lexeme, rank, title, game_id, {POSTING_COLUMNS})
SELECT u.lexeme, ts_rank(g.search_vector, ('''' || replace(replace(u.lexeme, '\', '\\'), '''', '''''') || '''')::tsquery),
       g.title, g.id, {", ".join(f"g.{column}" for column in POSTING_COLUMNS.split(", "))}
  FROM catalogue_game g, unnest(g.search_vector) AS u
 WHERE u.weights && '{{A,B,C}}'::text[];
CREATE INDEX catalogue_search_posting_order ON catalogue_search_posting (lexeme, rank DESC, title, game_id)
    INCLUDE ({POSTING_COLUMNS});
CREATE INDEX catalogue_search_posting_game ON catalogue_search_posting (game_id);
"""


def slugify(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return "-".join("".join(c if c.isalnum() else " " for c in ascii_text).split())


def invented_word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()


def make_title(rng: random.Random) -> str:
    shape = rng.random()
    if shape < 0.6:
        title = f"{rng.choice(TITLE_HEADS)} {rng.choice(TITLE_TAILS)}"
    elif shape < 0.8:
        title = rng.choice(TITLE_HEADS)
    else:
        title = invented_word(rng)
    return title + rng.choice(TITLE_EXTRAS)


class Copier:
    """COPY rows into one table through psycopg, in text format."""

    def __init__(self, cursor, table: str, columns: list[str]):
        self.cursor, self.table, self.columns = cursor, table, columns
        self.buffer = io.StringIO()
        self.count = 0

    def add(self, *values) -> None:
        cells = []
        for value in values:
            if value is None:
                cells.append(r"\N")
            else:
                text = str(value)
                cells.append(text.replace("\\", "\\\\").replace("\t", " ").replace("\n", r"\n"))
        self.buffer.write("\t".join(cells) + "\n")
        self.count += 1

    def flush(self) -> int:
        sql = f"COPY {self.table} ({', '.join(self.columns)}) FROM STDIN"
        with self.cursor.copy(sql) as copy:
            copy.write(self.buffer.getvalue())
        self.buffer = io.StringIO()
        return self.count


def create_database_if_missing(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin_url = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin_url, autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')
            print(f"created database {name}")


def generate(games: int, copies: int, members: int, loans: int, seed: int) -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from catalogue.models.kinds import default_item_kind
    from ludotheque.history import ALLOW_TRUNCATE

    call_command("migrate", verbosity=0)
    rng = random.Random(seed)
    now = datetime.datetime.now(datetime.UTC)
    today = now.date()
    started = time.perf_counter()

    with connection.cursor() as django_cursor:
        cursor = django_cursor.cursor  # the psycopg cursor, for COPY
        cursor.execute(ALLOW_TRUNCATE)  # the ledger's tables, reached by CASCADE, refuse it otherwise
        cursor.execute(
            "TRUNCATE catalogue_game, catalogue_copy, catalogue_author, catalogue_publisher, catalogue_tag, "
            "catalogue_category, catalogue_location, catalogue_language, loans_loan, loans_member, "
            "loans_membershiptype, catalogue_search_word, django_tasks_database_dbtaskresult RESTART IDENTITY CASCADE"
        )
        # Triggers (and foreign-key checks) off while loading: the rows are consistent by construction.
        cursor.execute("SET session_replication_role = replica")

        def table(name, columns, rows):
            copier = Copier(cursor, name, columns)
            for row in rows:
                copier.add(*row)
            copier.flush()
            return copier.count

        table(
            "catalogue_location",
            ["id", "name", "address", "phone", "email", "lends", "returns_home"],
            [(i + 1, n, "", "", "", True, True) for i, n in enumerate(SITES)],
        )
        # Every site opens Wednesday 14–18 and Saturday 10–12 and 14–17 (the demo's week).
        table(
            "opening_openinghours",
            ["id", "location_id", "weekday", "opens_at", "closes_at"],
            [
                (len(SITES) * n + i + 1, i + 1, weekday, opens, closes)
                for n, (weekday, opens, closes) in enumerate(
                    [(2, "14:00", "18:00"), (5, "10:00", "12:00"), (5, "14:00", "17:00")]
                )
                for i in range(len(SITES))
            ],
        )
        table(
            "catalogue_category",
            ["id", "code", "label", "family"],
            [(i + 1, *c) for i, c in enumerate(CATEGORIES)],
        )
        table("catalogue_tag", ["id", "name", "slug"], [(i + 1, t, slugify(t)) for i, t in enumerate(TAGS)])
        languages = [
            ("fre", "Français"),
            ("eng", "Anglais"),
            ("ger", "Allemand"),
            ("dut", "Néerlandais"),
            ("ita", "Italien"),
        ]
        table(
            "catalogue_language", ["id", "code", "name"], [(i + 1, *lang) for i, lang in enumerate(languages)]
        )
        author_names = sorted({f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}" for _ in range(9000)})
        table("catalogue_author", ["id", "name"], [(i + 1, n) for i, n in enumerate(author_names)])
        publisher_names = PUBLISHERS + sorted(
            {f"{invented_word(rng)} {rng.choice(['Games', 'Jeux', 'Éditions', 'Ludo'])}" for _ in range(400)}
        )
        table(
            "catalogue_publisher",
            ["id", "name", "place"],
            [(i + 1, n, "") for i, n in enumerate(publisher_names)],
        )

        game_cols = [
            "id",
            "title",
            "slug",
            "document_type",
            "category_id",
            "players_min",
            "players_max",
            "age_min",
            "age_max",
            "duration_minutes",
            "summary",
            "rules_summary",
            "contents",
            "pedagogical_analysis",
            "online_url",
            "created_at",
            "updated_at",
            "image",
            "loans_last_year",
            "date_bookable",
        ]
        game_rows, authorships, credits, game_tags, game_langs, components = (
            Copier(cursor, "catalogue_game", game_cols),
            [],
            [],
            [],
            [],
            [],
        )
        slugs: set[str] = set()
        game_category = {}
        for game_id in range(1, games + 1):
            title = make_title(rng)
            slug = slugify(title)
            if slug in slugs:
                slug = f"{slug}-{game_id}"
            slugs.add(slug)
            category = rng.choices(range(1, len(CATEGORIES) + 1), CATEGORY_WEIGHTS)[0]
            game_category[game_id] = category
            players_min, players_max = rng.choice(PLAYER_RANGES)
            age_min = rng.choice(AGE_MINS)
            age_max = rng.choice([None, 99, 99, 99]) if age_min >= 5 else rng.choice([6, 7, 99])
            pieces = rng.sample(PIECES, rng.randint(2, 6))
            quantities = [rng.choice([1, 1, 4, 6, 12, 20, 36, 54, 87, 110]) for _ in pieces]
            contents = ", ".join(f"{q} {p}" for q, p in zip(quantities, pieces, strict=True))
            summary = (
                f"Dans {title}, les joueurs incarnent des {rng.choice(ROLES)} qui doivent "
                f"{rng.choice(GOALS)}. " + " ".join(rng.sample(MECHANICS, rng.randint(1, 2)))
            )
            game_rows.add(
                game_id,
                title,
                slug,
                "objet à 3 dimensions, artefacts, ...",
                category,
                players_min,
                players_max,
                age_min,
                age_max,
                rng.choice(DURATIONS),
                summary,
                rng.choice(MECHANICS) * rng.randint(1, 6),
                contents,
                "",
                "",
                now,
                now,
                "",
                0,  # counted by the daily step once the loans are in
                False,
            )
            for position, author in enumerate(
                rng.sample(range(1, len(author_names) + 1), rng.choice([1, 1, 1, 2, 2, 3]))
            ):
                authorships.append(
                    (
                        len(authorships) + 1,
                        game_id,
                        author,
                        "auteur" if position == 0 else rng.choice(["auteur", "illustrateur"]),
                        position,
                    )
                )
            for position, publisher in enumerate(
                rng.sample(range(1, len(publisher_names) + 1), rng.choice([1, 1, 1, 2]))
            ):
                credits.append((len(credits) + 1, game_id, publisher, position))
            for tag in rng.sample(range(1, len(TAGS) + 1), rng.randint(1, 5)):
                game_tags.append((len(game_tags) + 1, game_id, tag))
            game_langs.append((game_id, game_id, 1))
            for position, (quantity, piece) in enumerate(zip(quantities, pieces, strict=True)):
                components.append((len(components) + 1, game_id, position, quantity, piece))
        game_rows.flush()
        table("catalogue_authorship", ["id", "game_id", "author_id", "role", "position"], authorships)
        table("catalogue_publishercredit", ["id", "game_id", "publisher_id", "position"], credits)
        table("catalogue_game_tags", ["id", "game_id", "tag_id"], game_tags)
        table("catalogue_game_languages", ["id", "game_id", "language_id"], game_langs)
        table(
            "catalogue_component",
            ["id", "game_id", "position", "quantity", "label", "rules_key"],
            [(*component, "") for component in components],
        )
        print(
            f"{games} games, {len(authorships)} credits, {len(game_tags)} tags, {len(components)} pieces: {time.perf_counter() - started:.0f}s"
        )

        # Copies: 10 % of the games have none, the others 1 to 8 (the total is `copies`).
        with_copies = rng.sample(range(1, games + 1), int(games * 0.9))
        copy_game = [rng.choice(with_copies) for _ in range(copies - len(with_copies))] + with_copies
        copy_rows = Copier(
            cursor,
            "catalogue_copy",
            [
                "id",
                "game_id",
                "cote",
                "section_id",
                "location_id",
                "barcode",
                "status",
                "acquired_on",
                "notes",
                "created_at",
                "updated_at",
                "playable_tables",
                "kind_id",
            ],
        )
        copy_status = {}
        item_kind = default_item_kind()  # « Jeu », every copy's kind
        for copy_id, game_id in enumerate(sorted(copy_game), start=1):
            status = rng.choice(STATUSES)
            copy_status[copy_id] = (game_id, status)
            section = game_category[game_id] if rng.random() < 0.95 else rng.randint(1, len(CATEGORIES))
            copy_rows.add(
                copy_id,
                game_id,
                "".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVZ") for _ in range(3)),
                section,
                rng.choices(range(1, len(SITES) + 1), [30, 25, 10, 15, 15, 5])[0],
                100000 + copy_id,
                status,
                today - datetime.timedelta(days=rng.randint(0, 4000)),
                "",
                now,
                now,
                0,
                item_kind,
            )
        copy_rows.flush()
        print(f"{copies} copies: {time.perf_counter() - started:.0f}s")

        # Members and loans: some games are far more popular than others (a Zipf-like weight).
        user_model = get_user_model()
        staff, _ = user_model.objects.get_or_create(username="bench-desk", defaults={"is_staff": True})
        table(
            "loans_membershiptype",
            [
                "id",
                "name",
                "duration_days",
                "price",
                "loan_quota",
                "loan_period_days",
                "renewals_allowed",
                "due_soon_days",
                "overdue_level1_days",
                "overdue_level2_days",
                "overdue_level3_days",
                "notify_hold_ready",
                "hold_expiring_days",
                "membership_expiring_days",
                "late_loans",
                "loan_fee",
                "late_fee_per_day",
                "charge_missing_pieces",
                "charge_lost_games",
                "debt_limit",
                "public",
                "kind",
            ],
            [
                (
                    1,
                    "Famille",
                    365,
                    "20.00",
                    5,
                    21,
                    1,
                    3,
                    7,
                    21,
                    42,
                    True,
                    2,
                    30,
                    "warn",
                    "0",
                    "0",
                    False,
                    False,
                    "0",
                    True,
                    "family",
                )
            ],
        )
        # The families' contact details and membership dates come from their own generator, so that the
        # loans drawn after them are those of earlier versions of this script.
        family_rng = random.Random(seed + 1)
        starts = {
            i: today - datetime.timedelta(days=family_rng.randint(0, 364)) for i in range(1, members + 1)
        }
        table(
            "loans_member",
            [
                "id",
                "card_barcode",
                "name",
                "email",
                "phone",
                "address",
                "language",
                "membership_type_id",
                "membership_start",
                "membership_expiry",
                "notes",
                "created_at",
                "calendar_token",
                "contact_name",
                "contact_phone",
                "contact_email",
            ],
            [
                (
                    i,
                    f"C{i:06d}",
                    f"Famille {rng.choice(LAST_NAMES)}",
                    # nine families in ten give an e-mail address; the others get letters
                    f"famille{i}@example.org" if family_rng.random() < 0.9 else "",
                    "",
                    f"{family_rng.randint(1, 200)} rue {family_rng.choice(LAST_NAMES)}\n1000 Bruxelles",
                    "en" if family_rng.random() < 0.1 else "fr",
                    1,
                    starts[i],
                    starts[i] + datetime.timedelta(days=365),
                    "",
                    now,
                    "",
                    "",
                    "",
                    "",
                )
                for i in range(1, members + 1)
            ],
        )
        lendable = [copy_id for copy_id, (_, status) in copy_status.items() if status == "on_shelf"]
        weights = [1.0 / (1 + (copy_status[c][0] % 997)) for c in lendable]
        open_copies = set(rng.sample(lendable, int(len(lendable) * 0.05)))
        loan_rows = Copier(
            cursor,
            "loans_loan",
            [
                "id",
                "copy_id",
                "member_id",
                "lent_at",
                "lent_by_id",
                "due_on",
                "renewals",
                "returned_at",
                "returned_by_id",
                "return_check",
            ],
        )
        loan_id = 0
        for copy_id in rng.choices(lendable, weights, k=max(0, loans - len(open_copies))):
            loan_id += 1
            lent_at = now - datetime.timedelta(days=rng.uniform(22, 730))
            returned_at = lent_at + datetime.timedelta(days=rng.uniform(3, 28))
            loan_rows.add(
                loan_id,
                copy_id,
                rng.randint(1, members),
                lent_at,
                staff.pk,
                (lent_at + datetime.timedelta(days=21)).date(),
                0,
                returned_at,
                staff.pk,
                "complete",
            )
        for copy_id in open_copies:
            loan_id += 1
            # Lent up to nine weeks ago: due soon, on time, and late at every reminder level.
            lent_at = now - datetime.timedelta(days=rng.uniform(0, 63))
            loan_rows.add(
                loan_id,
                copy_id,
                rng.randint(1, members),
                lent_at,
                staff.pk,
                (lent_at + datetime.timedelta(days=21)).date(),
                0,
                None,
                None,
                "",
            )
        loan_rows.flush()
        print(
            f"{members} families, {loan_id} loans ({len(open_copies)} open): {time.perf_counter() - started:.0f}s"
        )

        # Ready holds: one copy on the shelf set aside, for about one game in forty.
        cursor.execute(
            """
            INSERT INTO loans_hold (position, status, created_at, ready_at, ready_until, copy_id, created_by_id,
                                    game_id, member_id)
            SELECT 1, 'ready', now() - interval '9 days', now() - (c.id %% 7) * interval '1 day',
                   current_date + 7 - (c.id %% 7)::int, c.id, %s,
                   c.game_id, 1 + c.game_id %% %s
              FROM (SELECT DISTINCT ON (game_id) id, game_id FROM catalogue_copy c
                     WHERE status = 'on_shelf' AND c.id %% 97 = 0
                       AND NOT EXISTS (SELECT 1 FROM loans_loan l WHERE l.copy_id = c.id AND l.returned_at IS NULL)
                     ORDER BY game_id, id) AS c
            """,
            [staff.pk, members],
        )
        print(f"{cursor.rowcount} ready holds")
        cursor.execute("SET session_replication_role = DEFAULT")
        for name in [
            "catalogue_location",
            "catalogue_category",
            "catalogue_tag",
            "catalogue_language",
            "catalogue_author",
            "catalogue_publisher",
            "catalogue_game",
            "catalogue_authorship",
            "catalogue_publishercredit",
            "catalogue_game_tags",
            "catalogue_game_languages",
            "catalogue_component",
            "catalogue_copy",
            "loans_membershiptype",
            "loans_member",
            "loans_loan",
            "opening_openinghours",
        ]:
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), coalesce(max(id), 1)) FROM {name}"
            )
        # The search documents, by the trigger function the site relies on (see catalogue/search.py);
        # then the postings from them in one statement, their indexes built at the end, as migration
        # 0017 does (the postings trigger would write them a game at a time).
        cursor.execute("ALTER TABLE catalogue_game DISABLE TRIGGER catalogue_game_search_postings_update")
        cursor.execute("UPDATE catalogue_game SET search_vector = NULL")
        cursor.execute("ALTER TABLE catalogue_game ENABLE TRIGGER catalogue_game_search_postings_update")
        print(f"search documents: {time.perf_counter() - started:.0f}s")
        cursor.execute(POSTINGS)
        print(f"postings: {time.perf_counter() - started:.0f}s")
    from loans.services import popularity_count

    print(popularity_count(today=today))
    connection.close()
    import psycopg

    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as raw:
        # The UPDATE above left a dead copy of every game row: compact the table as a live one would be.
        raw.execute("VACUUM FULL catalogue_game")
        raw.execute("VACUUM ANALYZE")
    print(f"done in {time.perf_counter() - started:.0f}s")


def main() -> None:
    parser = argparse.ArgumentParser(description="Generate a catalogue at network scale for the benchmarks.")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--copies", type=int, default=300_000)
    parser.add_argument("--members", type=int, default=20_000)
    parser.add_argument("--loans", type=int, default=600_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")) or "bench" not in urlsplit(url).path:
        parser.error("set DATABASE_URL to a PostgreSQL database whose name contains 'bench' (it is emptied).")
    if args.copies < args.games:
        parser.error("--copies must be at least --games (90 %% of the games get at least one copy).")
    create_database_if_missing(url)
    generate(args.games, args.copies, args.members, args.loans, args.seed)


if __name__ == "__main__":
    main()
