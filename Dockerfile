FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONPATH=/app

WORKDIR /app
COPY . .
# libcairo2: cairosvg draws the replay pictures (PNG and GIF) from the board SVG.
RUN apt-get update && apt-get install -y --no-install-recommends libcairo2 \
    && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir . \
    && DEBUG=0 SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
    && useradd --system --home /app greatgame \
    && chown -R greatgame /app/var

USER greatgame
EXPOSE 8000
# gunicorn.conf.py: gunicorn's lines and the application's go to stdout as JSON lines.
CMD ["gunicorn", "greatgame.wsgi", "--config", "gunicorn.conf.py", "--workers", "3"]
