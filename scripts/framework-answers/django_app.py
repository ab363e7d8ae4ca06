"""A one-view Django project at Django's shipped defaults, served by Django's own runserver, to
capture the answer Django gives to a request body over DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB).

    /usr/bin/python3 django_app.py PORT debug|production

Used by capture.ts only (CI does not have Django).
"""

import json
import sys

from django.conf import settings

settings.configure(
    DEBUG=sys.argv[2] == "debug",
    ALLOWED_HOSTS=["127.0.0.1"],
    ROOT_URLCONF=__name__,
    SECRET_KEY="capture-only",
    MIDDLEWARE=[],
)

from django.core.management import execute_from_command_line  # noqa: E402
from django.http import JsonResponse  # noqa: E402
from django.urls import path  # noqa: E402
from django.views.decorators.csrf import csrf_exempt  # noqa: E402


@csrf_exempt
def agent(request):
    json.loads(request.body)
    return JsonResponse({"replies": []})


urlpatterns = [path("agent", agent)]

if __name__ == "__main__":
    execute_from_command_line(["django_app.py", "runserver", "--noreload", "--nothreading", "127.0.0.1:%s" % sys.argv[1]])
