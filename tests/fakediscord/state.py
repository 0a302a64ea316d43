"""In-memory world of the fake Discord: users, channels, messages, interactions.

Everything here is plain data plus helpers that render it as the JSON payloads
discord.py parses.  The HTTP/gateway plumbing lives in ``server.py``; keeping
the state separate lets tests inspect it without touching aiohttp.
"""

from __future__ import annotations

import copy
import datetime as dt
import itertools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    # discord.types has import cycles that only resolve when the whole
    # discord package is imported first; type-checking-only keeps us safe.
    from discord.types.channel import DMChannel as DMChannelPayload
    from discord.types.channel import TextChannel as TextChannelPayload
    from discord.types.member import Member as MemberPayload
    from discord.types.threads import Thread as ThreadPayload
    from discord.types.user import User as UserPayload

JSON = dict[str, Any]

EPHEMERAL = 1 << 6
PUBLIC = "public"

# Discord's epoch; ids are real snowflakes so discord.py's created_at works.
_DISCORD_EPOCH_MS = 1420070400000
_counter = itertools.count(1)


def snowflake() -> int:
    """A fresh, monotonically increasing snowflake (unique across all fakes)."""
    now_ms = int(dt.datetime.now(dt.UTC).timestamp() * 1000)
    return ((now_ms - _DISCORD_EPOCH_MS) << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's formula: the shard whose gateway connection carries a guild's events."""
    return (guild_id >> 22) % shard_count


def snowflake_on_shard(shard: int, shard_count: int) -> int:
    """A fresh snowflake whose guild would live on ``shard`` of ``shard_count`` (its
    timestamp part moved back by less than ``shard_count`` ms; the counter keeps it
    unique)."""
    flake = snowflake()
    stamp = flake >> 22
    stamp -= (stamp - shard) % shard_count
    return (stamp << 22) | (flake & 0x3FFFFF)


def private(user_id: int) -> str:
    """Audience label for something only ``user_id`` can see."""
    return f"private:{user_id}"


def members_audience(user_ids: set[int]) -> str:
    """Audience label for a private thread: ``members:<id>,<id>`` (sorted)."""
    if len(user_ids) == 1:
        return private(next(iter(user_ids)))
    return "members:" + ",".join(str(u) for u in sorted(user_ids))


def audience_includes(audience: str, user_id: int) -> bool:
    """Whether ``user_id`` can see something delivered to ``audience``."""
    if audience == PUBLIC:
        return True
    kind, _, ids = audience.partition(":")
    if kind == "private":
        return ids == str(user_id)
    if kind == "members":
        return str(user_id) in ids.split(",")
    return False


@dataclass
class FakeUser:
    """A Discord account (a player, or the bot itself)."""

    id: int
    name: str
    bot: bool = False
    dms_closed: bool = False
    permissions: str | None = None
    """The member's channel permissions as Discord's decimal string; None: all."""
    locale: str = "en-US"
    """The language his client is set to: Discord sends it as every interaction's
    ``locale``."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> UserPayload:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.bot,
        }

    def member_payload(self, *, permissions: str | None = None) -> MemberPayload:
        member: MemberPayload = {
            "user": self.payload(),
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
        }
        if permissions is not None:
            member["permissions"] = permissions
        return member


@dataclass
class FakeGuild:
    """A guild the bot is in. Every fake user is a member of every guild."""

    id: int
    name: str

    def shard(self, shard_count: int) -> int:
        return shard_of(self.id, shard_count)


@dataclass
class FakeChannel:
    """A guild text channel, a DM channel (``recipient`` set) or a thread
    (``parent`` set; private threads are seen only by ``thread_members``)."""

    id: int
    name: str
    guild_id: int | None = None
    recipient: FakeUser | None = None
    parent: FakeChannel | None = None
    private_thread: bool = False
    thread_members: set[int] = field(default_factory=set)
    owner_id: int = 0
    archived: bool = False
    locked: bool = False
    deleted: bool = False
    overwrites: list[JSON] = field(default_factory=list)
    """Permission overwrites (Discord's JSON); threads inherit their parent's."""

    @property
    def is_dm(self) -> bool:
        return self.recipient is not None

    @property
    def is_thread(self) -> bool:
        return self.parent is not None

    @property
    def audience(self) -> str:
        """Who sees messages posted here."""
        if self.recipient is not None:
            return private(self.recipient.id)
        if self.private_thread:
            return members_audience(self.thread_members) if self.thread_members else "members:"
        return PUBLIC

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self, position: int = 0) -> TextChannelPayload | DMChannelPayload | ThreadPayload:
        if self.parent is not None:
            thread: ThreadPayload = {
                "id": str(self.id),
                "guild_id": str(self.guild_id),
                "parent_id": str(self.parent.id),
                "owner_id": str(self.owner_id),
                "name": self.name,
                "type": 12 if self.private_thread else 11,
                "member_count": len(self.thread_members),
                "message_count": 0,
                "total_message_sent": 0,
                "rate_limit_per_user": 0,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso_now(),
                    "locked": self.locked,
                    "invitable": False,
                },
            }
            return thread
        if self.recipient is not None:
            dm: DMChannelPayload = {
                "id": str(self.id),
                "type": 1,
                "name": "",
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
            }
            return dm
        text: TextChannelPayload = {
            "id": str(self.id),
            "type": 0,
            "name": self.name,
            "guild_id": str(self.guild_id),
            "position": position,
            "permission_overwrites": cast(Any, copy.deepcopy(self.overwrites)),
            "nsfw": False,
            "parent_id": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        return text


@dataclass
class FakeAttachment:
    id: int
    filename: str
    data: bytes = field(repr=False)  # card images would flood failure output
    url: str = field(repr=False)
    description: str = ""
    """Its alt text, as the upload's metadata gave it (screen readers read it)."""

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            **({"description": self.description} if self.description else {}),
        }


