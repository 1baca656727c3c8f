"""The whole API fuzzed from its own OpenAPI schema (/api/schema/) by schemathesis, as a librarian's
token: no generated request, valid or not, may get a 5xx or a response the schema does not describe.

Bounded and repeatable: EXAMPLES per operation (about 1,000 requests in all) from a fixed seed.
"""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests.loan_helpers import make_desk_world

EXAMPLES = 40


# The schema as the site serves it; every request goes through the site's WSGI application, here.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.fixture
def same_connection():
    """As Django's test client does: the test's transaction outlives each request."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def world(staff_user, settings_for_fuzzing):
    """A little of everything for the generated requests to find: games, copies, families, loans, holds."""
    return make_desk_world(staff_user)


@pytest.fixture
def settings_for_fuzzing(settings):
    # The throttles stay on, at rates this burst of a thousand requests does not reach.
    settings.API_THROTTLE_RATES = {scope: "100000/minute" for scope in settings.API_THROTTLE_RATES}


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    derandomize=True,  # a fixed seed: the same requests every run
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@pytest.mark.django_db
def test_no_request_gets_a_server_error_or_an_undocumented_response(case, world, staff_user, same_connection):
    token = Token.objects.get_or_create(user=staff_user)[0].key
    case.call_and_validate(
        # Not requests' default "gzip, deflate": through WSGI nothing would decompress the gzipped
        # answers (tests/test_compression.py covers the compression).
        headers={"Authorization": f"Token {token}", "Accept-Encoding": "identity"},
        checks=[not_a_server_error, response_schema_conformance],
    )
