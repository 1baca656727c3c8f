"""What clerks and families do through the site: a visit at the desk, an evening at home, the till.

Who comes and what they reach for is read from the database (the shelves as anyone can see them);
every act goes through the site's API or pages, and the run's own book (`Run.book`) is kept from
what the site answered, to be compared with the ledger.
"""

import datetime
import random
from decimal import Decimal

from .http import Breach, Client

# A loan's entries that are not what its return charged: the fee and the deposit of its lend, the
# deposit handed back.
LEND_AND_DEPOSIT = {"loan_fee", "deposit_received", "deposit_returned"}
# The chance a kit on its shelf is borrowed by a school at an opening.
KIT_CHANCE = 0.2
# The chance a family at home books a giant game for dates.
BOOKING_CHANCE = 0.08
# The most copies a crate takes (loans/transfers.py, MAX_SHIPMENT_COPIES).
CRATE = 200


def desk_visit(run, clerk: Client, member_id: int, site: int, day: datetime.date, rng: random.Random) -> None:
    """A family at the desk: card scanned, games back (pieces checked), money, membership, new games."""
    family = run.world.families[member_id]
    found = clerk.api("carte scannée", "GET", f"/api/members/?card_barcode={family['card']}")
    if found.status_code != 200 or found.json()["count"] != 1:
        raise Breach(f"card {family['card']} not found: {found.status_code}")
    for loan in run.open_loans(member_id, site):
        late = loan["due_on"] < day
        if loan["due_on"] <= day + datetime.timedelta(days=3) or rng.random() < 0.25 or late:
            _give_back(run, clerk, loan, rng)
    _bring_back_pieces(run, clerk, member_id, rng)
    member = run.member_row(member_id)
    if member["membership_expiry"] <= day + datetime.timedelta(days=14) and not family["lapses"]:
        _renew_membership(run, clerk, member_id, site)
    owed = run.book_owed(member_id)
    if owed > 0:
        _pay(run, clerk, member_id, site, owed)
    if run.member_row(member_id)["membership_expiry"] < day:
        return
    for booking in run.bookings_to_hand_out(member_id, site, day):
        _hand_out(run, clerk, member_id, site, booking)
    _borrow(run, clerk, member_id, site, day, rng)


def _hand_out(run, clerk: Client, member_id: int, site: int, booking: int) -> None:
    """The family collects the giant game it booked: lent until the booking's last day, its deposit paid."""
    answer = clerk.api(
        "réservation à date remise",
        "POST",
        f"/api/date-bookings/{booking}/hand-out/",
        {"deposit_method": "cash"},
    )
    if answer.status_code == 201:
        run.after_lend(answer.json(), member_id, site)
        run.count("date bookings handed out")
    elif answer.status_code in (400, 409):  # its quota reached, the copy not back yet…
        run.refusal("réservation à date remise", answer)
    else:
        run.expect(answer, 201, "réservation à date remise")


def _give_back(run, clerk: Client, loan: dict, rng: random.Random) -> None:
    draw = rng.random()
    if draw < run.params.lost:
        answer = clerk.api("jeu perdu", "POST", f"/api/loans/{loan['id']}/lost/", {})
        run.expect(answer, 200, "jeu perdu")
        run.after_return(loan, answer.json(), lost=True)
        return
    missing = []
    if draw < run.params.lost + run.params.incomplete:
        component, quantity = rng.choice(run.world.copies[loan["copy"]]["pieces"])
        missing = [{"component": component, "quantity": 1}]
    answer = clerk.api("retour", "POST", f"/api/loans/{loan['id']}/return/", {"missing": missing})
    if answer.status_code == 400 and loan["id"] in run.loans:
        # The first send went through but its answer was lost (a worker killed): read what it did.
        done = clerk.api("retour (vérifié)", "GET", f"/api/loans/{loan['id']}/").json()
        if done["returned_at"]:
            entries = clerk.api("retour (vérifié)", "GET", f"/api/ledger/?loan={loan['id']}").json()[
                "results"
            ]
            done["charges"] = [entry for entry in entries if entry["kind"] not in LEND_AND_DEPOSIT]
            done["deposits_returned"] = [entry for entry in entries if entry["kind"] == "deposit_returned"]
            run.count("returns confirmed after a lost answer")
            run.after_return(loan, done, lost=False)
            return
    run.expect(answer, 200, "retour")
    run.after_return(loan, answer.json(), lost=False)


