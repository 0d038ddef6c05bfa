"""Vendor the part of Discord's official OpenAPI specification the fake Discord checks request bodies against.

Discord publishes its HTTP API as an OpenAPI 3.1 document (github.com/discord/discord-api-spec, ``specs/openapi.json``,
MIT licensed; also on npm as ``discord-api-spec``). The whole document is 1.2 MB; the tests need the request bodies
of the routes the fake serves and the schemas they refer to. This script keeps those (their ``$ref`` closure) and
writes ``tests/discord_spec/openapi-requests.json`` with the commit it came from::

    git clone https://github.com/discord/discord-api-spec /tmp/spec
    python tools/vendor_discord_spec.py /tmp/spec/specs/openapi.json <commit>

Run it again (with the new commit) to move the pin.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

TARGET = Path(__file__).resolve().parent.parent / "tests" / "discord_spec" / "openapi-requests.json"
FAKE = Path(__file__).resolve().parent.parent / "tests" / "fake_discord.py"


def shape(template: str) -> str:
    """A path with its parameters' names left out: the fake and the spec name them differently."""
    return re.sub(r"\{[^}]+\}", "{}", template)


def fake_routes() -> set[tuple[str, str]]:
    text = FAKE.read_text(encoding="utf-8")
    return {(m, shape(p)) for m, p in re.findall(r'@_route\("([A-Z]+)", "([^"]+)"', text)}


def refs(schema: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str):
            found.add(ref.rsplit("/", 1)[1])
        for value in schema.values():
            found |= refs(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= refs(value)
    return found


def main(spec_path: str, commit: str) -> None:
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    wanted = fake_routes()
    operations: dict[str, Any] = {}
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            body = operation.get("requestBody", {}) if isinstance(operation, dict) else {}
            schema = body.get("content", {}).get("application/json", {}).get("schema")
            if schema is not None and (method.upper(), shape(path)) in wanted:
                operations[f"{method.upper()} {shape(path)}"] = schema
    schemas: dict[str, Any] = {}
    todo = refs(operations)
    while todo:
        name = todo.pop()
        if name not in schemas:
            schemas[name] = spec["components"]["schemas"][name]
            todo |= refs(schemas[name])
    out = {
        "source": "https://github.com/discord/discord-api-spec/blob/" + commit + "/specs/openapi.json",
        "commit": commit,
        "openapi": spec["openapi"],
        "api_version": spec["info"]["version"],
        "operations": dict(sorted(operations.items())),
        "schemas": dict(sorted(schemas.items())),
    }
    TARGET.write_text(json.dumps(out, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"{len(operations)} operations, {len(schemas)} schemas -> {TARGET}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
