"""Demo stocktake: the Maison des Enfants being counted, three boxes scanned (one from the Ludobus
would say « autre site », but the demo has one site). Runs after the loans demo, which creates the
volunteer account; safe to run again (an open stocktake is left as it is)."""

from django.contrib.auth import get_user_model

from catalogue.models import Location

from .models import Stocktake
from .services import scan_record, stocktake_start

SCANNED = ["90461", "90468", "99999"]


def load(*, stdout) -> None:
    location = Location.objects.filter(name="Maison des Enfants").first()
    volunteer = get_user_model().objects.filter(username="benevole").first()
    if location is None or volunteer is None or Stocktake.objects.exists():
        return
    stocktake = stocktake_start(location=location, staff=volunteer)
    for barcode in SCANNED:
        scan_record(stocktake=stocktake, barcode=barcode, staff=volunteer)
    stdout.write(f"Inventaire en cours : {stocktake} ({len(SCANNED)} lectures)")
