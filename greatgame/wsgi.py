"""WSGI entry point, used by gunicorn in production."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "greatgame.settings")

application = get_wsgi_application()
