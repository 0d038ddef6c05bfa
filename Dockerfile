# The card-table bot in a container; the database lives on the volume /data (README, "Keeping it running"):
#   docker build -t cardtable-bot .
#   docker run -d --name cardtable-bot --restart unless-stopped --env-file .env -v cardtable-data:/data cardtable-bot
# --env-file reads .env as the bot does (one NAME=value a line, taken literally, a pair of quotes around a value
# removed by the bot): a line the two would read differently, such as `NAME=value  # comment`, stops the bot with
# status 2 and one line naming the setting, whichever of the two read it.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    NO_COLOR=1

# A fixed user id, so that a volume or a bind-mounted folder can be given to it (chown 10001:10001) and keeps
# working across rebuilds.
RUN groupadd --system --gid 10001 cardtable \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --shell /usr/sbin/nologin cardtable \
    && mkdir -p /data \
    && chown cardtable:cardtable /data

WORKDIR /app
# The dependencies first, in their own layer: a change to the bot's code rebuilds only the layers below. Every
# optional part (PostgreSQL, the speed-ups) is in the image, at the versions of requirements.lock.
COPY pyproject.toml requirements.lock ./
RUN python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
print('\n'.join(p['dependencies'] + p['optional-dependencies']['postgres'] + p['optional-dependencies']['speed']))" \
        > /tmp/requirements.txt \
    && pip install -c requirements.lock -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt
COPY . .
RUN pip install --no-deps . && rm -rf build

# An absolute path: it does not depend on the folder the bot starts in. Relative paths would land in /data too.
ENV DATABASE_PATH=/data/bot.sqlite3 \
    METRICS_PORT=9100
# Metrics (/metrics) and the health check (/health) inside the container; publish it (-p 9100:9100) only to scrape it.
EXPOSE 9100
VOLUME ["/data"]
WORKDIR /data
USER cardtable

# Unhealthy when the gateway or the database is down (or METRICS_PORT was emptied: then there is nothing to check).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; port = os.environ.get('METRICS_PORT', '').strip().strip('\"\\''); sys.exit(0) if not port else urllib.request.urlopen(f'http://127.0.0.1:{port}/health', timeout=4)"]

# SIGTERM (docker stop) closes the bot cleanly.
STOPSIGNAL SIGTERM
CMD ["cardtable-bot"]
