FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONPATH=/app

WORKDIR /app
COPY . .
RUN pip install --no-cache-dir . \
    && DEBUG=0 SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
    && useradd --system --home /app greatgame \
    && chown -R greatgame /app/var

USER greatgame
EXPOSE 8000
CMD ["gunicorn", "greatgame.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3"]