@dataclass
class FakeMessage:
    """Current state of a message as a Discord client would render it.

    ``audience`` is ``"public"`` or ``"private:<user_id>"`` (DMs and
    ephemeral responses).  ``ephemeral_for`` is set only for ephemeral ones.
    """

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    audience: str = PUBLIC
    ephemeral_for: int | None = None
    interaction_id: int | None = None
    deleted: bool = False
    loading: bool = False
    edits: int = 0
    webhook_id: int | None = None
    created: str = field(default_factory=iso_now)
    allowed_mentions: JSON | None = None
    """The ``allowed_mentions`` of the payload that last set it (None: never sent)."""
    pinged: frozenset[str] = frozenset()
    """Whom it notified when it was posted (:func:`pings`); an edit notifies nobody."""

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_for is not None

    def attachment_bytes(self, filename: str | None = None) -> bytes:
        """Bytes of the attachment called ``filename`` (or the only one)."""
        if filename is None:
            if len(self.attachments) != 1:
                raise LookupError(f"message has {len(self.attachments)} attachments")
            return self.attachments[0].data
        for att in self.attachments:
            if att.filename == filename:
                return att.data
        raise LookupError(filename)

    def mention_of_pinged(self) -> str:
        """``<@id>`` of the one user it pinged ("" if not exactly one user)."""
        users = [p.removeprefix("user:") for p in self.pinged if p.startswith("user:")]
        return f"<@{users[0]}>" if len(users) == 1 == len(self.pinged) else ""

    def custom_ids(self) -> list[str]:
        """Every custom_id in the message's components, depth first."""
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.created,
            "edited_timestamp": iso_now() if self.edits else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "pinned": False,
            "type": 0,
            "flags": self.flags,
        }
        if self.channel.guild_id is not None:
            data["guild_id"] = str(self.channel.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        return data


def iter_components(components: list[JSON]) -> list[JSON]:
    """Flatten a component tree (action rows, labels, containers, sections)."""
    out: list[JSON] = []
    for comp in components:
        out.append(comp)
        children = comp.get("components")
        if isinstance(children, list):
            out.extend(iter_components(children))
        child = comp.get("component")
        if isinstance(child, dict):
            out.extend(iter_components([child]))
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            out.extend(iter_components([accessory]))
    return out


@dataclass
class Delivery:
    """One payload the bot sent, with who can see it (for leak guards)."""

    audience: str
    payload: JSON
    attachments: list[tuple[str, bytes]]
    message_id: int | None = None
    route: str = ""

    def __repr__(self) -> str:
        files = [(name, len(blob)) for name, blob in self.attachments]
        return f"Delivery({self.audience!r}, {self.route}, {self.payload!r}, files={files})"

    # Tuple-like unpacking keeps ``for audience, payload, files in deliveries`` working.
    def __iter__(self) -> Any:
        return iter((self.audience, self.payload, self.attachments))

    def text(self) -> str:
        """Everything textual the delivery shows, for substring leak checks: the payload
        (content, embeds, components, each attachment's filename and description, i.e.
        an image's alt text) and every attached file: its name and, for text files such
        as a PHH export, its whole text; for images, any text chunks they carry."""
        import json

        parts = [json.dumps(self.payload, ensure_ascii=False)]
        for filename, blob in self.attachments:
            parts.append(filename)
            parts.append(attachment_text(blob))
        return "\n".join(parts)

    def pings(self) -> frozenset[str]:
        """Whom this message notifies, as Discord decides (:func:`pings`)."""
        return pings(self.payload)

    def links(self) -> list[str]:
        """The links a reader could click in it (:func:`links`)."""
        return links(self.payload)

    def shown(self) -> str:
        """Its content and embeds' text as a reader sees them (:func:`shown`)."""
        return shown(self.payload)


_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")
_EVERYONE = re.compile(r"@(?:everyone|here)\b")


def pings(payload: JSON) -> frozenset[str]:
    """Whom a message with this payload notifies, as Discord decides: the mentions parsed
    from its content (``<@id>`` / ``<@!id>`` as ``user:ID``, ``<@&id>`` as ``role:ID``,
    ``@everyone`` / ``@here`` as ``everyone``; embeds never ping), filtered by its
    ``allowed_mentions``. Without ``allowed_mentions`` every mention parsed pings (the bot
    may mention everyone here). Stricter than Discord in two ways: an escaped ``\\@everyone``
    counts, and so does an edit's content (on Discord an edit notifies nobody)."""
    content = str(payload.get("content") or "")
    users = set(_USER_MENTION.findall(content))
    roles = set(_ROLE_MENTION.findall(content))
    everyone = bool(_EVERYONE.search(content))
    allowed = payload.get("allowed_mentions")
    if allowed is not None:
        parse = set(allowed.get("parse") or ())
        if "users" not in parse:
            users &= {str(u) for u in allowed.get("users") or ()}
        if "roles" not in parse:
            roles &= {str(r) for r in allowed.get("roles") or ()}
        everyone = everyone and "everyone" in parse
    out = {f"user:{u}" for u in users} | {f"role:{r}" for r in roles}
    return frozenset(out | ({"everyone"} if everyone else set()))


def texts(payload: JSON) -> list[str]:
    """The markdown-rendered texts of a payload: content, and each embed's title,
    description and field values."""
    out = [str(payload.get("content") or "")]
    for embed in payload.get("embeds") or ():
        out += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        out += [str(f.get("value") or "") for f in embed.get("fields") or ()]
    return out


_MASKED_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\(<?(\w+://[^)\s>]*)>?\)?")
_AUTO_LINK = re.compile(r"(?<![\w\\])(?:https?|steam)://[^\s<]+")


def links(payload: JSON) -> list[str]:
    """The links Discord would render in a payload's content and embeds: masked links
    (``[text](url)``, brackets not escaped) and auto-linked URLs (``https://`` written
    whole; an escaped colon breaks it)."""
    found: list[str] = []
    for text in texts(payload):
        found += _MASKED_LINK.findall(text)
        found += _AUTO_LINK.findall(_MASKED_LINK.sub(" ", text))
    return found


_ESCAPE = re.compile(r"\\([^\w\s]|_)")
"""A markdown escape: a backslash before punctuation or ``_`` (Discord's italics)."""


def unescaped(text: str) -> str:
    """One text as a reader sees it: each markdown escape shown as the character."""
    return _ESCAPE.sub(r"\1", text)


def shown(payload: JSON) -> str:
    """The payload's texts as a reader sees them: markdown escapes (``\\*``) shown as the
    character they escape (the rest of the markdown is left as written)."""
    return "\n".join(_ESCAPE.sub(r"\1", t) for t in texts(payload) if t)


_CARD_RUN = re.compile(r"(?<![A-Za-z0-9?])((?:[2-9TJQKA][cdhs]|\?\?){2,})(?![A-Za-z0-9?])")


def attachment_text(blob: bytes) -> str:
    """The readable text of an attached file, for leak checks. Runs of cards written
    without spaces (PHH's ``AcKd``) are spaced out (``Ac Kd``) so a card pattern finds
    each card. Images give their embedded text chunks (PNG tEXt/iTXt); other binary
    files give nothing."""
    if blob.startswith(b"\x89PNG"):
        import io

        from PIL import Image

        with Image.open(io.BytesIO(blob)) as image:
            chunks = dict(getattr(image, "text", {}) or {})
            chunks.update({k: v for k, v in image.info.items() if isinstance(v, str)})
        return "\n".join(f"{k}: {v}" for k, v in chunks.items())
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError:
        return ""
    if "\x00" in text:
        return ""
    return _CARD_RUN.sub(
        lambda m: " ".join(m.group(1)[k : k + 2] for k in range(0, len(m.group(1)), 2)), text
    )


@dataclass
class FakeModal:
    """A modal the bot opened (callback type 9) for ``user``."""

    interaction: FakeInteraction
    custom_id: str
    title: str
    components: list[JSON]

    @property
    def user(self) -> FakeUser:
        return self.interaction.user

    def field_ids(self) -> list[str]:
        return [
            c["custom_id"]
            for c in iter_components(self.components)
            if c.get("type") == 4 and "custom_id" in c
        ]


@dataclass
class FakeInteraction:
    """An interaction the fake sent to the bot and what the bot did with it."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    user: FakeUser
    channel: FakeChannel
    created_at: float
    name: str = ""
    custom_id: str = ""
    message: FakeMessage | None = None  # message the component was on
    response_type: int | None = None
    response_error: int | None = None
    responded_at: float | None = None
    ephemeral_defer: bool = False
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    modal: FakeModal | None = None
    choices: list[JSON] | None = None  # autocomplete result (callback type 8)
    sessions: int = 1
    """Gateway sessions (of the guild's shard) it was queued on. 0: no session of that
    shard exists, so no process ever sees it: to the player, "This interaction failed"
    once its 3 s window has passed (Discord shows that for any unanswered click)."""
    delivered: bool = True
    """Whether it was sent on a live connection at once (else it waits in a dropped
    session's buffer for a RESUME, or nowhere when ``sessions`` is 0)."""

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def messages(self) -> list[FakeMessage]:
        """The original response (if any) then the follow-ups."""
        out = [self.original] if self.original is not None else []
        return out + self.followups
