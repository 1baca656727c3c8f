"""The site's URLs plus one that fails, for the error-logging tests (no page of the site fails)."""

from django.urls import path

from ludotheque.urls import urlpatterns as site_urlpatterns


def broken_view(request):
    raise ZeroDivisionError("une page en panne")


urlpatterns = [path("panne/", broken_view), *site_urlpatterns]
