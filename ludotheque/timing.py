"""`Server-Timing` for the benchmarks: how long a request spent in SQL, beside its whole time.

On when `SERVER_TIMING=true` (bench/search.py and bench/desk.py set it; production leaves it off, as
the header tells anyone how long the database took). Each response then carries
`Server-Timing: db;dur=1.23;desc="2 queries", app;dur=9.87` (milliseconds, the W3C header that
browsers' developer tools show): the time the database driver took to answer, every connection
counted, and the time of the whole Django response.
"""

import time

from django.db import connections


class ServerTimingMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        spent = [0.0, 0]

        def timed(execute, sql, params, many, context):
            started = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                spent[0] += time.perf_counter() - started
                spent[1] += 1

        started = time.perf_counter()
        wrappers = [connection.execute_wrapper(timed) for connection in connections.all()]
        for wrapper in wrappers:
            wrapper.__enter__()
        try:
            response = self.get_response(request)
        finally:
            for wrapper in reversed(wrappers):
                wrapper.__exit__(None, None, None)
        total = time.perf_counter() - started
        response["Server-Timing"] = (
            f'db;dur={spent[0] * 1000:.2f};desc="{spent[1]} queries", app;dur={total * 1000:.2f}'
        )
        return response