def _bring_back_pieces(run, clerk: Client, member_id: int, rng: random.Random) -> None:
    for piece in run.missing_pieces(member_id):
        if rng.random() < 0.4:
            answer = clerk.form(
                "pièce rapportée",
                f"/comptoir/pieces-manquantes/{piece}/rapportee/",
                {},
                page="/comptoir/incomplets/",
            )
            run.expect(answer, 302, "pièce rapportée")
            run.count("pieces brought back")
            _credit_back(run, clerk, member_id)


def _credit_back(run, clerk: Client, member_id: int) -> None:
    """A piece brought back credits back its charge: the book learns it from the family's entries."""
    entries = clerk.api("écritures", "GET", f"/api/ledger/?member={member_id}&kind=missing_piece").json()
    for entry in entries["results"]:
        if entry["reverses"] and run.first_seen(entry["id"]):
            run.book_add(member_id, Decimal(entry["balance_change"]))


def _renew_membership(run, clerk: Client, member_id: int, site: int) -> None:
    kind = run.world.families[member_id]["type"]
    answer = clerk.form(
        "adhésion renouvelée",
        f"/comptoir/familles/{member_id}/adhesion/",
        {"membership_type": kind, "method": "cash", "site": site},
    )
    if answer.status_code != 302:
        run.expect(answer, 302, "adhésion renouvelée")
        return
    price = run.world.types[kind]["price"]
    run.book_add(member_id, price)
    # As the desk does (ledger.services.membership_renew): a family with a credit pays only the rest.
    due = min(price, run.book_owed(member_id))
    if due > 0:
        run.book_add(member_id, -due)
        run.cash_add(site, due)
    run.count("memberships renewed")


def _pay(run, clerk: Client, member_id: int, site: int, amount: Decimal) -> None:
    body = {"member": member_id, "kind": "payment", "amount": str(amount), "method": "cash", "site": site}
    body["once"] = run.uuid()
    answer = clerk.api("paiement", "POST", "/api/ledger/", body)
    if answer.status_code == 200:  # the same token sent again (a connection lost): the entry first added
        run.count("payments answered from their token")
    elif answer.status_code != 201:
        run.expect(answer, 201, "paiement")
        return
    run.book_add(member_id, -amount)
    run.cash_add(site, amount)
    run.count("payments")


def _borrow(run, clerk: Client, member_id: int, site: int, day: datetime.date, rng: random.Random) -> None:
    wanted = [barcode for barcode in run.ready_for(member_id, site)]
    room = run.params.quota - len(run.open_loans(member_id, None)) - len(wanted)
    if room > 0:
        wanted += run.pick_from_shelf(site, rng.randint(1, min(room, 3)), rng)
    for barcode in wanted:
        lend(run, clerk, member_id, barcode, site)


def lend(run, clerk: Client, member_id: int, barcode: str, site: int) -> bool:
    """Lend one copy at `site`'s desk; a lost answer is checked by reading the copy's open loan (one open
    loan a copy)."""
    body = {"barcode": barcode, "member": member_id}
    if run.world.copies[run.copy_id(barcode)]["deposit"]:
        body["deposit_method"] = "cash"  # a giant game: its deposit, paid in cash at the desk
    try:
        answer = clerk.api("prêt", "POST", "/api/loans/", body)
    except Exception:  # noqa: BLE001 — the connection never came back: the desk reads what happened
        answer = None
    if answer is not None and answer.status_code == 201:
        run.after_lend(answer.json(), member_id, site)
        return True
    if answer is not None and answer.status_code not in (400, 409):
        run.expect(answer, 201, "prêt")
    current = clerk.api("prêt (vérifié)", "GET", f"/api/loans/?barcode={barcode}&open=true").json()["results"]
    if current and current[0]["member"] == member_id and current[0]["id"] not in run.loans:
        run.count("loans confirmed after a lost answer")
        run.after_lend(current[0], member_id, site)
        return True
    run.refusal("prêt", answer)
    return False


