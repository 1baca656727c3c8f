"""The opening calendar in the admin: hours and closures on each site's page, and every closure listed.

The sites are the catalogue's; their admin is extended here (the catalogue does not know this app).
"""

from django.contrib import admin

from catalogue.access import LibrarianAccessMixin
from catalogue.admin import LocationAdmin
from catalogue.models import Location

from .models import Closure, OpeningHours


class OpeningHoursInline(LibrarianAccessMixin, admin.TabularInline):
    model = OpeningHours
    extra = 1


class ClosureInline(LibrarianAccessMixin, admin.TabularInline):
    model = Closure
    extra = 1
    fields = ["first_day", "last_day", "reason"]


class LocationWithCalendarAdmin(LocationAdmin):
    inlines = [*LocationAdmin.inlines, OpeningHoursInline, ClosureInline]


admin.site.unregister(Location)
admin.site.register(Location, LocationWithCalendarAdmin)


@admin.register(Closure)
class ClosureAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["reason", "location", "first_day", "last_day"]
    list_filter = ["location"]
    date_hierarchy = "first_day"
    search_fields = ["reason"]
    list_select_related = ["location"]
