# The card-table bot in a container; the database lives on the volume /data (README, "Keeping it running"):
#   docker build -t cardtable-bot .
#   docker run -d --name cardtable-bot --restart unless-stopped --env-file .env -v cardtable-data:/data cardtable-bot
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY . .
RUN pip install . \
    && useradd --system --home-dir /data --shell /usr/sbin/nologin cardtable \
    && mkdir -p /data \
    && chown cardtable:cardtable /data

# An absolute path: it does not depend on the folder the bot starts in. Relative paths would land in /data too.
ENV DATABASE_PATH=/data/bot.sqlite3
VOLUME ["/data"]
WORKDIR /data
USER cardtable

# SIGTERM (docker stop) closes the bot cleanly.
STOPSIGNAL SIGTERM
CMD ["cardtable-bot"]