def crates_in(run, clerk: Client, site: int) -> None:
    """The opening starts: the crates sent here since the last one are unpacked, each copy scanned in
    (a hold becomes ready here, or the copy goes on the shelf, or on to its next place)."""
    for line in _transfers(clerk, f"to_site={site}&state=in_transit"):
        answer = clerk.api(
            "transfert reçu", "POST", "/api/transfers/receive/", {"barcode": line["barcode"], "site": site}
        )
        run.expect(answer, 200, "transfert reçu")
        run.count("copies received from another site")


def crates_out(run, clerk: Client, site: int) -> None:
    """The opening ends: what must leave for another site (a hold collected there, a copy going home)
    goes in one crate per site, sent with the day's shuttle."""
    going: dict[int, list[str]] = {}
    for line in _transfers(clerk, f"from_site={site}&state=to_send"):
        going.setdefault(line["to_site"], []).append(line["barcode"])
    for to_site, barcodes in sorted(going.items()):
        for start in range(0, len(barcodes), CRATE):
            crate = barcodes[start : start + CRATE]
            answer = clerk.api(
                "caisse envoyée",
                "POST",
                "/api/shipments/",
                {"from_site": site, "to_site": to_site, "barcodes": crate},
            )
            run.expect(answer, 201, "caisse envoyée")
            run.count("crates sent")
            run.count("copies sent to another site", len(crate))


def _transfers(clerk: Client, query: str) -> list[dict]:
    lines, url = [], f"/api/transfers/?{query}"
    while url:
        page = clerk.api("transferts", "GET", url).json()
        lines += page["results"]
        url = page["next"] and page["next"][page["next"].index("/api/") :]
    return lines


def kits_at_desk(run, clerk: Client, site: int, day: datetime.date, rng: random.Random) -> None:
    """A school brings back its kit when it is due (now and then late), or takes one from the shelf."""
    for kit, row in sorted(run.world.kits.items()):
        if row["site"] != site:
            continue
        out = run.kit_loans.get(kit)
        if out is not None:
            if out["due_on"] <= day + datetime.timedelta(days=3) and rng.random() >= run.params.late:
                _kit_back(run, clerk, kit, out)
        elif run.world.groups and rng.random() < KIT_CHANCE:
            _kit_out(run, clerk, kit, rng.choice(run.world.groups), site)


def _kit_out(run, clerk: Client, kit: int, group: int, site: int) -> None:
    """The kit goes as one: each copy's loan, its giant game's deposit in cash, read back from the desk's
    list of the school's loans (also what tells a lend whose answer was lost)."""
    answer = clerk.api(
        "malle prêtée", "POST", f"/api/kits/{kit}/lend/", {"member": group, "deposit_method": "cash"}
    )
    loans = []
    for copy in run.world.kits[kit]["copies"]:
        barcode = run.world.copies[copy]["barcode"]
        found = clerk.api("malle prêtée (prêts)", "GET", f"/api/loans/?barcode={barcode}&open=true").json()[
            "results"
        ]
        if found and found[0]["member"] == group and found[0]["id"] not in run.loans:
            loans.append(found[0])
    if not loans:
        run.expect(answer, 201, "malle prêtée")
        return
    if answer.status_code != 201:
        run.count("kits confirmed after a lost answer")
    for loan in loans:
        run.after_lend(loan, group, site)
    run.kit_loans[kit] = {
        "member": group,
        "due_on": datetime.date.fromisoformat(loans[0]["due_on"]),
        "loans": [
            {**loan, "member": group, "due_on": datetime.date.fromisoformat(loan["due_on"])} for loan in loans
        ],
    }
    run.count("kits lent")


def _kit_back(run, clerk: Client, kit: int, out: dict) -> None:
    """Every copy back complete and the material there; each loan's fees and deposit read from its entries."""
    answer = clerk.api("malle rendue", "POST", f"/api/kits/{kit}/return/", {})
    if answer.status_code != 200:
        still_out = clerk.api("malle rendue (vérifiée)", "GET", f"/api/loans/{out['loans'][0]['id']}/").json()
        if still_out["returned_at"] is None:
            run.expect(answer, 200, "malle rendue")
            return
        run.count("kit returns confirmed after a lost answer")
    for loan in out["loans"]:
        entries = clerk.api("malle rendue (écritures)", "GET", f"/api/ledger/?loan={loan['id']}").json()[
            "results"
        ]
        run.after_return(
            loan,
            {
                "charges": [entry for entry in entries if entry["kind"] not in LEND_AND_DEPOSIT],
                "deposits_returned": [entry for entry in entries if entry["kind"] == "deposit_returned"],
            },
            lost=False,
        )
    del run.kit_loans[kit]
    run.count("kits returned")


