from django.urls import path

from . import views

app_name = "events"

urlpatterns = [
    path("animations/", views.event_list, name="event-list"),
    path("animations/calendrier.ics", views.calendar_feed, name="calendar-feed"),
    path("animations/<int:pk>/", views.event_detail, name="event-detail"),
    path("compte/animations/<int:pk>/annuler/", views.account_booking_cancel, name="account-booking-cancel"),
    path("comptoir/animations/", views.desk_event_list, name="desk-event-list"),
    path("comptoir/animations/<int:pk>/", views.desk_event, name="desk-event"),
    path("comptoir/animations/<int:pk>/annuler/", views.desk_event_cancel, name="desk-event-cancel"),
    path(
        "comptoir/animations/reservations/<int:pk>/presence/", views.desk_attendance, name="desk-attendance"
    ),
    path(
        "comptoir/animations/reservations/<int:pk>/annuler/",
        views.desk_booking_cancel,
        name="desk-booking-cancel",
    ),
]
