"""Every rules page stays light enough to open quickly on a tablet over a slow network."""

import gzip

import pytest
from django.urls import reverse

from rules.models import RulePage
from rules.pages.services import rule_pages_load

pytestmark = pytest.mark.django_db

# What a tablet on a slow connection downloads (gzip, as the site serves it) and what it must lay out.
GZIP_LIMIT = 60 * 1024
HTML_LIMIT = 120 * 1024


def test_every_rules_page_is_light_to_download_and_to_lay_out(client):
    rule_pages_load()
    slugs = list(RulePage.objects.values_list("slug", flat=True))
    assert "railroad-ink" in slugs and len(slugs) >= 14
    for slug in slugs:
        html = client.get(reverse("rules:page-detail", args=[slug])).content
        assert len(gzip.compress(html)) <= GZIP_LIMIT, f"{slug}: {len(gzip.compress(html))} bytes gzipped"
        assert len(html) <= HTML_LIMIT, f"{slug}: {len(html)} bytes of HTML"
