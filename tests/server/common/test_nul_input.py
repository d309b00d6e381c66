"""Issue 37: a NUL character or a lone surrogate in any string a request carries (path,
query, JSON body) is a 400 on both stores, never a 500 (PostgreSQL refuses NUL in text).
Every operation of the OpenAPI document with a string parameter or body field is sent
one, signed in (so that the request would reach the store)."""

from __future__ import annotations

import json
from typing import Any

from account_helpers import signed_up
from server_helpers import ServerProcess

BAD = ("\x00", "\ud800")


def resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        node: Any = doc
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def string_fields(doc: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    """The body's top-level fields that take a string (directly or as a nullable one)."""
    schema = resolve(doc, schema)
    out = []
    for name, prop in schema.get("properties", {}).items():
        prop = resolve(doc, prop)
        kinds = [resolve(doc, p).get("type") for p in prop.get("anyOf", [prop])]
        if "string" in kinds:
            out.append(name)
    return out


def cases(doc: dict[str, Any]) -> list[tuple[str, str, str, dict[str, Any] | None, str]]:
    """(method, path, query, body, label) with a bad character in one string each."""
    found = []
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            params = op.get("parameters", [])
            filled = path
            for p in params:
                if p["in"] == "path":
                    filled = filled.replace("{" + p["name"] + "}", "x")
            for p in params:
                if resolve(doc, p.get("schema", {})).get("type") not in ("string", None):
                    continue
                if p["in"] == "path":
                    found.append((method, path.replace("{" + p["name"] + "}", "%00")
                                  .replace("{", "").replace("}", ""), "", None,
                                  f"{method} {path} path {p['name']}"))
                elif p["in"] == "query":
                    found.append((method, filled, f"{p['name']}=%00", None,
                                  f"{method} {path} query {p['name']}"))
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                for name in string_fields(doc, body["schema"]):
                    for bad in BAD:
                        found.append((method, filled, "", {name: f"a{bad}b"},
                                      f"{method} {path} body {name} {bad!r}"))
    return found


def test_nul_and_lone_surrogates_are_a_400_on_every_route(server: ServerProcess) -> None:
    me, _ = signed_up(server, "nul")
    doc = me.get("/openapi.json").json()
    sent = cases(doc)
    assert len(sent) > 40  # the walk found the routes
    answers = {}
    for method, path, query, body, label in sent:
        url = path + (f"?{query}" if query else "")
        headers = {"X-CSRF-Token": me.csrf or "", "Content-Type": "application/json"}
        content = None if body is None else json.dumps(body).encode()
        r = me.http.request(method.upper(), url, content=content, headers=headers)
        answers[label] = r.status_code
        assert r.status_code == 400, (label, r.status_code, r.text)
        assert "NUL" in r.json()["detail"] or "surrogate" in r.json()["detail"]
    assert me.me() is not None  # nothing went wrong with the session either


def test_the_probes_of_the_report(server: ServerProcess) -> None:
    me, _ = signed_up(server, "nul")
    for path in ("/api/events/%00", "/api/players/%00", "/api/players/a%00b?x=1",
                 "/api/leaderboard/x?offset=%00"):
        r = me.get(path)
        assert r.status_code == 400, (path, r.text)
    for route, field in (("/api/account/signin", "name"), ("/api/account/forgot", "name"),
                         ("/api/friends/follow", "name"), ("/api/friends/block", "name"),
                         ("/api/friends/report", "name"), ("/api/friends/invite", "name"),
                         ("/api/account/email", "email")):
        r = me.post(route, {field: "bad\x00name", "password": "x", "invite": "x"})
        assert r.status_code == 400, (route, r.text)
    # JSON nested past any form of the API: 400 too
    deep = "[" * 5000 + "]" * 5000
    r = me.http.post("/api/account/signin", content=deep.encode(),
                     headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text
