from django.core.management.base import BaseCommand

from loans import services
from loans.models import Hold


class Command(BaseCommand):
    help = "Close the ready holds not collected by their date and pass their copies on (run daily)."

    def handle(self, *args, **options):
        expired = 0
        for hold in Hold.objects.past_pickup().order_by("ready_until", "pk"):
            next_hold = services.hold_expire(hold=hold)
            expired += 1
            if next_hold is not None:
                self.stdout.write(
                    f"{hold.game}: copy {next_hold.copy.barcode} now set aside for {next_hold.member}."
                )
        self.stdout.write(f"{expired} hold(s) expired.")
