"""The floor for bench.load: the least a write request costs on this stack.

One INSERT in one transaction, through the same gunicorn, middleware and database as a
turn submission, answering a few bytes of JSON. bench.load creates the table.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt


@csrf_exempt  # a client of the benchmark, like an API client with a token, sends no CSRF token
def floor(request: HttpRequest) -> JsonResponse:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("INSERT INTO bench_floor (body) VALUES (%s) RETURNING id", [request.method])
        (row_id,) = cursor.fetchone()
    return JsonResponse({"id": row_id})
