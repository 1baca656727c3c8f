"""Responses on the way out: the pages and the API gzipped, a notice answered 304 when unchanged."""

import gzip
import json

import pytest
from django.conf import settings

from tests.search_helpers import family_catalogue

BROWSER = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br, zstd"}
NOTICE = "/api/games/le-chateau-des-dragons/"


@pytest.fixture
def catalogue(db):
    return family_catalogue()


def test_a_browser_gets_a_gzipped_notice_and_game_page(client, catalogue):
    plain = client.get(NOTICE)
    assert "Content-Encoding" not in plain and "Accept-Encoding" in plain["Vary"]
    zipped = client.get(NOTICE, **BROWSER)
    assert zipped["Content-Encoding"] == "gzip"
    assert int(zipped["Content-Length"]) < len(plain.content)
    assert json.loads(gzip.decompress(zipped.content)) == plain.json()
    page = client.get("/jeux/le-chateau-des-dragons/", **BROWSER)
    assert page["Content-Encoding"] == "gzip" and page["Content-Type"].startswith("text/html")
    assert "Le Château des Dragons" in gzip.decompress(page.content).decode()


def test_the_same_notice_asked_again_with_its_etag_is_a_304(client, catalogue):
    for headers in ({}, BROWSER):  # the ETag of a gzipped answer is weak (W/"…"): it matches as well
        first = client.get(NOTICE, **headers)
        again = client.get(NOTICE, HTTP_IF_NONE_MATCH=first["ETag"], **headers)
        assert again.status_code == 304 and again.content == b""
    # Once the notice changed, the old ETag gets the new notice.
    catalogue.chateau.copies.get(barcode="70001").delete()
    changed = client.get(NOTICE, HTTP_IF_NONE_MATCH=first["ETag"], **BROWSER)
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_static_files_are_left_to_whitenoise_which_serves_them_compressed():
    middleware = settings.MIDDLEWARE
    whitenoise = middleware.index("whitenoise.middleware.WhiteNoiseMiddleware")
    gzip_middleware = middleware.index("django.middleware.gzip.GZipMiddleware")
    conditional = middleware.index("django.middleware.http.ConditionalGetMiddleware")
    assert whitenoise < gzip_middleware < conditional
