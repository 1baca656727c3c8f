"""Querysets compiled once per connection (ludotheque/prepared.py): the notice, the game page and
the copy lookup run SQL compiled once, with each request's own slug or barcode."""

import itertools
import threading

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from catalogue.models import Copy, Game
from catalogue.search.notice import notice_copies
from ludotheque.prepared import PreparedRead
from tests.search_helpers import family_catalogue, lend, make_copy, make_game

GAMES = "/api/games/"
_LABELS = itertools.count(1)


def _read(build, *placeholders, **options) -> PreparedRead:
    """A prepared read of a test's own, under a label of its own."""
    return PreparedRead(f"test read {next(_LABELS)}", build, *placeholders, **options)


def _fields(instance, names):
    return {name: getattr(instance, name) for name in names}


@pytest.mark.postgresql
def test_a_prepared_queryset_gives_what_the_queryset_gives_for_each_value(db):
    catalogue = family_catalogue()  # 70002, a copy of Le Château des Dragons, is out on loan
    prepared = _read(lambda game: notice_copies().filter(game_id=game), -1)
    names = ["barcode", "cote", "status", "is_available", "due_on", "section_id", "location_id"]
    for game in Game.objects.all():
        expected = list(notice_copies().filter(game_id=game.pk))
        copies = list(prepared.queryset(game.pk))
        assert [_fields(copy, names) for copy in copies] == [_fields(copy, names) for copy in expected]
        # select_related: the section and the site came with each copy, in the same query.
        with connection.execute_wrapper(_no_query):
            assert [(copy.section, copy.location.name) for copy in copies] == [
                (copy.section, copy.location.name) for copy in expected
            ]
    assert any(copy.due_on for copy in prepared.queryset(catalogue.chateau.pk))


def _no_query(execute, sql, params, many, context):
    raise AssertionError(f"unexpected query: {sql}")


@pytest.mark.postgresql
def test_the_notice_and_the_copy_read_the_database_anew_each_time(client, db):
    """The SQL is compiled once; the rows are not kept: a loan, a new copy, a new title show at once."""
    game = make_game("Quarto", players_min=2, players_max=2, age_min=6, duration_minutes=15)
    copy = make_copy(game, "81001")
    assert [c["available"] for c in client.get(f"{GAMES}quarto/").json()["copies"]] == [True]
    assert client.get("/api/copies/81001/").json()["available"] is True
    lend(copy)
    make_copy(game, "81002")
    Game.objects.filter(pk=game.pk).update(title="Quarto !")
    notice = client.get(f"{GAMES}quarto/").json()
    assert notice["title"] == "Quarto !"
    assert [(c["barcode"], c["available"]) for c in notice["copies"]] == [("81001", False), ("81002", True)]
    assert client.get("/api/copies/81001/").json()["available"] is False
    page = client.get("/jeux/quarto/").content.decode()
    assert "Quarto !" in page and "81002" in page


