"""Discord's message/component/embed limits, enforced like the real API.

Violations are reported the way Discord does: HTTP 400 with JSON error code
50035 ("Invalid Form Body") and an ``errors`` tree naming the field, so the
bot sees a genuine ``discord.HTTPException`` with ``code == 50035``.
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]

MAX_CONTENT = 2000
MAX_ACTION_ROWS = 5
MAX_ROW_ITEMS = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_EMBEDS = 10
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR = 256
MAX_EMBED_TOTAL = 6000


def _embed_errors(index: int, embed: JSON) -> list[str]:
    errors: list[str] = []
    where = f"embeds.{index}"
    title = embed.get("title") or ""
    description = embed.get("description") or ""
    fields = embed.get("fields") or []
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    if len(title) > MAX_EMBED_TITLE:
        errors.append(f"{where}.title: must be {MAX_EMBED_TITLE} or fewer in length")
    if len(description) > MAX_EMBED_DESCRIPTION:
        errors.append(f"{where}.description: must be {MAX_EMBED_DESCRIPTION} or fewer in length")
    if len(fields) > MAX_EMBED_FIELDS:
        errors.append(f"{where}.fields: must be {MAX_EMBED_FIELDS} or fewer in length")
    if len(footer) > MAX_FOOTER:
        errors.append(f"{where}.footer.text: must be {MAX_FOOTER} or fewer in length")
    if len(author) > MAX_AUTHOR:
        errors.append(f"{where}.author.name: must be {MAX_AUTHOR} or fewer in length")
    total = len(title) + len(description) + len(footer) + len(author)
    for j, fld in enumerate(fields):
        name = fld.get("name") or ""
        value = fld.get("value") or ""
        if not name or not value:
            errors.append(f"{where}.fields.{j}: name and value are required")
        if len(name) > MAX_FIELD_NAME:
            errors.append(f"{where}.fields.{j}.name: must be {MAX_FIELD_NAME} or fewer")
        if len(value) > MAX_FIELD_VALUE:
            errors.append(f"{where}.fields.{j}.value: must be {MAX_FIELD_VALUE} or fewer")
        total += len(name) + len(value)
    return errors if total <= MAX_EMBED_TOTAL else [*errors, f"{where}: total size > 6000"]


def _component_errors(components: list[JSON], where: str, *, top: bool) -> list[str]:
    errors: list[str] = []
    rows = [c for c in components if c.get("type") == 1]
    if top and len(rows) > MAX_ACTION_ROWS:
        errors.append(f"{where}: must be {MAX_ACTION_ROWS} or fewer action rows")
    for i, comp in enumerate(components):
        here = f"{where}.{i}"
        custom_id = comp.get("custom_id")
        if custom_id is not None and not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
            errors.append(f"{here}.custom_id: must be 1-{MAX_CUSTOM_ID} in length")
        if comp.get("type") == 2:
            label = comp.get("label") or ""
            if len(label) > MAX_BUTTON_LABEL:
                errors.append(f"{here}.label: must be {MAX_BUTTON_LABEL} or fewer in length")
            # Link (5) and premium (6) buttons carry no custom_id; others need one.
            if comp.get("style") not in (5, 6) and not custom_id:
                errors.append(f"{here}.custom_id: required for non-link buttons")
        if comp.get("type") == 4:
            label = comp.get("label") or ""
            if len(label) > 45:
                errors.append(f"{here}.label: must be 45 or fewer in length")
        children = comp.get("components")
        if isinstance(children, list):
            if comp.get("type") == 1 and len(children) > MAX_ROW_ITEMS:
                errors.append(f"{here}.components: must be {MAX_ROW_ITEMS} or fewer in length")
            errors += _component_errors(children, f"{here}.components", top=False)
        child = comp.get("component")
        if isinstance(child, dict):
            errors += _component_errors([child], f"{here}.component", top=False)
    return errors


def message_errors(data: JSON) -> list[str]:
    """Everything wrong with a message-like payload (empty list if valid)."""
    errors: list[str] = []
    content = data.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        errors.append(f"content: must be {MAX_CONTENT} or fewer in length")
    embeds = data.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        errors.append(f"embeds: must be {MAX_EMBEDS} or fewer in length")
    total = 0
    for i, embed in enumerate(embeds):
        errors += _embed_errors(i, embed)
        total += sum(len(embed.get(k) or "") for k in ("title", "description")) + sum(
            len(f.get("name") or "") + len(f.get("value") or "") for f in embed.get("fields") or []
        )
    if total > MAX_EMBED_TOTAL:
        errors.append("embeds: combined size of all embeds must be 6000 or fewer")
    errors += _component_errors(data.get("components") or [], "components", top=True)
    return errors


def invalid_form_body(errors: list[str]) -> JSON:
    """Discord's 50035 error body, keyed by field path as discord.py flattens it."""
    tree: JSON = {}
    for error in errors:
        path, _, message = error.partition(": ")
        entry = tree.setdefault(path, {"_errors": []})
        entry["_errors"].append({"code": "BASE_TYPE_BAD_LENGTH", "message": message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": tree}