def _book_for_dates(run, send, day: datetime.date, rng: random.Random) -> None:
    """A family books a giant game for a party: two opening days of its site, one to three openings apart."""
    game, site = rng.choice(sorted(run.world.bookable.items()))
    days = run.opening_days(site, day + datetime.timedelta(days=rng.randint(2, 30)), 4)
    if len(days) < 2:
        return
    start = rng.randrange(len(days) - 1)
    end = rng.randint(start + 1, len(days) - 1)
    answer = send(
        "réservation à date",
        f"/compte/reserver-a-date/{game}/",
        {"starts_on": days[start].isoformat(), "ends_on": days[end].isoformat()},
    )
    if answer.status_code == 302:
        run.count("date bookings made")
    elif answer.status_code == 400:  # the dates taken, or the family's bookings at its quota
        run.refusal("réservation à date", answer)
    else:
        run.expect(answer, 302, "réservation à date")


def till_close(run, clerk: Client, site: int) -> None:
    """The opening ends: the cash in the drawer is counted and the till closed; the deposits still held
    stay in the drawer (its float), the rest goes to the bank."""
    counted = run.till_float(site) + run.cash_taken(site)
    kept = run.float_to_keep(site, counted)
    answer = clerk.form(
        "caisse clôturée",
        f"/comptoir/caisse/?site={site}",
        {"cash_counted": str(counted), "float_kept": str(kept)},
    )
    if answer.status_code != 302:  # a till the desk cannot close is a breach, not a refusal to live with
        raise Breach(
            f"money: the till of site {site} refused to close on {counted} ({kept} kept): {answer.text[:300]}"
        )
    run.after_till_close(site, counted, kept)


def at_home(run, family: Client, member_id: int, day: datetime.date, rng: random.Random) -> None:
    """A family at home: its account, a search, a hold on a game that is out, a renewal, its calendar."""
    account = family.page("compte", "/compte/")
    run.expect(account, 200, "compte")
    # The account page stays on the screen: its first form is sent from it, the next ones from the
    # page each answer leads back to.
    on_screen = [account]

    def send(kind: str, path: str, data: dict):
        return family.form(kind, path, data, page="/compte/", shown=on_screen.pop() if on_screen else None)

    word = rng.choice(run.words)
    run.expect(family.request("recherche (API)", "GET", f"/api/games/?q={word}&ages=8"), 200, "recherche")
    run.expect(family.request("page /jeux/", "GET", f"/jeux/?q={word}"), 200, "page /jeux/")
    if rng.random() < 0.5 and (game := run.game_all_out(rng)):
        answer = send("réservation", f"/compte/reserver/{game}/", {})
        run.expect(answer, 302, "réservation")
        run.count("holds asked")
    for hold in run.waiting_holds(member_id):
        if rng.random() < 0.08:
            answer = send("réservation annulée", f"/compte/reservations/{hold}/annuler/", {})
            run.expect(answer, 302, "réservation annulée")
            run.count("holds cancelled")
    for loan in run.open_loans(member_id, None):
        if (
            loan["renewals"] == 0
            and day <= loan["due_on"] <= day + datetime.timedelta(days=4)
            and rng.random() < 0.3
        ):
            answer = send("prolongation (famille)", f"/compte/prets/{loan['id']}/prolonger/", {})
            run.expect(answer, 302, "prolongation (famille)")
            run.count("renewals asked by families")
    if run.world.bookable and rng.random() < BOOKING_CHANCE:
        _book_for_dates(run, send, day, rng)
    token = run.calendar_token(member_id)
    if not token:
        answer = send("calendrier créé", "/compte/calendrier/", {"action": "renew"})
        run.expect(answer, 302, "calendrier créé")
    elif rng.random() < 0.3:
        run.expect(
            family.request("flux calendrier", "GET", f"/compte/calendrier/{token}.ics"),
            200,
            "flux calendrier",
        )
