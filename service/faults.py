"""How a refusal and the faults of a command's arguments are worded, for every adapter alike
(a problem of the HTTP API, a line of the CLI, a row of a CSV report): no HTTP here."""
from __future__ import annotations

from rules.messages import Message
from rules.rule_titles import title_of


def rule_refusal(rule: str, text: Message | str) -> Message:
    """A refusal's detail: ``SJ2-9.2: …`` in English; in Chinese the rule is named in words
    too (``SJ2-9.2（跟牌）：…``), from the section's title (rules/rule_titles.py)."""
    title = title_of(rule)
    # i18n: {rule_name} (the section's name, 跟牌) may be said too, as the Chinese does
    return Message("{rule_}: {message_}", rule_=rule,
                   message_=text if isinstance(text, Message) else Message(text),
                   rule_name=Message(title) if title else rule)


def field_errors(messages, prefix: str = "") -> list[dict]:
    """Marshmallow's nested messages as a flat list of ``{path, message}``, the path a JSON
    Pointer into the request body (``/events/2/data/players/1``)."""
    if isinstance(messages, dict):
        return [e for key, sub in messages.items()
                for e in field_errors(sub, prefix if key == "_schema" else f"{prefix}/{key}")]
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return [{"path": prefix or "/", "message": m} for m in messages]
    if isinstance(messages, list):
        return [e for m in messages for e in field_errors(m, prefix)]
    return [{"path": prefix or "/", "message": str(messages)}]