@pytest.mark.postgresql
def test_an_unknown_slug_or_barcode_is_a_404_that_says_so_in_the_users_language(client, db):
    response = client.get(f"{GAMES}pas-de-jeu/")
    assert (response.status_code, response.json()) == (404, {"detail": "Aucun jeu ne porte cet identifiant."})
    response = client.get(f"{GAMES}pas-de-jeu/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.json() == {"detail": "No game has this identifier."}
    response = client.get("/api/copies/00000/")
    assert (response.status_code, response.json()) == (
        404,
        {"detail": "Aucun exemplaire ne porte ce code-barres."},
    )
    response = client.get("/api/copies/00000/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.json() == {"detail": "No copy carries this barcode."}
    assert client.get("/jeux/pas-de-jeu/").status_code == 404


@pytest.mark.postgresql  # on SQLite, Precompiled gives the queryset itself
def test_a_prepared_queryset_refuses_what_its_sql_would_ignore(db):
    prepared = _read(lambda barcode: Copy.objects.filter(barcode=barcode), "placeholder")
    with pytest.raises(TypeError):
        prepared.queryset("70001").filter(status="on_shelf")
    with pytest.raises(TypeError):
        prepared.queryset("70001").order_by("cote")


@pytest.mark.postgresql  # on SQLite, Precompiled gives the queryset itself
def test_a_placeholder_must_be_one_parameter_of_the_sql(db):
    # A value the lookup changes (`%value%`) never reaches the parameters as given.
    with pytest.raises(ValueError, match="0 times"):
        _read(lambda title: Game.objects.filter(title__contains=title), "Placeholder").queryset("x")
    with pytest.raises(ValueError, match="2 times"):
        _read(lambda title: Game.objects.filter(title=title, slug=title), "same").queryset("x")


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_each_thread_runs_it_on_its_own_connection(client):
    """A compiler holds its connection and Django gives each thread its own: a threaded server must
    not run a query on another thread's connection."""
    make_copy(make_game("Quarto"), "81001")
    assert client.get("/api/copies/81001/").status_code == 200  # compiled on this thread's connection
    answers = []

    def lookup():
        try:
            answers.append(client.get("/api/copies/81001/").json()["barcode"])
        finally:
            connection.close()

    thread = threading.Thread(target=lookup)
    thread.start()
    thread.join(timeout=30)
    assert answers == ["81001"]


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_prepared_lock_refuses_to_run_outside_a_transaction():
    """As QuerySet.select_for_update() does: in autocommit the row would be unlocked at once."""
    copy = make_copy(make_game("Quarto"), "81001")
    locking = _read(lambda pk: Copy.objects.select_for_update().filter(pk=pk), -1)
    with transaction.atomic():
        assert locking.get(copy.pk) == copy  # compiled here, inside a transaction
    with pytest.raises(TransactionManagementError):
        locking.get(copy.pk)


def test_get_says_when_there_is_no_such_row_or_several(db):
    make_copy(make_game("Quarto"), "81001")
    make_copy(make_game("Quarto 2"), "81002", cote="QUA")
    by_barcode = _read(lambda barcode: Copy.objects.filter(barcode=barcode), "placeholder")
    assert by_barcode.get("81001").game.title == "Quarto"
    with pytest.raises(Copy.DoesNotExist):
        by_barcode.get("00000")
    by_cote = _read(lambda cote: Copy.objects.filter(cote=cote), "placeholder")
    with pytest.raises(Copy.MultipleObjectsReturned):
        by_cote.get("QUA")


def _prepared(name: str) -> list[str]:
    """The statements of that name prepared in this session (PostgreSQL's own list)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE name = %s", [name])
        return [statement for (statement,) in cursor.fetchall()]


@pytest.mark.postgresql
def test_postgresql_plans_it_once_per_session_with_the_other_values_written_in(db):
    """PREPARE once per session, then EXECUTE: the request's value is the statement's parameter, the
    others are written into it, quotes and percent signs included."""
    title = "L'Or des 100 % pirates"
    make_game(title)
    make_game("Quarto")
    titled = _read(lambda pk: Game.objects.filter(pk=pk, title=title).exclude(slug="s'%s"), -1)
    for game in Game.objects.all():
        assert list(titled.queryset(game.pk)) == list(Game.objects.filter(pk=game.pk, title=title))
    [statement] = _prepared(titled.name)
    assert "$1" in statement and "'L''Or des 100 % pirates'" in statement and "'s''%s'" in statement
    # Each request sends the EXECUTE alone, with its value.
    pk = Game.objects.get(title=title).pk
    with CaptureQueriesContext(connection) as queries:
        assert titled.get(pk).title == title
    assert [query["sql"] for query in queries] == [f"EXECUTE {titled.name}({pk})"]


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_new_session_prepares_it_again_and_a_rollback_does_not_lose_it():
    copy = make_copy(make_game("Quarto"), "81001")
    by_barcode = _read(lambda barcode: Copy.objects.filter(barcode=barcode), "placeholder")
    with transaction.atomic():
        assert by_barcode.get("81001") == copy  # prepared inside a transaction…
        transaction.set_rollback(True)
    assert by_barcode.get("81001") == copy  # …that rolled back: still there
    connection.close()  # e.g. CONN_MAX_AGE reached: Django opens a new session
    assert by_barcode.get("81001") == copy
    assert len(_prepared(by_barcode.name)) == 1


@pytest.mark.postgresql
def test_the_desks_prepared_reads_give_what_their_querysets_give(staff_user):
    """The statements of a checkout and a return compiled once (loans/desk.py), against the
    querysets they stand for, for every copy, game and family of a desk in use."""
    from django.db.models import Count, Q

    from catalogue.models import Location
    from loans import desk, services
    from loans.models import Hold, Loan
    from members.models import Member
    from onsite import services as onsite
    from tests.loan_helpers import make_copy as make_loan_copy
    from tests.loan_helpers import make_desk_world, make_member
    from tests.loan_helpers import make_game as make_loan_game

    world = make_desk_world(staff_user)
    third = make_member("M0003", "Charlie Machin")
    services.hold_create(game=world["quarto"], member=third, staff=staff_user)  # waits: no copy left
    services.hold_create(game=world["catane"], member=world["bidule"], staff=staff_user)  # waits
    session = onsite.session_open(location=Location.objects.get(), staff=staff_user)
    at_table = make_loan_copy(make_loan_game("Biblios"), "90902")
    onsite.table_take(session=session, copy=at_table, staff=staff_user)
    assert Hold.objects.waiting().count() == 2

    with transaction.atomic():  # the holds and the missing pieces are read with a lock
        for copy in Copy.objects.select_related("game"):
            away = Copy.objects.with_whereabouts().get(pk=copy.pk).whereabouts
            assert desk._WHEREABOUTS.get(copy.pk) == away
            assert desk._elsewhere(copy) == (None if away is None else "sur une table, en jeu sur place")
            assert list(desk._NEXT_WAITING_HOLD.queryset(copy.game_id)) == list(
                Hold.objects.waiting().filter(game_id=copy.game_id).order_by("position")[:1]
            )
            for member in Member.objects.all():
                expected = (
                    Loan.objects.open()
                    .filter(Q(copy=copy) | Q(member=member))
                    .aggregate(
                        of_copy=Count("pk", filter=Q(copy=copy)),
                        of_member=Count("pk", filter=Q(member=member)),
                    )
                )
                open_loans = desk._OPEN_LOANS.queryset(copy.pk, member.pk, copy.pk, member.pk)
                assert next(iter(open_loans), (0, 0)) == (expected["of_copy"], expected["of_member"])
                holds = Hold.objects.active().filter(
                    Q(game_id=copy.game_id, member=member) | Q(copy=copy, status=Hold.Status.READY)
                )
                assert sorted(
                    desk._CHECKOUT_HOLDS.queryset(copy.game_id, member.pk, copy.pk), key=_pk
                ) == sorted(holds, key=_pk)
    # Some of each: a copy away and one not, open loans of a copy and of a family, holds of both kinds.
    assert desk._WHEREABOUTS.get(at_table.pk) == 0
    copy, family = world["current"].copy, world["tartempion"]
    assert next(iter(desk._OPEN_LOANS.queryset(copy.pk, family.pk, copy.pk, family.pk))) == (1, 2)
    assert [hold.member for hold in desk._NEXT_WAITING_HOLD.queryset(world["quarto"].pk)] == [third]


@pytest.mark.postgresql
def test_the_late_loans_and_the_balance_a_checkout_checks_are_what_their_querysets_give(staff_user):
    """Read only for membership types that refuse late families or cap their debt (loans/services.py)."""
    import datetime
    from decimal import Decimal

    from django.utils import timezone

    from catalogue.models import Location
    from ledger import services as ledger
    from ledger.models import Entry, Kind
    from loans import desk, services
    from loans.models import Loan
    from members.models import Member
    from tests.loan_helpers import make_desk_world

    world = make_desk_world(staff_user)
    site = Location.objects.get()
    for amount, waived in ((Decimal("2.50"), False), (Decimal("4.00"), True), (Decimal("1.20"), False)):
        ledger.charge_create(
            member=world["tartempion"],
            kind=Kind.OTHER,
            amount=amount,
            staff=staff_user,
            site=site,
            waived=waived,
            note="Casse",
        )
    ledger.payment_create(
        member=world["tartempion"], amount=Decimal("1.00"), method="cash", staff=staff_user, site=site
    )
    today = timezone.localdate()
    for member in Member.objects.all():
        assert desk._BALANCE.get(member.pk) == Entry.objects.filter(member=member).balance()
        for day in (today - datetime.timedelta(days=5), today, today + datetime.timedelta(days=30)):
            expected = (
                Loan.objects.overdue(day)
                .filter(member=member)
                .select_related("copy__game")
                .order_by("due_on", "pk")
            )
            late = services.late_loans(member, day)
            assert [(loan, loan.copy.game.title) for loan in late] == [
                (loan, loan.copy.game.title) for loan in expected
            ]
    assert desk._BALANCE.get(world["tartempion"].pk) == Decimal("2.70")
    assert desk._BALANCE.get(world["bidule"].pk) == 0
    assert [loan.pk for loan in services.late_loans(world["tartempion"])] == [world["late"].pk]


def _pk(instance):
    return instance.pk


@pytest.mark.postgresql
def test_a_token_is_accepted_and_refused_as_drf_says(client, staff_user):
    """DRF's token authentication, a plain read (preparing it saved little: bench/prepared.py)."""
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=staff_user)
    response = client.get("/api/loans/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 200
    assert response.wsgi_request.user == staff_user
    unknown = client.get("/api/loans/", HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef01234567")
    # 403, not 401: the first authentication class (the session) names no challenge, as before.
    assert (unknown.status_code, unknown.json()) == (403, {"detail": "Token non valide."})
    staff_user.is_active = False
    staff_user.save(update_fields=["is_active"])
    inactive = client.get("/api/loans/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert inactive.status_code == 403
    assert inactive.json() == {"detail": "Utilisateur inactif ou supprimé."}


@pytest.mark.postgresql
def test_with_prepared_reads_off_no_statement_is_prepared_or_executed(client, db, settings):
    """PREPARED_READS=false (a pooler in transaction mode): the same answers, by plain queries only."""
    settings.PREPARED_READS = False
    catalogue = family_catalogue()
    with CaptureQueriesContext(connection) as queries:
        notice = client.get(f"{GAMES}{catalogue.chateau.slug}/").json()
        assert client.get(f"/jeux/{catalogue.chateau.slug}/").status_code == 200
        assert client.get("/api/copies/70001/").json()["barcode"] == "70001"
        found = client.get(f"{GAMES}?q=chateau&ages=8,10").json()
        page = client.get("/jeux/?q=chateau&ages=8,10")
    assert not [
        query["sql"] for query in queries if query["sql"].lstrip().upper().startswith(("EXECUTE", "PREPARE"))
    ]
    assert any(copy["due_on"] for copy in notice["copies"])
    assert catalogue.chateau.title in [game["title"] for game in found["results"]]
    assert catalogue.chateau.title in page.content.decode()


def test_the_django_internals_the_adapter_reads_are_still_there(db):
    """ludotheque/prepared.py reuses a compiler after as_sql(): what ModelIterable reads from it must
    still be filled in there. A Django upgrade that moves them fails here first."""
    queryset = Copy.objects.select_related("game").filter(barcode="x")
    compiler = queryset.query.get_compiler(using=queryset.db)
    compiler.as_sql()
    assert compiler.select and compiler.klass_info["model"] is Copy
    assert hasattr(compiler, "annotation_col_map") and hasattr(compiler, "col_count")
    assert callable(queryset._chain) and callable(queryset.query.chain)
