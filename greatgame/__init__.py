"""Great Game Django project.

The Celery app is imported here so that @shared_task uses it whenever Django starts.
"""

from .celery import app as celery_app

__all__ = ("celery_app",)
