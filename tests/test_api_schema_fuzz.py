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
from tests.test_bad_input import BAD_VALUES as PAGE_BAD_VALUES

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


# --- every parameter of every operation, with the shapes that crashed views ---------------------------

# The shapes that crashed views (tests/test_bad_input.py sends the same to the main pages), and a lone
# surrogate's escape.
BAD_VALUES = [*PAGE_BAD_VALUES, "\\ud800"]
# Where a parameter is not the one under test, a value that reaches the view.
PATH_VALUES = {"slug": "quarto", "barcode": "90461"}


def parameters(operation) -> list[tuple[str, str]]:
    """(location, name) of every parameter of the operation a client writes: path, query, body fields."""
    found = [
        (parameter.location.value, parameter.name)
        for parameter in operation.iter_parameters()
        if parameter.location.value in ("path", "query")
    ]
    for body in operation.body:
        for name, field in body.resolved_schema.get("properties", {}).items():
            if not field.get("readOnly") and ("body", name) not in found:
                found.append(("body", name))
    return found


SWEEP = [
    pytest.param(
        result.ok(), location, name, id=f"{result.ok().method.upper()} {result.ok().path} {location}:{name}"
    )
    for result in schema.get_all_operations()
    for location, name in parameters(result.ok())
]


@pytest.mark.django_db
@pytest.mark.parametrize(("operation", "location", "name"), SWEEP)
def test_no_parameter_of_any_operation_crashes_on_a_nul_byte_a_long_value_or_foreign_digits(
    operation, location, name, world, staff_user, same_connection
):
    token = Token.objects.get_or_create(user=staff_user)[0].key
    path_values = {"id": str(world["late"].pk), **PATH_VALUES}
    media_types = [body.media_type for body in operation.body if body.media_type != "multipart/form-data"]
    for value in BAD_VALUES:
        path = {
            parameter.name: path_values.get(parameter.name, "1")
            for parameter in operation.iter_parameters()
            if parameter.location.value == "path"
        }
        query, body = {}, {}
        {"path": path, "query": query, "body": body}[location][name] = value
        for media_type in media_types or [None]:
            case = operation.Case(
                path_parameters=path,
                query=query,
                **({"body": body, "media_type": media_type} if media_type else {}),
            )
            response = case.call(headers={"Authorization": f"Token {token}", "Accept-Encoding": "identity"})
            assert response.status_code < 500, (value[:20], media_type, response.text[:500])
            case.validate_response(response, checks=[not_a_server_error, response_schema_conformance])
