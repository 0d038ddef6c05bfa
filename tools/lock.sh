#!/usr/bin/env sh
# Refresh requirements.lock: the newest versions pyproject.toml's ranges allow, for every supported Python (3.11 and
# newer) on Linux, macOS and Windows, every extra included. Review the diff, run the tests, commit both together.
#   sh tools/lock.sh            (needs nothing but Python: uv, pinned below, is installed into a throwaway venv)
set -eu
cd "$(dirname "$0")/.."
UV_VERSION=0.13.8
venv="${TMPDIR:-/tmp}/cardtable-lock-venv"
[ -x "$venv/bin/uv" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet "uv==$UV_VERSION"; }
"$venv/bin/uv" pip compile pyproject.toml --universal --python-version 3.11 --all-extras \
    --no-header --annotation-style line --output-file requirements.lock "$@"
# The first lines say what the file is; uv's own header would name this machine's paths.
{ printf '%s\n' "# Exact versions of every dependency, tested together; made by tools/lock.sh (uv $UV_VERSION, --universal:" \
    "# Python 3.11 and newer on Linux, macOS and Windows). Used as pip constraints: pip install -c requirements.lock ." \
    "# installs only what is asked for, at these versions."; cat requirements.lock; } > requirements.lock.new
mv requirements.lock.new requirements.lock
