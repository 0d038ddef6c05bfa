"""Request bodies checked against Discord's official OpenAPI specification (the pinned extract in
``tests/discord_spec/openapi-requests.json``, made by ``tools/vendor_discord_spec.py``).

A small JSON Schema validator for the keywords that document uses (``$ref``, ``type``, ``properties``, ``required``,
``additionalProperties``, ``items``, ``allOf``/``anyOf``/``oneOf``, ``enum``, ``const``, lengths, counts, bounds and
``pattern``), so that the tests need no extra dependency. ``oneOf`` is checked as ``anyOf``: Discord's document uses
it for unions whose branches overlap (it says so with ``x-discord-union``), where "exactly one" would refuse what
Discord accepts. ``format`` is not checked (Discord's snowflake pattern is); a snowflake may be a number as well as
the string the document names, as Discord accepts and discord.py sends.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

SPEC = Path(__file__).resolve().parent / "discord_spec" / "openapi-requests.json"

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
}


@functools.cache
def spec() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SPEC.read_text(encoding="utf-8"))
    return data


def shape(template: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", template)


def check_request(method: str, template: str, body: Any) -> list[str]:
    """What in ``body`` (a request to the fake's route ``template``) Discord's specification does not allow: one line
    per problem, empty when it conforms or the route has no JSON body in the specification."""
    schema = spec()["operations"].get(f"{method} {shape(template)}")
    if schema is None or body is None:
        return []
    return _errors(schema, body, "body")


def _is(kind: str, value: Any) -> bool:
    if kind == "null":
        return value is None
    if kind in ("integer", "number") and isinstance(value, bool):
        return False
    if kind == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _TYPES[kind])


def _errors(schema: Any, value: Any, where: str) -> list[str]:
    if schema is True or schema == {}:
        return []
    if schema is False:
        return [f"{where}: not allowed"]
    ref = schema.get("$ref")
    if ref is not None:
        name = ref.rsplit("/", 1)[1]
        if name == "SnowflakeType" and isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return []  # documented as a string, accepted as a number too (discord.py sends some ids so)
        return _errors(spec()["schemas"][name], value, where)
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_is(kind, value) for kind in kinds):
            return [f"{where}: {json.dumps(value)[:80]} is not of type {'/'.join(kinds)}"]
    found: list[str] = []
    for part in schema.get("allOf", ()):
        found += _errors(part, value, where)
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if branches is not None:
            # Discord's unions are told apart by their "type" field: only the branches that allow the value's.
            tries = [_errors(branch, value, where) for branch in branches if _may_be(branch, value)]
            tries = tries or [[f"{where}.type: {json.dumps(value.get('type'))} is none of the union's types"]]
            if all(tries):
                # The branch to name is one of the value's own type, whose problems lie deeper.
                deeper = [t for t in tries if not all(e.startswith(f"{where}: ") and "is not of type" in e for e in t)]
                best = min(deeper or tries, key=len)
                found.append(f"{where}: matches none of {len(branches)} shapes (nearest: {'; '.join(best[:3])})")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {json.dumps(value)[:80]} is not one of {schema['enum'][:10]}")
    if "const" in schema and value != schema["const"]:
        found.append(f"{where}: {json.dumps(value)[:80]} is not {schema['const']!r}")
    if isinstance(value, str):
        found += _bounds(where, len(value), schema, "minLength", "maxLength", "characters")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            found.append(f"{where}: {value[:80]!r} does not match {schema['pattern']}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            found.append(f"{where}: {value} is below {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            found.append(f"{where}: {value} is above {schema['maximum']}")
    if isinstance(value, list):
        found += _bounds(where, len(value), schema, "minItems", "maxItems", "items")
        items = schema.get("items")
        if items is not None:
            for i, item in enumerate(value):
                found += _errors(items, item, f"{where}[{i}]")
    if isinstance(value, dict):
        found += _object_errors(schema, value, where)
    return found


def _resolved(schema: Any) -> Any:
    while isinstance(schema, dict) and "$ref" in schema:
        schema = spec()["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _may_be(branch: Any, value: Any) -> bool:
    """Whether ``branch`` of a union can hold ``value`` as far as its ``type`` field says (else: yes)."""
    if not isinstance(value, dict) or "type" not in value:
        return True
    declared = _resolved(branch)
    kind = _resolved(declared.get("properties", {}).get("type")) if isinstance(declared, dict) else None
    if not isinstance(kind, dict):
        return True
    if "const" in kind:
        return bool(value["type"] == kind["const"])
    return "enum" not in kind or value["type"] in kind["enum"]


def _bounds(where: str, size: int, schema: dict[str, Any], low: str, high: str, unit: str) -> list[str]:
    """A size out of its bounds, said as Discord says it ("Must be between 1 and 100 in length.")."""
    least, most = schema.get(low), schema.get(high)
    if (least is None or size >= least) and (most is None or size <= most):
        return []
    if least is not None and most is not None:
        rule = f"Must be between {least} and {most} in length."
    else:
        rule = f"Must be {most} or fewer in length." if most is not None else f"Must be {least} or more in length."
    return [f"{where}: {size} {unit}. {rule}"]


def _object_errors(schema: dict[str, Any], value: dict[str, Any], where: str) -> list[str]:
    found = [f"{where}: {name!r} is required" for name in schema.get("required", ()) if name not in value]
    properties = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        if name in properties:
            found += _errors(properties[name], item, f"{where}.{name}")
        elif extra is False:
            found.append(f"{where}: {name!r} is not a field Discord knows")
        elif isinstance(extra, dict):
            found += _errors(extra, item, f"{where}.{name}")
    found += _bounds(where, len(value), schema, "minProperties", "maxProperties", "fields")
    return found
